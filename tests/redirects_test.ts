import assert from "node:assert/strict";
import { lastLine } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";

const KEY = "sk-ant-redirect-0123456789abcdef";

function config(url: string): string {
  return defaultConfig(url, "anthropic").replace(
    "api_key: test-key",
    `api_key: ${KEY}\n    headers: { x-team: research, x-gateway-token: gw-secret-0123456789 }`,
  );
}

Deno.test("a provider redirect to another origin is refused: nothing reaches the other origin", async () => {
  await using other = await startFakeProvider([{ text: "stolen" }]);
  await using provider = await startFakeProvider([
    { status: 307, headers: { location: `${other.url}/messages` } },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(config(provider.url));
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(other.requests.length, 0, JSON.stringify(other.requests[0]?.headers));
  assert.equal(provider.requests.length, 1);
  assert.equal(
    lastLine(result.stderr),
    `rienda: the provider redirected ${provider.url}/messages to ${other.url}/messages, another origin: ` +
      "rienda sends neither the key nor the conversation there (set base_url to the new address if it is right)",
  );
});

Deno.test("a provider redirect within its origin keeps the key, the headers and the body", async () => {
  await using provider = await startFakeProvider([
    { status: 307, headers: { location: "/v1/messages?moved=1" } },
    { text: "followed" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(config(provider.url));
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "followed\n");
  const [first, second] = provider.requests;
  assert.equal(second?.headers["x-api-key"], KEY);
  assert.equal(second?.headers["x-gateway-token"], "gw-secret-0123456789");
  assert.equal(second?.rawBody, first?.rawBody);
});

/** Server A redirects every request to server B, which records the headers it got. */
function redirectingPair() {
  const seen: Record<string, string>[] = [];
  const b = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push(Object.fromEntries(request.headers));
    return new Response("landed on b");
  });
  const a = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(null, {
        status: 302,
        headers: { location: `http://127.0.0.1:${b.addr.port}/b` },
      }),
  );
  return {
    url: `http://127.0.0.1:${a.addr.port}/a`,
    seen,
    async [Symbol.asyncDispose]() {
      await Promise.all([a.shutdown(), b.shutdown()]);
    },
  };
}

const CREDENTIALS = {
  Authorization: "Bearer ext-secret",
  Cookie: "session=abc",
  "X-Api-Key": "k-123",
  Accept: "text/plain",
};

Deno.test("ctx.http.fetch does not send Authorization, Cookie or an API key header to another origin", async () => {
  await using pair = redirectingPair();
  await using provider = await startFakeProvider([{ toolCalls: [{ name: "web", arguments: {} }] }, {
    text: "done",
  }]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "web",
    `module.exports = {
  description: "Fetches.",
  parameters: { type: "object" },
  execute: function (ctx) {
    return ctx.http.fetch(${JSON.stringify(pair.url)}, { headers: ${
      JSON.stringify(CREDENTIALS)
    } }).body;
  },
};
`,
  );
  await env.writeAgent("coder", { description: "Fetches.", tools: ["web"] });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(pair.seen.length, 1);
  const headers = pair.seen[0] ?? {};
  assert.deepEqual([headers.authorization, headers.cookie, headers["x-api-key"], headers.accept], [
    undefined,
    undefined,
    undefined,
    "text/plain",
  ]);
});

Deno.test("the http tool does not send Authorization or Cookie to another origin", async () => {
  await using pair = redirectingPair();
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "http", arguments: { url: pair.url, headers: CREDENTIALS } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("coder", { description: "Fetches.", tools: ["http"] });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(pair.seen.length, 1);
  const headers = pair.seen[0] ?? {};
  assert.deepEqual([headers.authorization, headers.cookie, headers["x-api-key"]], [
    undefined,
    undefined,
    undefined,
  ]);
});
