import assert from "node:assert/strict";
import { ExtensionHost } from "../host.ts";
import {
  makeContext,
  makeSandbox,
  returned,
  runTool,
  thrown,
} from "../../../tests/_testing/extension_fixtures.ts";
import { MAX_HTTP_BODY_BYTES, readCappedBody } from "./http.ts";

const sandbox = await makeSandbox();
const context = makeContext(sandbox);

function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

Deno.test("readCappedBody() cuts on a character boundary", async () => {
  const bytes = new TextEncoder().encode("aé€😀");
  for (let limit = 0; limit <= bytes.length; limit++) {
    const text = await readCappedBody(streamOf(bytes.slice(0, 2), bytes.slice(2)), limit);
    assert.ok(!text.includes("\uFFFD"), `limit ${limit}: ${text}`);
    assert.ok(new TextEncoder().encode(text).length <= limit);
  }
  assert.equal(await readCappedBody(streamOf(bytes), 6), "aé€");
  assert.equal(await readCappedBody(null, 10), "");
});

Deno.test("ctx.http.fetch", async (t) => {
  const requests: { method: string; agent: string | null; custom: string | null; body: string }[] =
    [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      requests.push({
        method: request.method,
        agent: request.headers.get("user-agent"),
        custom: request.headers.get("x-custom"),
        body: await request.text(),
      });
      if (url.pathname === "/slow") await new Promise((resolve) => setTimeout(resolve, 2000));
      if (url.pathname === "/big") return new Response("x".repeat(MAX_HTTP_BODY_BYTES + 10));
      return new Response(`hello ${url.pathname}`, {
        status: url.pathname === "/missing" ? 404 : 200,
        headers: { "X-Reply": "R" },
      });
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  using host = new ExtensionHost();
  try {
    await t.step(
      "fetch() returns status, lower-cased headers and body for any status",
      async () => {
        const body =
          `const r = ctx.http.fetch("${base}/missing"); return [r.status, r.headers["x-reply"], r.body];`;
        assert.deepEqual(returned(await runTool(host, context, body)), [
          404,
          "R",
          "hello /missing",
        ]);
        assert.match(requests.at(-1)?.agent ?? "", /^rienda\//);
      },
    );

    await t.step("fetch() sends method, headers and body as given", async () => {
      const body =
        `return ctx.http.fetch("${base}/post", { method: "post", headers: { "X-Custom": "c" }, body: "payload" }).status;`;
      assert.equal(returned(await runTool(host, context, body)), 200);
      assert.deepEqual(requests.at(-1), {
        method: "POST",
        agent: `rienda/${(await import("../../base/version.ts")).VERSION}`,
        custom: "c",
        body: "payload",
      });
    });

    await t.step("fetch() caps the body at 256 KiB", async () => {
      const body = `return ctx.http.fetch("${base}/big").body.length;`;
      assert.equal(returned(await runTool(host, context, body)), MAX_HTTP_BODY_BYTES);
    });

    await t.step("fetch() with timeout_ms fails with a clear error", async () => {
      const error = thrown(
        await runTool(host, context, `ctx.http.fetch("${base}/slow", { timeout_ms: 100 });`),
      );
      assert.equal(
        error.message,
        `ctx.http.fetch: the request timed out after 100 ms: GET ${base}/slow`,
      );
    });

    await t.step("fetch() rejects bad URLs and wrong option types", async () => {
      const cases: [string, string][] = [
        [
          `ctx.http.fetch("ftp://x")`,
          'ctx.http.fetch: only http and https URLs are supported (found "ftp://x")',
        ],
        [`ctx.http.fetch("not a url")`, 'ctx.http.fetch: invalid URL: "not a url"'],
        [
          `ctx.http.fetch("${base}", { headers: { a: 1 } })`,
          "ctx.http.fetch: headers.a must be a string (found number)",
        ],
        [
          `ctx.http.fetch("${base}", { timeout_ms: -5 })`,
          "ctx.http.fetch: timeout_ms must be a non-negative number (found number)",
        ],
      ];
      for (const [call, message] of cases) {
        assert.equal(thrown(await runTool(host, context, `${call};`)).message, message, call);
      }
    });

    await t.step("fetch() in flight is aborted when the run is interrupted", async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = performance.now();
      const result = await runTool(host, context, `ctx.http.fetch("${base}/slow");`, {
        signal: controller.signal,
      });
      assert.equal(result.kind === "stopped" && result.reason, "interrupted");
      assert.ok(performance.now() - started < 1000);
    });
  } finally {
    await server.shutdown();
  }
});
