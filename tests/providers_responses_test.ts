import assert from "node:assert/strict";
import { checkSession, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { arrayAt, at } from "./harness/json.ts";

/** The default config with the `fake` provider speaking OpenAI Responses. */
async function responsesEnv(provider: { url: string }) {
  return await createTestEnv({ provider, protocol: "openai_responses" });
}

Deno.test("responses: a run posts to /responses with a Bearer key, instructions, typed input, store false and tools", async () => {
  await using provider = await startFakeProvider([{ text: "Hello.", chunks: 2 }]);
  await using env = await responsesEnv(provider);
  const result = await env.run(["run", "-a", "coder", "say hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Hello.\n");
  const [request] = provider.requests;
  assert.equal(request?.path, "/v1/responses");
  assert.equal(request?.headers["authorization"], "Bearer test-key");
  assert.equal(request?.headers["user-agent"], "rienda/0.1.0");
  const body = request?.body;
  assert.equal(at(body, "model"), "fake-model");
  assert.equal(at(body, "stream"), true);
  assert.equal(at(body, "store"), false);
  assert.ok(String(at(body, "instructions")).includes("You answer briefly."));
  assert.deepEqual(at(body, "input"), [
    { type: "message", role: "user", content: [{ type: "input_text", text: "say hi" }] },
  ]);
  const tool = arrayAt(body, "tools")[0];
  assert.deepEqual([at(tool, "type"), at(tool, "name")], ["function", "shell"]);
  assert.equal(at(tool, "parameters", "type"), "object");
  assert.equal(at(body, "reasoning"), undefined);
  assert.equal(at(body, "include"), undefined);
});

Deno.test("responses: function calls are answered by function_call_output items with the same call_id", async () => {
  await using provider = await startFakeProvider([
    {
      text: "Running both.",
      toolCalls: [
        { id: "call_ok", name: "shell", arguments: { command: "echo fine" } },
        { id: "call_bad", name: "shell", arguments: { command: "exit 3" } },
      ],
    },
    { text: "One failed." },
  ]);
  await using env = await responsesEnv(provider);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const input = arrayAt(provider.requests[1]?.body, "input");
  assert.deepEqual(input.map((item) => at(item, "type")), [
    "message",
    "message",
    "function_call",
    "function_call",
    "function_call_output",
    "function_call_output",
  ]);
  assert.deepEqual(input[1], {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: "Running both.", annotations: [] }],
    status: "completed",
    id: "msg_fake1",
  });
  assert.deepEqual(input[2], {
    type: "function_call",
    call_id: "call_ok",
    name: "shell",
    arguments: '{"command":"echo fine"}',
  });
  assert.deepEqual(input.slice(4).map((item) => at(item, "call_id")), ["call_ok", "call_bad"]);
  assert.match(String(at(input[4], "output")), /fine/);
  assert.match(String(at(input[5], "output")), /code 3/);
});

Deno.test("responses: a reasoning item is stored and replayed with its id, encrypted content and summary", async () => {
  await using provider = await startFakeProvider([
    {
      thinking: "Plan: run echo.",
      thinkingSignature: "enc-blob-1",
      toolCalls: [{ id: "call_1", name: "shell", arguments: { command: "echo a" } }],
    },
    { text: "Done." },
  ]);
  await using env = await responsesEnv(provider);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Done.\n");
  assert.ok(!result.stderr.includes("Plan: run echo."), "thinking reached stderr");
  const replayed = arrayAt(provider.requests[1]?.body, "input")[1];
  assert.deepEqual(replayed, {
    type: "reasoning",
    id: "rs_fake1",
    encrypted_content: "enc-blob-1",
    summary: [{ type: "summary_text", text: "Plan: run echo." }],
  });
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  const stored = at(session.entries[1], "blocks", 0);
  assert.equal(at(stored, "type"), "thinking");
  assert.equal(at(stored, "thinking"), "Plan: run echo.");
  assert.deepEqual(JSON.parse(String(at(stored, "thinkingSignature"))), replayed);
});

Deno.test("responses: usage is stored with cached input subtracted and reasoning counted", async () => {
  await using provider = await startFakeProvider([
    { text: "ok", usage: { input: 20, output: 9, cachedInput: 80, reasoning: 4 } },
  ]);
  await using env = await responsesEnv(provider);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(at(session.entries[1], "responseUsage"), {
    inputTokens: 20,
    outputTokens: 9,
    reasoningTokens: 4,
    cacheReadTokens: 80,
    cacheWriteTokens: 0,
  });
});

Deno.test("responses: an answer cut at max_output_tokens is stored with stop reason max_tokens", async () => {
  await using provider = await startFakeProvider([
    { text: "partial", finishReason: "max_output_tokens" },
  ]);
  await using env = await responsesEnv(provider);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.stdout, "partial\n");
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.equal(at(session.entries[1], "responseStopReason"), "max_tokens");
});
