import { deepStrictEqual, rejects, strictEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import {
  ConfigError,
  DEFAULT_KEEP_RECENT_TOKENS,
  DEFAULT_RESERVE_TOKENS,
  emptyConfig,
  loadConfig,
  parseConfig,
} from "./config.ts";

const FILE = "/h/.rienda/config.yaml";

function errorOf(text: string): ConfigError {
  try {
    parseConfig(text, FILE);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("parseConfig() accepted the text");
}

Deno.test("parseConfig() reads the spec's full example", () => {
  const config = parseConfig(
    [
      "default_model: openai/gpt-4o-mini",
      "environment_context: false",
      "providers:",
      "  local:",
      "    preset: ollama",
      "    protocol: openai_chat_completions",
      "    base_url: http://127.0.0.1:11434/v1",
      "    api_key: sk-abc",
      "    api_key_env: MY_KEY",
      "    headers: { x-team: research }",
      "    models:",
      "      qwen:",
      "        id: qwen2.5-coder:7b",
      "        context_window: 32768",
      "        max_tokens: 4096",
      "        temperature: 0.2",
      "        top_p: 0.9",
      "        thinking_levels: [low, high]",
      "compaction:",
      "  enabled: false",
      "  reserve_tokens: 1000",
      "  keep_recent_tokens: 2000",
      "config:",
      "  word-count: { min_length: 3 }",
    ].join("\n"),
    FILE,
  );
  deepStrictEqual(config, {
    file: FILE,
    defaultModel: "openai/gpt-4o-mini",
    modelAliases: {},
    environmentContext: false,
    providers: {
      local: {
        preset: "ollama",
        protocol: "openai_chat_completions",
        baseUrl: "http://127.0.0.1:11434/v1",
        apiKey: "sk-abc",
        apiKeyEnv: "MY_KEY",
        headers: { "x-team": "research" },
        models: {
          qwen: {
            id: "qwen2.5-coder:7b",
            contextWindow: 32768,
            maxTokens: 4096,
            temperature: 0.2,
            topP: 0.9,
            thinkingLevels: ["low", "high"],
          },
        },
      },
    },
    compaction: { enabled: false, reserveTokens: 1000, keepRecentTokens: 2000 },
    subagents: { maxDepth: 2, maxParallel: 4 },
    extensions: { "word-count": { min_length: 3 } },
    mcpServers: {},
    capabilityPolicy: { requireCapabilities: false, grants: {} },
    hooks: [],
    raw: config.raw,
  });
  deepStrictEqual(Object.keys(config.raw), [
    "default_model",
    "environment_context",
    "providers",
    "compaction",
    "config",
  ]);
  deepStrictEqual(config.raw["config"], { "word-count": { min_length: 3 } });
});

Deno.test("parseConfig() gives an empty config for an empty or comment-only file", () => {
  for (const text of ["", "  \n", "# default_model: a/b\n", "\uFEFF"]) {
    deepStrictEqual(parseConfig(text, FILE), emptyConfig(FILE));
  }
  deepStrictEqual(emptyConfig(null).compaction, {
    enabled: true,
    reserveTokens: DEFAULT_RESERVE_TOKENS,
    keepRecentTokens: DEFAULT_KEEP_RECENT_TOKENS,
  });
  strictEqual(DEFAULT_RESERVE_TOKENS, 16384);
  strictEqual(DEFAULT_KEEP_RECENT_TOKENS, 20000);
});

Deno.test("parseConfig() fills compaction defaults field by field", () => {
  const config = parseConfig("compaction:\n  reserve_tokens: 100\n", FILE);
  deepStrictEqual(config.compaction, {
    enabled: true,
    reserveTokens: 100,
    keepRecentTokens: 20000,
  });
});

Deno.test("parseConfig() accepts empty sections and built-in providers without fields", () => {
  const config = parseConfig(
    "providers:\n  ollama:\n  openai: { api_key_env: WORK_KEY }\ncompaction:\nconfig:\n",
    FILE,
  );
  deepStrictEqual(config.providers, {
    ollama: { headers: {}, models: {} },
    openai: { apiKeyEnv: "WORK_KEY", headers: {}, models: {} },
  });
  deepStrictEqual(config.extensions, {});
  strictEqual(config.compaction.enabled, true);
});

Deno.test("parseConfig() keeps any value under config:", () => {
  const config = parseConfig("config:\n  guard: { deny: [rm -rf], level: 3 }\n  x: [1, 2]\n", FILE);
  deepStrictEqual(config.extensions, { guard: { deny: ["rm -rf"], level: 3 }, x: [1, 2] });
});

Deno.test("parseConfig() reports invalid YAML with line and column", () => {
  const error = errorOf("default_model: a/b\nproviders:\n  local: [1\n");
  strictEqual(
    error.message,
    `${FILE}:4:1: invalid YAML: flow sequence in block collection must be sufficiently indented and end with a ]`,
  );
  strictEqual(error.line, 4);
  strictEqual(error.file, FILE);
});

Deno.test("parseConfig() reports a wrong type with the key path and the value found", () => {
  const error = errorOf("providers:\n  local:\n    protocol: anthropic\n    base_url: 42\n");
  strictEqual(error.message, `${FILE}: providers.local.base_url: must be a string (found 42)`);
  strictEqual(error.field, "providers.local.base_url");
  strictEqual(error.line, 4);
});

Deno.test("parseConfig() reports an unknown key with the keys expected there", () => {
  const error = errorOf("providers:\n  local:\n    preset: ollama\n    bse_url: http://x\n");
  strictEqual(
    error.message,
    `${FILE}: providers.local.bse_url: unknown key ` +
      "(expected one of: preset, protocol, base_url, api_key, api_key_env, headers, models, timeout_ms, stream_idle_timeout_ms)",
  );
  strictEqual(error.line, 4);
  strictEqual(
    errorOf("defaults_model: a/b\n").message,
    `${FILE}: defaults_model: unknown key (expected one of: default_model, default_agent, model_aliases, environment_context, providers, compaction, subagents, config, mcp_servers, extensions, sandbox, hooks)`,
  );
});

Deno.test("parseConfig() lists every schema problem, one per line, in file order", () => {
  const error = errorOf(
    [
      "providers:",
      "  local:",
      "    protocol: foo",
      "    headers: { a: 1 }",
      "    models:",
      "      q: { context_window: 0, temperature: 3, thinking_levels: [low, 3], top_p: -1 }",
      "compaction: { enabled: yes, reserve_tokens: 1.5 }",
      "zzz: 1",
      "config: [a]",
    ].join("\n"),
  );
  deepStrictEqual(error.message.split("\n"), [
    `${FILE}: providers.local.protocol: must be one of: openai_chat_completions, openai_responses, anthropic (found "foo")`,
    `${FILE}: providers.local.headers.a: must be a string (found a number)`,
    `${FILE}: providers.local.models.q.context_window: must be at least 1 (found 0)`,
    `${FILE}: providers.local.models.q.temperature: must be at most 2 (found 3)`,
    `${FILE}: providers.local.models.q.thinking_levels[1]: must be a string (found 3)`,
    `${FILE}: providers.local.models.q.top_p: must be at least 0 (found -1)`,
    `${FILE}: compaction.enabled: must be a boolean (found "yes")`,
    `${FILE}: compaction.reserve_tokens: must be an integer (found 1.5)`,
    `${FILE}: zzz: unknown key (expected one of: default_model, default_agent, model_aliases, environment_context, providers, compaction, subagents, config, mcp_servers, extensions, sandbox, hooks)`,
    `${FILE}: config: must be a mapping (found a list)`,
  ]);
  strictEqual(error.field, "providers.local.protocol");
  strictEqual(error.line, 3);
});

Deno.test("parseConfig() caps the listed problems and counts the rest", () => {
  const text = Array.from({ length: 13 }, (_, i) => `k${i}: 1`).join("\n");
  const lines = errorOf(text).message.split("\n");
  strictEqual(lines.length, 11);
  strictEqual(lines[0]?.startsWith(`${FILE}: k0: unknown key`), true);
  strictEqual(lines[10], `${FILE}: and 3 more problems`);
});

Deno.test("parseConfig() rejects a document that is not a mapping", () => {
  strictEqual(
    errorOf("- default_model: a/b\n").message,
    `${FILE}: must be a mapping of settings such as "default_model: openai/gpt-4o-mini" (found a list)`,
  );
  strictEqual(
    errorOf("just text\n").message,
    `${FILE}: must be a mapping of settings such as "default_model: openai/gpt-4o-mini" (found "just text")`,
  );
});

Deno.test("parseConfig() rejects a malformed default_model", () => {
  const error = errorOf("default_model: gpt 4o\n");
  strictEqual(
    error.message,
    `${FILE}: default_model: malformed model reference "gpt 4o" (expected provider/model, e.g. openai/gpt-4o)`,
  );
  strictEqual(parseConfig("default_model: gpt-4o\n", FILE).defaultModel, "openai/gpt-4o");
  strictEqual(
    errorOf("default_model: nonsense\n").message.startsWith(
      `${FILE}: default_model: unknown model "nonsense": no alias`,
    ),
    true,
  );
  strictEqual(error.field, "default_model");
  strictEqual(
    errorOf("default_model: 4\n").message,
    `${FILE}: default_model: must be a string (found 4)`,
  );
  strictEqual(errorOf("default_model: ''\n").message, `${FILE}: default_model: must not be empty`);
});

Deno.test("parseConfig() requires a preset, or a protocol and a base_url, for new providers", () => {
  strictEqual(
    errorOf("providers:\n  local: { api_key_env: K }\n").message,
    `${FILE}: providers.local: needs a preset or a protocol and a base_url ` +
      '(e.g. "preset: ollama", or "protocol: openai_chat_completions" with "base_url: http://127.0.0.1:11434/v1")',
  );
  strictEqual(
    errorOf("providers:\n  local: { protocol: anthropic }\n").message,
    `${FILE}: providers.local: needs a base_url with protocol anthropic (e.g. "base_url: https://llm.example.com/v1")`,
  );
  strictEqual(
    parseConfig("providers:\n  work: { preset: openai }\n", FILE).providers["work"]?.preset,
    "openai",
  );
  strictEqual(
    parseConfig("providers:\n  groq: { api_key: k }\n", FILE).providers["groq"]?.apiKey,
    "k",
  );
});

Deno.test("parseConfig() checks preset, provider name, base_url, api_key_env, header names and aliases", () => {
  const error = errorOf(
    [
      "providers:",
      "  My Local:",
      "    preset: olama",
      "    base_url: ftp://x",
      "    api_key_env: MY-KEY",
      '    headers: { "bad header": v }',
      '    models: { "a b": {} }',
    ].join("\n"),
  );
  deepStrictEqual(
    error.message.split("\n"),
    [
      `${FILE}: ["My Local"]: invalid provider name "My Local" (use lowercase letters, digits, "_" and "-", starting with a letter or digit)`,
      `${FILE}: ["My Local"].preset: unknown preset "olama" (expected one of: openai, anthropic, openrouter, groq, deepseek, mistral, xai, together, fireworks, gemini, ollama, lmstudio)`,
      `${FILE}: ["My Local"].base_url: must be an http or https URL such as http://127.0.0.1:11434/v1 (found "ftp://x")`,
      `${FILE}: ["My Local"].api_key_env: must be the name of an environment variable such as MY_API_KEY (the value is not shown, as it may be a key: put the key in a variable and its name here)`,
      `${FILE}: ["My Local"].headers["bad header"]: invalid HTTP header name "bad header"`,
      `${FILE}: ["My Local"].models["a b"]: invalid model alias "a b" (no spaces, and no empty part between "/")`,
    ].map((line) => line.replaceAll(': ["My Local"]', ': providers["My Local"]')),
  );
  strictEqual(error.line, 2);
});

Deno.test("loadConfig() treats a missing default file as an empty config", async () => {
  const dir = await Deno.makeTempDir();
  try {
    deepStrictEqual(
      await loadConfig(join(dir, "config.yaml"), { explicit: false }),
      emptyConfig(null),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConfig() fails on a missing explicit file", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "nope.yaml");
  try {
    await rejects(loadConfig(path, { explicit: true }), {
      name: "ConfigError",
      message: `${path}: config file not found (check the --config flag or RIENDA_CONFIG)`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConfig() parses an existing file and names it in errors", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "config.yaml");
  try {
    await Deno.writeTextFile(path, "default_model: groq/llama\n");
    strictEqual((await loadConfig(path, { explicit: false })).defaultModel, "groq/llama");
    strictEqual((await loadConfig(path, { explicit: true })).file, path);
    await Deno.writeTextFile(path, "");
    deepStrictEqual(await loadConfig(path, { explicit: true }), emptyConfig(path));
    await Deno.writeTextFile(path, "model: x\n");
    await rejects(loadConfig(path, { explicit: false }), (error: unknown) => {
      strictEqual(error instanceof ConfigError && error.file, path);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConfig() reports a directory as unreadable", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await rejects(loadConfig(dir, { explicit: true }), (error: unknown) => {
      strictEqual(error instanceof ConfigError, true);
      strictEqual(
        error instanceof Error && error.message.startsWith(`${dir}: cannot read the config file: `),
        true,
      );
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ConfigError is an Error carrying file, field and line", () => {
  const error = new ConfigError("x: y", { file: "x", field: "y", line: 2 });
  strictEqual(error instanceof Error, true);
  strictEqual(error.name, "ConfigError");
  deepStrictEqual([error.file, error.field, error.line], ["x", "y", 2]);
  throws(() => {
    throw error;
  }, ConfigError);
});

Deno.test("parseConfig() reads sandbox: as a mode or an object, and names a wrong value's line", () => {
  deepStrictEqual(parseConfig("sandbox: read-only\n", "/c.yaml").sandbox, {
    mode: "read-only",
    network: false,
    writable: [],
  });
  deepStrictEqual(
    parseConfig("sandbox:\n  mode: workspace-write\n  network: true\n", "/c.yaml").sandbox,
    { mode: "workspace-write", network: true, writable: [] },
  );
  strictEqual(parseConfig("sandbox:\n", "/c.yaml").sandbox, undefined);
  throws(() => parseConfig("model_aliases: {}\nsandbox: on\n", "/c.yaml"), (error: unknown) => {
    strictEqual(
      error instanceof ConfigError && error.message,
      '/c.yaml: sandbox: must be workspace-write, read-only or off (found "on")',
    );
    strictEqual(error instanceof ConfigError && error.line, 2);
    return true;
  });
});
