import assert from "node:assert/strict";
import { linesOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";

/** The lines of `rienda models` as [reference, state, detail]. */
function rowsOf(stdout: string): string[][] {
  return linesOf(stdout).map((line) => line.split(/\s{2,}/));
}

Deno.test("models lists declared models, then built-ins whose key is present, marking which are ready", async () => {
  // A server standing in for the local ones (any HTTP answer counts).
  await using server = await startFakeProvider();
  await using env = await createTestEnv({ noConfig: true });
  await env.writeConfig(
    [
      "default_model: local/qwen",
      "providers:",
      "  local:",
      "    preset: ollama",
      `    base_url: ${server.url}`,
      "    models:",
      "      qwen: { id: qwen2.5-coder:7b }",
      "  work:",
      "    protocol: anthropic",
      "    base_url: https://llm.example.com/v1",
      "    api_key_env: WORK_KEY",
      "    models:",
      "      big: {}",
      "      small: {}",
      "  lmstudio:",
      "    base_url: http://127.0.0.1:1/v1", // nothing listens there
      "",
    ].join("\n"),
  );
  const login = await env.run(["auth", "login", "groq"], { stdin: "groq-secret\n" });
  assert.equal(login.code, 0, login.stderr);
  const origin = server.url.replace(/\/v1$/, "");
  const result = await env.run(["models"], {
    env: { ANTHROPIC_API_KEY: "ant-secret", OLLAMA_HOST: origin },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const reachable = `${server.url} reachable (HTTP 404)`;
  // The reason a connection fails is the platform's: kept out of the comparison.
  const rows = rowsOf(result.stdout.replace(/unreachable: .*/, "unreachable: NOT RUNNING"));
  assert.deepEqual(rows, [
    ["local/qwen", "ready", `default; no key needed, ${reachable}`],
    ["work/big", "not ready", "key missing: set WORK_KEY or run rienda auth login work"],
    ["work/small", "not ready", "key missing: set WORK_KEY or run rienda auth login work"],
    ...["claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5", "*"].map((model) => [
      `anthropic/${model}`,
      "ready",
      "key from environment (ANTHROPIC_API_KEY)",
    ]),
    ...["openai/gpt-oss-120b", "llama-3.3-70b-versatile", "*"].map((model) => [
      `groq/${model}`,
      "ready",
      "key from credentials.json",
    ]),
    ["ollama/*", "ready", `no key needed, ${reachable}`],
    ["lmstudio/*", "not ready", "no key needed, http://127.0.0.1:1/v1 unreachable: NOT RUNNING"],
    ...["sonnet", "opus", "haiku"].map((alias) => [
      alias,
      "ready",
      `alias of anthropic/claude-${alias}-4-5; key from environment (ANTHROPIC_API_KEY)`,
    ]),
  ]);
  assert.ok(!result.stdout.includes("secret"));
});

Deno.test("models says where a declared model's key comes from and lists a keyed built-in", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["models"], { env: { OPENAI_API_KEY: "k" } });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(rowsOf(result.stdout).slice(0, 2), [
    ["fake/m", "ready", "default; key from config (providers.fake.api_key)"],
    ["openai/gpt-5", "ready", "key from environment (OPENAI_API_KEY)"],
  ]);
});

Deno.test("models names the known models of a keyed provider and every alias with its target's state", async () => {
  await using env = await createTestEnv({ noConfig: true });
  await env.writeConfig("model_aliases:\n  fast: groq/llama-3.3-70b-versatile\n");
  const result = await env.run(["models"], {
    env: { OPENAI_API_KEY: "sk-o", ANTHROPIC_API_KEY: "", GROQ_API_KEY: "" },
  });
  assert.equal(result.code, 0, result.stderr);
  const rows = rowsOf(result.stdout);
  const refs = rows.map((row) => row[0]);
  assert.deepEqual(refs.filter((ref) => ref?.startsWith("openai/")), [
    "openai/gpt-5",
    "openai/gpt-5-mini",
    "openai/gpt-4.1",
    "openai/gpt-4o",
    "openai/gpt-4o-mini",
    "openai/o3",
    "openai/o4-mini",
    "openai/*",
  ]);
  assert.ok(!refs.some((ref) => ref?.startsWith("anthropic/")), "a provider without a key");
  assert.deepEqual(rows.slice(-4), [
    [
      "sonnet",
      "not ready",
      "alias of anthropic/claude-sonnet-4-5; key missing: set ANTHROPIC_API_KEY or run rienda auth login anthropic",
    ],
    [
      "opus",
      "not ready",
      "alias of anthropic/claude-opus-4-5; key missing: set ANTHROPIC_API_KEY or run rienda auth login anthropic",
    ],
    [
      "haiku",
      "not ready",
      "alias of anthropic/claude-haiku-4-5; key missing: set ANTHROPIC_API_KEY or run rienda auth login anthropic",
    ],
    [
      "fast",
      "not ready",
      "alias of groq/llama-3.3-70b-versatile; key missing: set GROQ_API_KEY or run rienda auth login groq",
    ],
  ]);
});
