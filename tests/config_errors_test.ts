import assert from "node:assert/strict";
import { assertNothingSent, lastLine } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { type FakeProvider, startFakeProvider } from "./harness/fake_provider.ts";

/**
 * Broken configurations: each fails before any request (exit 1, no session)
 * with one `rienda:` line naming the config file and matching `expect`.
 */
const BROKEN_CONFIGS: { claim: string; edit: (config: string) => string; expect: RegExp }[] = [
  {
    claim: "an unknown top-level key",
    edit: (config) => `${config}colour: red\n`,
    expect: /colour/,
  },
  {
    claim: "an unknown provider key",
    edit: (config) =>
      config.replace("    api_key: test-key", "    api_key: test-key\n    bse_url: x"),
    expect: /bse_url/,
  },
  {
    claim: "a base_url that is not a string",
    edit: (config) => config.replace(/base_url: .*/, "base_url: 42"),
    expect: /base_url/,
  },
  {
    claim: "a model setting of the wrong type",
    edit: (config) =>
      config.replace("id: fake-model", "id: fake-model\n        context_window: big"),
    expect: /context_window/,
  },
  {
    claim: "a header value that is not a string",
    edit: (config) =>
      config.replace("    api_key: test-key", "    api_key: test-key\n    headers: { x-n: [1] }"),
    expect: /headers/,
  },
  {
    claim: "invalid YAML",
    edit: (config) => `${config}providers2: [unclosed\n`,
    expect: /yaml/i,
  },
  {
    claim: "an unknown protocol",
    edit: (config) =>
      config.replace("protocol: openai_chat_completions", "protocol: carrier_pigeon"),
    expect: /protocol/,
  },
  {
    claim: "a malformed default_model",
    edit: (config) => config.replace("default_model: fake/m", "default_model: nomodel"),
    expect: /nomodel/,
  },
];

/** Runs the CLI, expects exit 1 with nothing sent, and returns the `rienda:` line. */
async function failsBeforeRequest(
  provider: FakeProvider,
  env: TestEnv,
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<string> {
  const result = await env.run(args, options);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "");
  const last = lastLine(result.stderr);
  assert.match(last, /^rienda: /);
  await assertNothingSent(provider, env, result.stderr);
  return last;
}

for (const { claim, edit, expect } of BROKEN_CONFIGS) {
  Deno.test(`run rejects a config.yaml with ${claim} before any request`, async () => {
    await using provider = await startFakeProvider([{ text: "never" }]);
    await using env = await createTestEnv({ provider });
    await env.writeConfig(edit(defaultConfig(provider.url)));
    const last = await failsBeforeRequest(provider, env, ["run", "-a", "coder", "hi"]);
    assert.ok(last.includes("config.yaml"), `the message does not name the file: ${last}`);
    assert.match(last, expect);
  });
}

Deno.test("run rejects a --config file that does not exist", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const last = await failsBeforeRequest(provider, env, [
    "run",
    "-a",
    "coder",
    "--config",
    "nope.yaml",
    "hi",
  ]);
  assert.match(last, /nope\.yaml/);
});

Deno.test("run rejects a RIENDA_CONFIG file that does not exist", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const missing = `${env.root}/missing-config.yaml`;
  const last = await failsBeforeRequest(provider, env, ["run", "-a", "coder", "hi"], {
    env: { RIENDA_CONFIG: missing },
  });
  assert.ok(last.includes("missing-config.yaml"), last);
});

Deno.test("run rejects a model whose provider is not configured", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const last = await failsBeforeRequest(provider, env, [
    "run",
    "-a",
    "coder",
    "-m",
    "nowhere/x",
    "hi",
  ]);
  assert.match(last, /nowhere/);
});

Deno.test("run rejects a malformed -m model reference", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "-m", "no-slash", "hi"]);
  assert.ok(result.code === 1 || result.code === 2, `exit ${result.code}: ${result.stderr}`);
  assert.match(lastLine(result.stderr), /^rienda: .*no-slash/);
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("run fails when neither -m, the agent nor default_model names a model", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(defaultConfig(provider.url).replace("default_model: fake/m\n", ""));
  const last = await failsBeforeRequest(provider, env, ["run", "-a", "coder", "hi"]);
  assert.match(last, /model/);
});

Deno.test("run fails when the provider's API key variable is not set", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url).replace("api_key: test-key", "api_key_env: RIENDA_TEST_UNSET_KEY"),
  );
  const last = await failsBeforeRequest(provider, env, ["run", "-a", "coder", "hi"]);
  assert.match(last, /key/i);
});

Deno.test("run fails on a workdir that does not exist", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const missing = `${env.root}/no-such-dir`;
  const last = await failsBeforeRequest(provider, env, ["run", "-a", "coder", "-C", missing, "hi"]);
  assert.ok(last.includes("no-such-dir"), last);
});
