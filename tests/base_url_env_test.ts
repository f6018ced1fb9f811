/**
 * The conventional base-URL variables of the built-in providers
 * (docs/providers.md, Base URL variables): each moves its provider, with the
 * path the vendor's SDK adds; config.yaml's base_url wins; a bad value fails
 * before any request.
 */

import assert from "node:assert/strict";
import { assertNothingSent, lastLine } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";

const KEYS = {
  OPENAI_API_KEY: "sk-openai-test",
  ANTHROPIC_API_KEY: "sk-ant-test",
  GROQ_API_KEY: "gsk-test",
  TOGETHER_API_KEY: "tg-test",
};

/** One run with `-m ref` and extra variables; returns the result and the paths requested. */
async function runWith(
  ref: string,
  env: Record<string, string>,
  turns: readonly Turn[] = [{ text: "ok" }],
) {
  await using provider = await startFakeProvider(turns);
  await using test = await createTestEnv({ provider, noConfig: true });
  const origin = provider.url.replace(/\/v1$/, "");
  const filled = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, value.replace("{origin}", origin)]),
  );
  const result = await test.run(["run", "-a", "coder", "-m", ref, "hi"], {
    env: { ...KEYS, ...filled },
  });
  return { result, paths: provider.requests.map((request) => request.path) };
}

Deno.test("OPENAI_BASE_URL moves the openai provider", async () => {
  const { result, paths } = await runWith("openai/gpt-4o", { OPENAI_BASE_URL: "{origin}/v1/" });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "ok\n");
  assert.deepEqual(paths, ["/v1/responses"]);
});

Deno.test("ANTHROPIC_BASE_URL is the API root as Anthropic's SDK takes it (/v1 added once)", async () => {
  for (const value of ["{origin}", "{origin}/v1"]) {
    const { result, paths } = await runWith("anthropic/claude-sonnet-4-5", {
      ANTHROPIC_BASE_URL: value,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(paths, ["/v1/messages"], value);
  }
});

Deno.test("OLLAMA_HOST as host:port moves the ollama provider", async () => {
  const { result, paths } = await runWith("ollama/qwen", {
    OLLAMA_HOST: "{origin}".replace("http://", ""),
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(paths, ["/v1/chat/completions"]);
});

Deno.test("TOGETHER_BASE_URL and GROQ_BASE_URL move their providers", async () => {
  const together = await runWith("together/m", { TOGETHER_BASE_URL: "{origin}/v1" });
  assert.equal(together.result.code, 0, together.result.stderr);
  assert.deepEqual(together.paths, ["/v1/chat/completions"]);
  // Groq's SDK takes the origin and adds /openai/v1 (the fake answers 404 there).
  const groq = await runWith("groq/m", { GROQ_BASE_URL: "{origin}" });
  assert.equal(groq.paths[0], "/openai/v1/chat/completions");
});

Deno.test("base_url in config.yaml wins over OPENAI_BASE_URL", async () => {
  await using provider = await startFakeProvider([{ text: "from config" }]);
  await using env = await createTestEnv({ provider, noConfig: true });
  await env.writeConfig(`providers:\n  openai:\n    base_url: ${provider.url}\n`);
  const result = await env.run(["run", "-a", "coder", "-m", "openai/gpt-4o", "hi"], {
    env: { ...KEYS, OPENAI_BASE_URL: "http://127.0.0.1:1/v1" },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "from config\n");
});

Deno.test("a base-URL variable that is not a URL fails before any request, naming it", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider, noConfig: true });
  const result = await env.run(["run", "-a", "coder", "-m", "openai/gpt-4o", "hi"], {
    env: { ...KEYS, OPENAI_BASE_URL: "ftp://nowhere" },
  });
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    lastLine(result.stderr),
    'rienda: OPENAI_BASE_URL is not an http(s) URL (found "ftp://nowhere"): set it to e.g. https://gateway.example.com, or unset it',
  );
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("a 404 from /responses on a server that is not OpenAI's says to switch to chat completions", async () => {
  const { result, paths } = await runWith(
    "openai/gpt-4o",
    { OPENAI_BASE_URL: "{origin}/v1" },
    [{ status: 404, errorMessage: "Not Found" }],
  );
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    lastLine(result.stderr),
    "rienda: Not Found (status 404): this server may only speak chat completions: set protocol: openai_chat_completions for provider openai",
  );
  assert.deepEqual(paths, ["/v1/responses"], "a 404 is not retried");
});
