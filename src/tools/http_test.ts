import assert from "node:assert/strict";
import { VERSION } from "../base/version.ts";
import { validateToolArguments } from "./arguments.ts";
import { createHttpTool } from "./http.ts";
import type { ToolCallContext, ToolResult } from "./tool.ts";
import { MAX_TOOL_RESULT_BYTES, TRUNCATION_MARKER, utf8ByteLength } from "./truncate.ts";

const http = createHttpTool();

interface Seen {
  method: string;
  userAgent: string | null;
  contentType: string | null;
  custom: string | null;
  body: string;
}

/** Runs `fn` against a local server that records the requests it sees. */
async function withServer(
  fn: (base: string, seen: Seen[]) => Promise<void>,
): Promise<void> {
  const seen: Seen[] = [];
  const stopSlow = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        userAgent: request.headers.get("user-agent"),
        contentType: request.headers.get("content-type"),
        custom: request.headers.get("x-custom"),
        body: await request.text(),
      });
      switch (url.pathname) {
        case "/json":
          return Response.json({ ok: true });
        case "/missing":
          return new Response("no such page", { status: 404, statusText: "Not Found" });
        case "/empty":
          return new Response(null, { status: 204, statusText: "No Content" });
        case "/redirect":
          return Response.redirect(new URL("/json", url), 302);
        case "/big":
          return new Response("é".repeat(MAX_TOOL_RESULT_BYTES), {
            headers: { "content-type": "text/plain; charset=utf-8" },
          });
        case "/slow":
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, 2000);
            stopSlow.signal.addEventListener("abort", () => {
              clearTimeout(timer);
              resolve(undefined);
            });
          });
          return new Response("late");
        default:
          return new Response("echo", { headers: { "content-type": "text/plain" } });
      }
    },
  );
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    stopSlow.abort();
    await server.shutdown();
  }
}

function call(args: Record<string, unknown>, signal = new AbortController().signal) {
  const context: ToolCallContext = { callId: "c", workdir: Deno.cwd(), signal, output: () => {} };
  return http.execute(args, context);
}

function errorOf(result: ToolResult): string {
  assert.equal(result.isError, true, result.text);
  return result.text;
}

Deno.test("http returns the status line, content type and body", async () => {
  await withServer(async (base) => {
    const result = await call({ url: `${base}/json` });
    assert.deepEqual(result, {
      text: 'HTTP 200 OK\ncontent-type: application/json\n\n{"ok":true}',
      isError: false,
    });
  });
});

Deno.test("http returns a non-2xx response as a successful result", async () => {
  await withServer(async (base) => {
    const result = await call({ url: `${base}/missing` });
    assert.deepEqual(result, {
      text: "HTTP 404 Not Found\ncontent-type: text/plain;charset=UTF-8\n\nno such page",
      isError: false,
    });
  });
});

Deno.test("http says (empty body) for a response without a body", async () => {
  await withServer(async (base) => {
    const result = await call({ url: `${base}/empty`, method: "delete" });
    assert.deepEqual(result, { text: "HTTP 204 No Content\n\n(empty body)", isError: false });
  });
});

Deno.test("http sends method, headers, body and rienda's User-Agent", async () => {
  await withServer(async (base, seen) => {
    await call({
      url: `${base}/echo`,
      method: "post",
      headers: { "content-type": "application/json", "x-custom": "yes" },
      body: '{"a":1}',
    });
    assert.deepEqual(seen, [{
      method: "POST",
      userAgent: `rienda/${VERSION}`,
      contentType: "application/json",
      custom: "yes",
      body: '{"a":1}',
    }]);
  });
});

Deno.test("http keeps a User-Agent the call sets", async () => {
  await withServer(async (base, seen) => {
    await call({ url: `${base}/echo`, headers: { "User-Agent": "mine/1" } });
    assert.equal(seen[0]?.userAgent, "mine/1");
  });
});

Deno.test("http follows redirects and names the final url", async () => {
  await withServer(async (base) => {
    const result = await call({ url: `${base}/redirect` });
    assert.equal(
      result.text,
      `HTTP 200 OK\nurl: ${base}/json\ncontent-type: application/json\n\n{"ok":true}`,
    );
  });
});

Deno.test("http cuts a long body on a character boundary under the cap", async () => {
  await withServer(async (base) => {
    const result = await call({ url: `${base}/big` });
    assert.equal(result.isError, false);
    assert.ok(utf8ByteLength(result.text) <= MAX_TOOL_RESULT_BYTES);
    assert.ok(result.text.endsWith(`é${TRUNCATION_MARKER}`));
    assert.ok(!result.text.includes("\ufffd"));
  });
});

Deno.test("http fails with a clear message after timeout_ms", async () => {
  await withServer(async (base) => {
    const started = Date.now();
    const result = await call({ url: `${base}/slow`, "timeout_ms": 200 });
    assert.equal(errorOf(result), "request timed out after 200ms");
    assert.ok(Date.now() - started < 1500);
  });
});

Deno.test("http stops when the run's signal aborts", async () => {
  await withServer(async (base) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await call({ url: `${base}/slow` }, controller.signal);
    assert.equal(errorOf(result), "request interrupted");
  });
});

Deno.test("http reports a refused connection as an error result naming the url", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const text = errorOf(await call({ url: `http://127.0.0.1:${port}/x` }));
  assert.match(text, new RegExp(`^GET http://127\\.0\\.0\\.1:${port}/x failed: \\S`));
});

Deno.test("http refuses bad urls, methods and bodies before sending", async () => {
  assert.equal(
    errorOf(await call({ url: "ftp://example.com/f" })),
    'url "ftp://example.com/f" is not supported: use an http:// or https:// URL',
  );
  assert.equal(
    errorOf(await call({ url: "example.com" })),
    'url "example.com" is not a valid URL: use an absolute http:// or https:// URL',
  );
  assert.equal(
    errorOf(await call({ url: "http://127.0.0.1:9/", method: "GE T" })),
    'method "GE T" is not a valid HTTP method: use GET, POST, PUT, …',
  );
  assert.equal(
    errorOf(await call({ url: "http://127.0.0.1:9/", body: "x" })),
    'a GET request cannot have a body: use POST or PUT, or leave out "body"',
  );
  assert.match(
    errorOf(await call({ url: "http://127.0.0.1:9/", headers: { "bad name": "x" } })),
    /^header "bad name" is invalid: /,
  );
});

Deno.test("http's schema requires url and keeps header values strings", async () => {
  const check = async (raw: unknown) => {
    const outcome = await validateToolArguments(http, raw);
    return outcome.ok ? "ok" : outcome.message;
  };
  assert.equal(await check({ url: "http://x", "timeout_ms": 600_000 }), "ok");
  assert.equal(await check({}), 'the tool was not executed: "url" is required');
  assert.equal(
    await check({ url: "http://x", headers: { a: 1 } }),
    'the tool was not executed: "headers.a" must be string (found 1)',
  );
  assert.equal(
    await check({ url: "http://x", "timeout_ms": 600_001 }),
    'the tool was not executed: "timeout_ms" must be <= 600000 (found 600001)',
  );
});
