import assert from "node:assert/strict";
import { assertNothingSent, lastLine, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";

/** Each built-in provider: the route it speaks, the variable its key comes from. */
const BUILTINS: { name: string; path: string; keyEnv: string | null }[] = [
  { name: "openai", path: "/v1/responses", keyEnv: "OPENAI_API_KEY" },
  { name: "anthropic", path: "/v1/messages", keyEnv: "ANTHROPIC_API_KEY" },
  { name: "openrouter", path: "/v1/chat/completions", keyEnv: "OPENROUTER_API_KEY" },
  { name: "groq", path: "/v1/chat/completions", keyEnv: "GROQ_API_KEY" },
  { name: "deepseek", path: "/v1/chat/completions", keyEnv: "DEEPSEEK_API_KEY" },
  { name: "mistral", path: "/v1/chat/completions", keyEnv: "MISTRAL_API_KEY" },
  { name: "xai", path: "/v1/chat/completions", keyEnv: "XAI_API_KEY" },
  { name: "together", path: "/v1/chat/completions", keyEnv: "TOGETHER_API_KEY" },
  { name: "fireworks", path: "/v1/chat/completions", keyEnv: "FIREWORKS_API_KEY" },
  { name: "gemini", path: "/v1/chat/completions", keyEnv: "GEMINI_API_KEY" },
  { name: "ollama", path: "/v1/chat/completions", keyEnv: null },
  { name: "lmstudio", path: "/v1/chat/completions", keyEnv: null },
];

/** A config that points every built-in at the fake provider, and nothing else. */
function overrideConfig(url: string, extra = ""): string {
  const lines = ["providers:"];
  for (const { name } of BUILTINS) lines.push(`  ${name}:`, `    base_url: ${url}`);
  return `${lines.join("\n")}\n${extra}`;
}

function keyHeaderOf(headers: Readonly<Record<string, string>> | undefined): string | undefined {
  return headers?.["x-api-key"] ?? headers?.["authorization"];
}

Deno.test("built-in providers need only a base_url override and their usual key variable", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider, noConfig: true });
  await env.writeConfig(overrideConfig(provider.url));
  for (const [index, { name, path, keyEnv }] of BUILTINS.entries()) {
    provider.push({ text: `hi from ${name}` });
    const key = `key-of-${name}-0123456789`;
    const result = await env.run(["run", "-a", "coder", "-m", `${name}/any-model-id`, "hi"], {
      env: keyEnv === null ? {} : { [keyEnv]: key },
    });
    assert.equal(result.code, 0, `${name}: ${result.stderr}`);
    assert.equal(result.stdout, `hi from ${name}\n`);
    const request = provider.requests[index];
    assert.equal(request?.path, path, name);
    assert.equal(at(request?.body, "model"), "any-model-id", name);
    const expected = keyEnv === null ? undefined : name === "anthropic" ? key : `Bearer ${key}`;
    assert.equal(keyHeaderOf(request?.headers), expected, name);
    assert.equal(request?.headers["user-agent"], "rienda/0.1.0", name);
    assert.ok(!result.stdout.includes(key) && !result.stderr.includes(key), `${name} key printed`);
    const session = await Deno.readTextFile(
      (await env.sessionFiles()).find((file) => file.includes(sessionIdOf(result.stderr))) ?? "",
    );
    assert.ok(!session.includes(key), `${name} key stored in the session`);
  }
});

Deno.test("-m switches the provider and its wire protocol for the same agent", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  const configText = await Deno.readTextFile(env.configPath);
  await env.writeConfig(
    `${configText}  anthropic:\n    base_url: ${provider.url}\n  openai:\n    base_url: ${provider.url}\n`,
  );
  const keys = { ANTHROPIC_API_KEY: "sk-ant", OPENAI_API_KEY: "sk-oai" };
  const runs = [
    ["run", "-a", "coder", "go"],
    ["run", "-a", "coder", "-m", "anthropic/claude-sonnet-4-5", "go"],
    ["run", "-a", "coder", "-m", "openai/gpt-4o", "go"],
  ];
  for (const args of runs) {
    const result = await env.run(args, { env: keys });
    assert.equal(result.code, 0, result.stderr);
  }
  assert.deepEqual(provider.requests.map((request) => request.path), [
    "/v1/chat/completions",
    "/v1/messages",
    "/v1/responses",
  ]);
  assert.deepEqual(provider.requests.map((request) => at(request.body, "model")), [
    "fake-model",
    "claude-sonnet-4-5",
    "gpt-4o",
  ]);
});

Deno.test("a built-in's configured headers are sent beside rienda's User-Agent, and may replace it", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider, noConfig: true });
  await env.writeConfig(
    [
      "providers:",
      "  groq:",
      `    base_url: ${provider.url}`,
      "    headers: { x-team: research }",
      "  anthropic:",
      `    base_url: ${provider.url}`,
      "    headers: { user-agent: my-proxy/2.0, anthropic-beta: tools-2025 }",
      "",
    ].join("\n"),
  );
  const keys = { GROQ_API_KEY: "g", ANTHROPIC_API_KEY: "a" };
  for (const model of ["groq/llama-3.3-70b-versatile", "anthropic/claude-haiku-4-5"]) {
    const result = await env.run(["run", "-a", "coder", "-m", model, "go"], { env: keys });
    assert.equal(result.code, 0, result.stderr);
  }
  const [groq, anthropic] = provider.requests;
  assert.equal(groq?.headers["x-team"], "research");
  assert.equal(groq?.headers["user-agent"], "rienda/0.1.0");
  assert.equal(anthropic?.headers["user-agent"], "my-proxy/2.0");
  assert.equal(anthropic?.headers["anthropic-beta"], "tools-2025");
  assert.equal(anthropic?.headers["anthropic-version"], "2023-06-01");
});

Deno.test("a missing key fails before any request, naming the variable and rienda auth login", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider, noConfig: true });
  await env.writeConfig(overrideConfig(provider.url));
  const result = await env.run(["run", "-a", "coder", "-m", "anthropic/claude-sonnet-4-5", "go"]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.equal(
    lastLine(result.stderr),
    'rienda: provider "anthropic" needs an API key: set ANTHROPIC_API_KEY or run rienda auth login anthropic',
  );
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("a custom provider takes a preset's protocol, and api_key_env names its key", async () => {
  await using provider = await startFakeProvider([{ text: "local" }, { text: "work" }]);
  await using env = await createTestEnv({ provider, noConfig: true });
  await env.writeConfig(
    [
      "providers:",
      "  local:",
      "    preset: ollama",
      `    base_url: ${provider.url}`,
      "  work:",
      "    preset: anthropic",
      `    base_url: ${provider.url}`,
      "    api_key_env: WORK_KEY",
      "    models:",
      "      big: { id: claude-opus-4-1 }",
      "",
    ].join("\n"),
  );
  const local = await env.run(["run", "-a", "coder", "-m", "local/qwen2.5-coder:7b", "go"]);
  assert.equal(local.code, 0, local.stderr);
  const work = await env.run(["run", "-a", "coder", "-m", "work/big", "go"], {
    env: { WORK_KEY: "work-key" },
  });
  assert.equal(work.code, 0, work.stderr);
  const [first, second] = provider.requests;
  assert.equal(first?.path, "/v1/chat/completions");
  assert.equal(first?.headers["authorization"], undefined);
  assert.equal(at(first?.body, "model"), "qwen2.5-coder:7b");
  assert.equal(second?.path, "/v1/messages");
  assert.equal(second?.headers["x-api-key"], "work-key");
  assert.equal(at(second?.body, "model"), "claude-opus-4-1");
});

Deno.test("an unknown provider fails before any request, listing the known ones", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "-m", "nope/model", "go"]);
  assert.equal(result.code, 1);
  assert.match(
    lastLine(result.stderr),
    /^rienda: unknown provider "nope" in model "nope\/model" \(known: openai, anthropic, .*fake\); add it under providers: in .*config\.yaml$/,
  );
  await assertNothingSent(provider, env, result.stderr);
});
