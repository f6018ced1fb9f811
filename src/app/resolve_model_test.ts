import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import { emptyConfig, parseConfig } from "../config/config.ts";
import type { Credentials } from "../config/credentials.ts";
import { describeKeySource, lookupApiKey } from "./api_key.ts";
import { resolveProvider } from "./provider_settings.ts";
import { resolveModel, ThinkingLevelError } from "./resolve_model.ts";

const FILE = "/h/.rienda/config.yaml";
const NO_CONFIG = emptyConfig(null);

function envOf(vars: Record<string, string>): (name: string) => string | undefined {
  return (name) => vars[name];
}

function credentialsOf(keys: Record<string, string>, warnings: string[] = []): Credentials {
  return { file: "/h/.rienda/credentials.json", keys, warnings };
}

const CONFIG = parseConfig(
  [
    "providers:",
    "  anthropic:",
    "    base_url: http://127.0.0.1:9/v1",
    "    headers: { x-team: research }",
    "    models:",
    "      sonnet:",
    "        id: claude-sonnet-4-5",
    "        max_tokens: 4000",
    "        temperature: 0.2",
    "        thinking_levels: [minimal, turbo]",
    "  local:",
    "    preset: ollama",
    "    models:",
    "      qwen: { id: qwen2.5-coder:7b, context_window: 32000, top_p: 0.9 }",
    "  work:",
    "    protocol: openai_responses",
    "    base_url: https://llm.example.com/v1",
    "    api_key_env: WORK_KEY",
    "  plain:",
    "    protocol: openai_chat_completions",
    "    base_url: https://api.openai.com/v1",
    "  literal:",
    "    preset: groq",
    "    api_key: from-config",
    "",
  ].join("\n"),
  FILE,
);

Deno.test("resolveModel() reaches a built-in provider with no config, any model id passing through", () => {
  const model = resolveModel(NO_CONFIG, "openai/gpt-4o", {
    env: envOf({ OPENAI_API_KEY: "sk-o" }),
  });
  assertEquals(model, {
    ref: "openai/gpt-4o",
    protocol: "openai_responses",
    baseUrl: "https://api.openai.com/v1",
    apiKey: "sk-o",
    headers: {},
    modelId: "gpt-4o",
    maxTokensField: "max_completion_tokens",
    contextWindow: 128_000,
    thinkingLevels: ["off", "low", "medium", "high"],
    keySource: { kind: "env", variable: "OPENAI_API_KEY" },
  });
  const unknown = resolveModel(NO_CONFIG, "groq/some-new-model", {
    env: envOf({ GROQ_API_KEY: "g" }),
  });
  strictEqual(unknown.modelId, "some-new-model");
  strictEqual(unknown.contextWindow, 128_000);
});

Deno.test("resolveModel() applies single-field overrides of a built-in and the model's settings", () => {
  const model = resolveModel(CONFIG, "anthropic/sonnet", {
    env: envOf({ ANTHROPIC_API_KEY: "sk-a" }),
    thinking: "minimal",
  });
  strictEqual(model.protocol, "anthropic");
  strictEqual(model.baseUrl, "http://127.0.0.1:9/v1");
  assertEquals(model.headers, { "x-team": "research" });
  strictEqual(model.modelId, "claude-sonnet-4-5");
  strictEqual(model.maxTokens, 4000);
  strictEqual(model.temperature, 0.2);
  strictEqual(model.thinking, "minimal");
  strictEqual(model.contextWindow, 200_000);
});

Deno.test("resolveModel() gives a preset's protocol and endpoint to a custom provider", () => {
  const model = resolveModel(CONFIG, "local/qwen", { env: envOf({}) });
  strictEqual(model.protocol, "openai_chat_completions");
  strictEqual(model.baseUrl, "http://127.0.0.1:11434/v1");
  strictEqual(model.apiKey, null);
  strictEqual(model.modelId, "qwen2.5-coder:7b");
  strictEqual(model.contextWindow, 32000);
  strictEqual(model.topP, 0.9);
  assertEquals(model.keySource, { kind: "not_needed" });
  strictEqual(resolveModel(CONFIG, "local/other", { env: envOf({}) }).contextWindow, 32_768);
});

Deno.test("resolveModel() looks keys up in config, api_key_env, the built-in variable, then credentials", () => {
  const env = envOf({ WORK_KEY: "from-env", GROQ_API_KEY: "groq-env" });
  strictEqual(resolveModel(CONFIG, "literal/m", { env }).apiKey, "from-config");
  strictEqual(resolveModel(CONFIG, "work/m", { env }).apiKey, "from-env");
  const stored = credentialsOf({ work: "stored", openai: "stored-openai" });
  strictEqual(
    resolveModel(CONFIG, "work/m", { env: envOf({}), credentials: stored }).apiKey,
    "stored",
  );
  strictEqual(
    resolveModel(NO_CONFIG, "openai/o3", {
      env: envOf({ OPENAI_API_KEY: "" }),
      credentials: stored,
    })
      .apiKey,
    "stored-openai",
  );
  strictEqual(resolveModel(CONFIG, "plain/gpt-4.1", { env: envOf({}) }).apiKey, null);
  strictEqual(
    resolveModel(CONFIG, "plain/gpt-4.1", { env: envOf({}) }).maxTokensField,
    "max_completion_tokens",
  );
});

Deno.test("resolveModel() fails on a missing key naming the variable and rienda auth login", () => {
  throws(
    () => resolveModel(NO_CONFIG, "anthropic/claude-opus-4", { env: envOf({}) }),
    {
      message:
        'provider "anthropic" needs an API key: set ANTHROPIC_API_KEY or run rienda auth login anthropic',
    },
  );
  throws(
    () =>
      resolveModel(CONFIG, "work/m", {
        env: envOf({}),
        credentials: credentialsOf({}, ["/h/.rienda/credentials.json: not valid JSON"]),
      }),
    {
      message:
        'provider "work" needs an API key: set WORK_KEY or run rienda auth login work (/h/.rienda/credentials.json: not valid JSON)',
    },
  );
});

Deno.test("resolveModel() rejects an unknown provider, listing the known ones", () => {
  throws(() => resolveModel(CONFIG, "nope/m", { env: envOf({}) }), (error: unknown) => {
    ok(error instanceof Error);
    ok(
      error.message.startsWith(
        'unknown provider "nope" in model "nope/m" (known: openai, anthropic,',
      ),
    );
    ok(error.message.endsWith(`local, work, plain, literal); add it under providers: in ${FILE}`));
    return true;
  });
});

Deno.test("resolveModel() accepts standard and declared thinking levels and rejects others", () => {
  const env = envOf({ OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" });
  strictEqual(resolveModel(NO_CONFIG, "openai/o3", { env, thinking: "high" }).thinking, "high");
  strictEqual(resolveModel(NO_CONFIG, "openai/o3", { env, thinking: "off" }).thinking, undefined);
  throws(
    () => resolveModel(NO_CONFIG, "openai/o3", { env, thinking: "max" }),
    (error: unknown) =>
      error instanceof ThinkingLevelError &&
      error.message ===
        '--thinking: unknown level "max" for model "openai/o3" (allowed: off, low, medium, high)',
  );
  throws(
    () => resolveModel(CONFIG, "anthropic/sonnet", { env, thinking: "turbo" }),
    (error: unknown) =>
      error instanceof ThinkingLevelError && error.message.includes("no anthropic thinking budget"),
  );
});

Deno.test("describeKeySource() says where a key comes from without the key", () => {
  const env = envOf({ WORK_KEY: "secret-1" });
  const describe = (name: string, credentials?: Credentials) => {
    const settings = resolveProvider(CONFIG, name, () => undefined);
    if (settings === undefined) throw new Error(`no provider ${name}`);
    return describeKeySource(settings, lookupApiKey(settings, env, credentials).source);
  };
  strictEqual(describe("literal"), "config (providers.literal.api_key)");
  strictEqual(describe("work"), "environment (WORK_KEY)");
  strictEqual(describe("groq", credentialsOf({ groq: "secret-2" })), "credentials.json");
  strictEqual(describe("ollama"), "none needed");
  strictEqual(describe("xai"), "missing: set XAI_API_KEY or run rienda auth login xai");
});
