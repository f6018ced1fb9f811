import assert from "node:assert/strict";
import { lastLine, retryLines } from "./harness/assertions.ts";
import type { Protocol } from "./harness/codec.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";

async function runScript(turns: Turn[], protocol: Protocol = "openai_chat_completions") {
  await using provider = await startFakeProvider(turns);
  await using env = await createTestEnv({ provider, protocol });
  const result = await env.run(["run", "-a", "coder", "go"]);
  return { result, requests: [...provider.requests], url: provider.url };
}

const HTML_PAGE = [
  "<!DOCTYPE html>",
  "<html><head><title>502 Bad Gateway</title></head>",
  "<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body>",
  "</html>",
  "",
].join("\n");

const HTML = { "content-type": "text/html; charset=utf-8" };

Deno.test("a 429 saying 'Too many tokens, please wait' is a rate limit and is retried", async () => {
  const { result, requests } = await runScript([
    { status: 429, errorMessage: "Too many tokens, please wait before trying again" },
    { text: "after the wait" },
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "after the wait\n");
  assert.equal(requests.length, 2);
});

for (const type of ["authentication_error", "invalid_request_error"]) {
  Deno.test(`an in-stream ${type} event is not retried`, async () => {
    const event = { type: "error", error: { type, message: `the stream says ${type}` } };
    const { result, requests } = await runScript([
      { rawStream: { chunks: [`event: error\ndata: ${JSON.stringify(event)}\n\n`] } },
      { text: "never" },
    ], "anthropic");
    assert.equal(result.code, 1, result.stderr);
    assert.equal(requests.length, 1);
    assert.deepEqual(retryLines(result.stderr), []);
    // A refused key also says which key (its provider, where it came from).
    const hint = type === "authentication_error"
      ? ': provider "fake" refused the key from config (providers.fake.api_key): check it, or ' +
        "replace it with rienda auth login fake"
      : "";
    assert.equal(lastLine(result.stderr), `rienda: the stream says ${type}${hint}`);
  });
}

Deno.test("an HTML 502 page is one retry line naming the URL", async () => {
  const { result, requests, url } = await runScript([
    { status: 502, errorBody: HTML_PAGE, headers: HTML },
    { text: "behind the gateway" },
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(requests.length, 2);
  assert.deepEqual(retryLines(result.stderr).map((retry) => retry.error), [
    `HTTP 502 from ${url}/chat/completions (an HTML page, not an API response)`,
  ]);
  assert.ok(!result.stderr.includes("nginx"), result.stderr);
});

Deno.test("an HTML 400 page, even without a content type, is one final line naming the URL", async () => {
  const { result, requests, url } = await runScript([
    { status: 400, errorBody: HTML_PAGE.replace("502 Bad Gateway", "400 Bad Request") },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(requests.length, 1);
  assert.equal(
    lastLine(result.stderr),
    `rienda: HTTP 400 from ${url}/chat/completions (an HTML page, not an API response)`,
  );
});

Deno.test("a 200 HTML page (a captive portal) is reported as such at once, not as a cut stream", async () => {
  const portal: Turn = {
    status: 200,
    errorBody: "<html><body>Sign in to Hotel WiFi</body></html>",
  };
  const { result, requests, url } = await runScript([
    { ...portal, headers: HTML },
    { text: "never" },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(requests.length, 1);
  assert.deepEqual(retryLines(result.stderr), []);
  assert.equal(
    lastLine(result.stderr),
    `rienda: HTTP 200 from ${url}/chat/completions (an HTML page, not an API response): ` +
      "check base_url, or sign in to the network (a captive portal answers like this)",
  );
});

Deno.test("a 501 is not retried", async () => {
  const { result, requests } = await runScript([
    { status: 501, errorMessage: "responses are not implemented here" },
    { text: "never" },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(requests.length, 1);
  assert.equal(lastLine(result.stderr), "rienda: responses are not implemented here (status 501)");
});

Deno.test("a retry-after of 30 s is waited in full (up to 60 s), not cut to 8 s", async () => {
  await using provider = await startFakeProvider([
    { status: 429, errorMessage: "slow down", headers: { "retry-after": "30" } },
  ]);
  await using env = await createTestEnv({ provider });
  await using run = await env.start(["run", "-a", "coder", "go"]);
  await run.waitForStderr("slow down (status 429)\n");
  run.kill("SIGINT");
  const result = await run.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.deepEqual(retryLines(result.stderr), [{ seconds: 30, error: "slow down (status 429)" }]);
});

Deno.test("a retry-after over 60 s fails the run at once, saying so", async () => {
  const { result, requests } = await runScript([
    { status: 429, errorMessage: "daily quota used", headers: { "retry-after": "3600" } },
    { text: "never" },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(requests.length, 1);
  assert.equal(
    lastLine(result.stderr),
    "rienda: daily quota used (status 429); the provider asks to retry after 3600 s, " +
      "longer than rienda waits (60 s): try again later",
  );
});

Deno.test("an endless answer ends with the answer limit, not a crash", async () => {
  const delta = JSON.stringify({
    model: "m",
    choices: [{ index: 0, delta: { content: "y".repeat(1024 * 1024) } }],
  });
  const { result, requests } = await runScript([
    { rawStream: { chunks: [`data: ${delta}\n\n`], repeat: 80 } },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(requests.length, 1);
  assert.equal(
    lastLine(result.stderr),
    "rienda: the response is longer than 64 MiB, the most rienda reads of one answer: " +
      "ask for a shorter answer or lower the model's max_tokens",
  );
});

Deno.test("one server-sent event over 32 MiB ends with the event limit", async () => {
  const piece = "z".repeat(1024 * 1024);
  const { result, requests } = await runScript([
    { rawStream: { chunks: ['data: {"choices":[{"delta":{"content":"', piece], repeat: 40 } },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(requests.length, 1);
  assert.equal(
    lastLine(result.stderr),
    "rienda: the provider sent one server-sent event longer than 32 MiB, the most rienda reads: " +
      "check that base_url points at the model API",
  );
});
