import { deepStrictEqual as assertEquals, rejects as assertRejects } from "node:assert/strict";
import { fetchFollowingRedirects, RedirectError } from "./redirects.ts";

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | null;
  readonly custom: string | null;
  readonly body: string;
}

/** Two servers on 127.0.0.1 (two origins); `/to-other/N` redirects with status N to the other one. */
async function withServers(test: (a: string, b: string, seen: Seen[]) => Promise<void>) {
  const seen: Seen[] = [];
  const ports: number[] = [];
  const handler = (index: number) => async (request: Request) => {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      path: `${index === 0 ? "a" : "b"}${url.pathname}`,
      authorization: request.headers.get("authorization"),
      custom: request.headers.get("x-custom"),
      body: await request.text(),
    });
    const [, kind, status] = url.pathname.split("/");
    const other = `http://127.0.0.1:${ports[1 - index]}`;
    if (kind === "to-other") return redirect(Number(status), `${other}/end`);
    if (kind === "same") return redirect(Number(status), "/end");
    if (kind === "loop") return redirect(302, "/loop");
    return new Response(`end of ${index === 0 ? "a" : "b"}`);
  };
  await using a = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler(0));
  await using b = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler(1));
  ports.push(a.addr.port, b.addr.port);
  await test(`http://127.0.0.1:${ports[0]}`, `http://127.0.0.1:${ports[1]}`, seen);
}

function redirect(status: number, location: string): Response {
  return new Response(null, { status, headers: { location } });
}

const HEADERS = { authorization: "Bearer secret", "x-custom": "kept" };
const DROP = {
  kind: "drop_credentials",
  isCredential: (name: string) => name === "authorization",
} as const;

function post(signal = new AbortController().signal) {
  return { method: "POST", headers: new Headers(HEADERS), body: "payload", signal };
}

Deno.test("fetchFollowingRedirects() keeps headers, method and body within one origin (307)", async () => {
  await withServers(async (a, _b, seen) => {
    const { response, url } = await fetchFollowingRedirects(new URL(`${a}/same/307`), post(), {
      crossOrigin: { kind: "refuse" },
    });
    assertEquals([await response.text(), url.href], ["end of a", `${a}/end`]);
    assertEquals(seen[1], {
      method: "POST",
      path: "a/end",
      authorization: "Bearer secret",
      custom: "kept",
      body: "payload",
    });
  });
});

Deno.test("fetchFollowingRedirects() refuses another origin without sending anything there", async () => {
  await withServers(async (a, b, seen) => {
    await assertRejects(
      fetchFollowingRedirects(new URL(`${a}/to-other/307`), post(), {
        crossOrigin: { kind: "refuse" },
      }),
      (error: unknown) =>
        error instanceof RedirectError && error.to?.origin === b &&
        error.message === `${a}/to-other/307 redirected to another origin (${b})`,
    );
    assertEquals(seen.map((entry) => entry.path), ["a/to-other/307"]);
  });
});

Deno.test("fetchFollowingRedirects() drops credential headers at another origin; 303 becomes a GET", async () => {
  await withServers(async (a, _b, seen) => {
    const kept = await fetchFollowingRedirects(new URL(`${a}/to-other/308`), post(), {
      crossOrigin: DROP,
    });
    assertEquals(await kept.response.text(), "end of b");
    assertEquals(seen[1], {
      method: "POST",
      path: "b/end",
      authorization: null,
      custom: "kept",
      body: "payload",
    });
    const got = await fetchFollowingRedirects(new URL(`${a}/to-other/303`), post(), {
      crossOrigin: DROP,
    });
    await got.response.body?.cancel();
    assertEquals(seen[3], {
      method: "GET",
      path: "b/end",
      authorization: null,
      custom: "kept",
      body: "",
    });
  });
});

Deno.test("fetchFollowingRedirects() stops after 20 redirects", async () => {
  await withServers(async (a, _b, seen) => {
    await assertRejects(
      fetchFollowingRedirects(new URL(`${a}/loop`), post(), { crossOrigin: DROP }),
      (error: unknown) =>
        error instanceof RedirectError && error.message === `more than 20 redirects from ${a}/loop`,
    );
    assertEquals(seen.length, 21);
  });
});
