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
    ["anthropic/*", "ready", "key from environment (ANTHROPIC_API_KEY)"],
    ["groq/*", "ready", "key from credentials.json"],
    ["ollama/*", "ready", `no key needed, ${reachable}`],
    ["lmstudio/*", "not ready", "no key needed, http://127.0.0.1:1/v1 unreachable: NOT RUNNING"],
  ]);
  assert.ok(!result.stdout.includes("secret"));
});

Deno.test("models says where a declared model's key comes from and lists a keyed built-in", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["models"], { env: { OPENAI_API_KEY: "k" } });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(rowsOf(result.stdout).slice(0, 2), [
    ["fake/m", "ready", "default; key from config (providers.fake.api_key)"],
    ["openai/*", "ready", "key from environment (OPENAI_API_KEY)"],
  ]);
});
