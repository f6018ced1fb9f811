import assert from "node:assert/strict";
import { checkSession, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";

Deno.test("chat completions: model settings send max_tokens, temperature and top_p", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url).replace(
      "        id: fake-model\n",
      "        id: fake-model\n        max_tokens: 512\n        temperature: 0.7\n        top_p: 0.95\n",
    ),
  );
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const body = provider.requests[0]?.body;
  assert.deepEqual(
    [at(body, "max_tokens"), at(body, "temperature"), at(body, "top_p")],
    [512, 0.7, 0.95],
  );
  assert.equal(at(body, "reasoning_effort"), undefined);
});

Deno.test("usage is normalised the same way on all three protocols", async () => {
  const usage = { input: 30, output: 12, cachedInput: 50, reasoning: 5 };
  for (const protocol of ["openai_chat_completions", "openai_responses", "anthropic"] as const) {
    await using provider = await startFakeProvider([{ text: "ok", usage }]);
    await using env = await createTestEnv({ provider, protocol });
    const result = await env.run(["run", "-a", "coder", "go"]);
    assert.equal(result.code, 0, result.stderr);
    const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
    assert.deepEqual(at(session.entries[1], "responseUsage"), {
      inputTokens: 30,
      outputTokens: 12,
      // Anthropic reports no reasoning count of its own.
      reasoningTokens: protocol === "anthropic" ? 0 : 5,
      cacheReadTokens: 50,
      cacheWriteTokens: 0,
    }, protocol);
  }
});
