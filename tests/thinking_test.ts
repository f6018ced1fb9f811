import assert from "node:assert/strict";
import { assertNothingSent, lastLine } from "./harness/assertions.ts";
import type { Protocol } from "./harness/codec.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";

/** The default config, its model given a temperature and the declared levels. */
function configWith(url: string, protocol: Protocol, levels = "[minimal, xhigh]"): string {
  return defaultConfig(url, protocol).replace(
    "        id: fake-model\n",
    `        id: fake-model\n        temperature: 0.5\n        thinking_levels: ${levels}\n`,
  );
}

Deno.test("--thinking sends reasoning_effort on chat completions, and nothing without it", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWith(provider.url, "openai_chat_completions"));
  for (const args of [["--thinking", "high"], ["--thinking", "minimal"], []]) {
    const result = await env.run(["run", "-a", "coder", ...args, "go"]);
    assert.equal(result.code, 0, result.stderr);
  }
  const efforts = provider.requests.map((request) => at(request.body, "reasoning_effort"));
  assert.deepEqual(efforts, ["high", "minimal", undefined]);
  assert.equal(at(provider.requests[0]?.body, "temperature"), 0.5);
});

Deno.test("--thinking sends reasoning.effort with a summary and asks for encrypted reasoning on responses", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider, protocol: "openai_responses" });
  for (const args of [["--thinking", "medium"], []]) {
    const result = await env.run(["run", "-a", "coder", ...args, "go"]);
    assert.equal(result.code, 0, result.stderr);
  }
  const [on, off] = provider.requests;
  assert.deepEqual(at(on?.body, "reasoning"), { effort: "medium", summary: "auto" });
  assert.deepEqual(at(on?.body, "include"), ["reasoning.encrypted_content"]);
  assert.equal(at(off?.body, "reasoning"), undefined);
  assert.equal(at(off?.body, "include"), undefined);
});

Deno.test("--thinking sends the level's budget on anthropic, raising max_tokens and dropping temperature", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWith(provider.url, "anthropic"));
  const budgets = [["low", 2048], ["medium", 4096], ["high", 16384], ["xhigh", 32768]] as const;
  for (const [level] of budgets) {
    provider.push({ text: "ok" });
    const result = await env.run(["run", "-a", "coder", "--thinking", level, "go"]);
    assert.equal(result.code, 0, result.stderr);
  }
  for (const [index, [level, budget]] of budgets.entries()) {
    const body = provider.requests[index]?.body;
    assert.deepEqual(at(body, "thinking"), { type: "enabled", budget_tokens: budget }, level);
    assert.equal(at(body, "max_tokens"), 8192 + budget, level);
    assert.equal(at(body, "temperature"), undefined, level);
  }
  provider.push({ text: "ok" });
  const plain = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(plain.code, 0, plain.stderr);
  const body = provider.requests.at(-1)?.body;
  assert.equal(at(body, "thinking"), undefined);
  assert.equal(at(body, "temperature"), 0.5);
  assert.equal(at(body, "max_tokens"), 8192);
});

Deno.test("thinking is never printed in text mode, on stdout or stderr", async () => {
  await using provider = await startFakeProvider([
    {
      thinking: "the hidden chain of thought",
      thinkingSignature: "sig",
      text: "Answer.",
      chunks: 4,
    },
  ]);
  await using env = await createTestEnv({ provider, protocol: "anthropic" });
  const result = await env.run(["run", "-a", "coder", "--thinking", "low", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Answer.\n");
  assert.ok(!result.stderr.includes("hidden"), result.stderr);
});

Deno.test("an unknown --thinking level is a usage error naming the allowed ones, before any request", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWith(provider.url, "openai_chat_completions", "[minimal]"));
  const result = await env.run(["run", "-a", "coder", "--thinking", "extreme", "go"]);
  assert.equal(result.code, 2);
  assert.match(
    lastLine(result.stderr),
    /^rienda: --thinking: unknown level "extreme" for model "fake\/m" \(allowed: off, low, medium, high, minimal\)/,
  );
  await assertNothingSent(provider, env, result.stderr);
});
