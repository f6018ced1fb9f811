import assert from "node:assert/strict";
import { checkSession, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { arrayAt, at } from "./harness/json.ts";

/** The default config with the `fake` provider speaking Anthropic Messages. */
async function anthropicEnv(provider: { url: string }) {
  return await createTestEnv({ provider, protocol: "anthropic" });
}

Deno.test("anthropic: a run posts to /messages with x-api-key, anthropic-version, system, max_tokens and input_schema tools", async () => {
  await using provider = await startFakeProvider([{ text: "Hello." }]);
  await using env = await anthropicEnv(provider);
  const result = await env.run(["run", "-a", "coder", "say hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Hello.\n");
  const [request] = provider.requests;
  assert.equal(request?.path, "/v1/messages");
  assert.equal(request?.headers["x-api-key"], "test-key");
  assert.equal(request?.headers["anthropic-version"], "2023-06-01");
  assert.equal(request?.headers["user-agent"], "rienda/0.1.0");
  assert.equal(request?.headers["authorization"], undefined);
  const body = request?.body;
  assert.equal(at(body, "model"), "fake-model");
  assert.equal(at(body, "max_tokens"), 8192);
  assert.equal(at(body, "stream"), true);
  assert.ok(String(at(body, "system", 0, "text")).includes("You answer briefly."));
  assert.deepEqual(arrayAt(body, "messages").map((message) => at(message, "role")), ["user"]);
  assert.equal(at(body, "messages", 0, "content", 0, "text"), "say hi");
  const tool = arrayAt(body, "tools")[0];
  assert.equal(at(tool, "name"), "shell");
  assert.equal(at(tool, "input_schema", "type"), "object");
  assert.equal(at(tool, "parameters"), undefined);
});

Deno.test("anthropic: tool results answer their tool_use ids in one user message, errors with is_error", async () => {
  await using provider = await startFakeProvider([
    {
      text: "Running both.",
      toolCalls: [
        { id: "toolu_ok", name: "shell", arguments: { command: "echo fine" } },
        { id: "toolu_bad", name: "shell", arguments: { command: "exit 3" } },
      ],
    },
    { text: "One failed." },
  ]);
  await using env = await anthropicEnv(provider);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const messages = arrayAt(provider.requests[1]?.body, "messages");
  assert.deepEqual(messages.map((message) => at(message, "role")), ["user", "assistant", "user"]);
  assert.deepEqual(at(messages[1], "content"), [
    { type: "text", text: "Running both." },
    { type: "tool_use", id: "toolu_ok", name: "shell", input: { command: "echo fine" } },
    { type: "tool_use", id: "toolu_bad", name: "shell", input: { command: "exit 3" } },
  ]);
  const results = arrayAt(messages[2], "content");
  assert.deepEqual(results.map((block) => at(block, "type")), ["tool_result", "tool_result"]);
  assert.deepEqual(results.map((block) => at(block, "tool_use_id")), ["toolu_ok", "toolu_bad"]);
  assert.deepEqual(results.map((block) => at(block, "is_error")), [false, true]);
  assert.match(String(at(results[0], "content", 0, "text")), /fine/);
  assert.match(String(at(results[1], "content", 0, "text")), /code 3/);
});

Deno.test("anthropic: signed thinking is stored and sent back unchanged on the next turn", async () => {
  await using provider = await startFakeProvider([
    {
      thinking: "I will list the files.",
      thinkingSignature: "sig-abc123",
      chunks: 3,
      toolCalls: [{ id: "toolu_1", name: "shell", arguments: { command: "echo a" } }],
    },
    { text: "Done." },
  ]);
  await using env = await anthropicEnv(provider);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Done.\n");
  assert.ok(!result.stderr.includes("I will list"), "thinking reached stderr");
  const replayed = at(provider.requests[1]?.body, "messages", 1, "content", 0);
  assert.deepEqual(replayed, {
    type: "thinking",
    thinking: "I will list the files.",
    signature: "sig-abc123",
  });
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(at(session.entries[1], "blocks", 0), {
    type: "thinking",
    thinking: "I will list the files.",
    thinkingSignature: "sig-abc123",
  });
});

Deno.test("anthropic: usage is stored with input excluding cache reads and writes", async () => {
  await using provider = await startFakeProvider([
    { text: "ok", usage: { input: 12, output: 7, cachedInput: 300, cacheWrite: 40 } },
  ]);
  await using env = await anthropicEnv(provider);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(at(session.entries[1], "responseUsage"), {
    inputTokens: 12,
    outputTokens: 7,
    reasoningTokens: 0,
    cacheReadTokens: 300,
    cacheWriteTokens: 40,
  });
});

Deno.test("anthropic: an overloaded 529 is retried and the next attempt answers", async () => {
  await using provider = await startFakeProvider([
    { status: 529, errorMessage: "Overloaded" },
    { text: "Back." },
  ]);
  await using env = await anthropicEnv(provider);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Back.\n");
  assert.match(result.stderr, /retrying in \d+\.\ds: Overloaded \(status 529\)/);
  assert.equal(provider.requests.length, 2);
});

Deno.test("anthropic: model settings set max_tokens, temperature and top_p; configured headers are sent", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await anthropicEnv(provider);
  await env.writeConfig(
    defaultConfig(provider.url, "anthropic").replace(
      "        id: fake-model\n",
      "        id: fake-model\n        max_tokens: 1000\n        temperature: 0.3\n        top_p: 0.9\n",
    ).replace(
      "    api_key: test-key\n",
      "    api_key: test-key\n    headers: { x-team: research }\n",
    ),
  );
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const body = provider.requests[0]?.body;
  assert.deepEqual([at(body, "max_tokens"), at(body, "temperature"), at(body, "top_p")], [
    1000,
    0.3,
    0.9,
  ]);
  assert.equal(provider.requests[0]?.headers["x-team"], "research");
});
