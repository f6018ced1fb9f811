/**
 * The JSON Schema of `config.yaml` (docs/formats.md) and the shapes it admits.
 * Keys are the file's snake_case names; `config.ts` maps them to camelCase.
 *
 * The schema is compiled ahead of time by `generate_config_validator.ts` into
 * `config_validator.js`, so a run never loads or compiles ajv for it; a test
 * fails when the two drift apart.
 *
 * @module
 */

/** The wire protocols a provider can speak. */
export const PROVIDER_PROTOCOLS = [
  "openai_chat_completions",
  "openai_responses",
  "anthropic",
] as const;

/** One wire protocol. */
export type ProviderProtocol = typeof PROVIDER_PROTOCOLS[number];

/** A `providers.<name>.models.<alias>` entry as written. */
export interface RawModelConfig {
  readonly id?: string;
  readonly "context_window"?: number;
  readonly "max_tokens"?: number;
  readonly temperature?: number;
  readonly "top_p"?: number;
  readonly "thinking_levels"?: readonly string[];
}

/** A `providers.<name>` entry as written. */
export interface RawProviderConfig {
  readonly preset?: string;
  readonly protocol?: ProviderProtocol;
  readonly "base_url"?: string;
  readonly "api_key"?: string;
  readonly "api_key_env"?: string;
  readonly headers?: Readonly<Record<string, string>> | null;
  readonly models?: Readonly<Record<string, RawModelConfig | null>> | null;
  readonly "timeout_ms"?: number;
  readonly "stream_idle_timeout_ms"?: number;
}

/** The whole `config.yaml` document as written, once it matched the schema. */
export interface RawConfig {
  readonly "default_model"?: string;
  readonly "default_agent"?: string;
  readonly "model_aliases"?: Readonly<Record<string, string>> | null;
  readonly "environment_context"?: boolean;
  readonly providers?: Readonly<Record<string, RawProviderConfig | null>> | null;
  readonly compaction?: {
    readonly enabled?: boolean;
    readonly "reserve_tokens"?: number;
    readonly "keep_recent_tokens"?: number;
  } | null;
  readonly subagents?: {
    readonly "max_depth"?: number;
    readonly "max_parallel"?: number;
  } | null;
  readonly config?: Readonly<Record<string, unknown>> | null;
  readonly "mcp_servers"?: Readonly<Record<string, RawMcpServerConfig | null>> | null;
  readonly extensions?: RawExtensionsConfig | null;
  /** A mode or `{ mode, network, writable }`, checked by `sandbox/sandbox_setting.ts`. */
  readonly sandbox?: unknown;
  /** Checked entry by entry by `hook_entries.ts`. */
  readonly hooks?: readonly unknown[] | null;
}

/** A capabilities grant as written (the shape extensions declare, docs/extending.md). */
export interface RawCapabilities {
  readonly file?: {
    readonly read?: readonly string[];
    readonly write?: readonly string[];
  } | null;
  readonly http?: readonly string[];
  readonly exec?: boolean | readonly string[];
  readonly env?: readonly string[];
  readonly shared?: boolean;
}

/** The `extensions:` section: `require_capabilities`, and a grant per extension name. */
export type RawExtensionsConfig =
  & { readonly "require_capabilities"?: boolean }
  & Readonly<Record<string, { readonly capabilities?: RawCapabilities | null } | null | boolean>>;

/** A `mcp_servers.<name>` entry as written (docs/mcp.md): stdio (`command`) or remote (`url`). */
export interface RawMcpServerConfig {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>> | null;
  readonly "env_vars"?: readonly string[];
  readonly cwd?: string;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>> | null;
  readonly "token_env"?: string;
  readonly enabled?: boolean;
  readonly "timeout_ms"?: number;
  readonly tools?: { readonly allow?: readonly string[]; readonly deny?: readonly string[] } | null;
  /** A stdio server's sandbox, checked by `sandbox/sandbox_setting.ts`. */
  readonly sandbox?: unknown;
}

// `not: { const: "" }` rather than `minLength: 1`: ajv's minLength counts
// code points through a runtime helper that standalone ESM code cannot import.
const NON_EMPTY_STRING = { type: "string", not: { const: "" } };
const POSITIVE_INTEGER = { type: "integer", minimum: 1 };
const TOKEN_COUNT = { type: "integer", minimum: 0 };
// The longest delay a timer can wait (2^31 − 1 ms, about 24.8 days); longer ones fire at once.
const MILLISECONDS = { type: "integer", minimum: 1, maximum: 2_147_483_647 };

// Sections may be left empty (`providers:` with every entry commented out),
// so every mapping also accepts null.
const MODEL_SCHEMA = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    id: NON_EMPTY_STRING,
    context_window: POSITIVE_INTEGER,
    max_tokens: POSITIVE_INTEGER,
    temperature: { type: "number", minimum: 0, maximum: 2 },
    top_p: { type: "number", minimum: 0, maximum: 1 },
    thinking_levels: { type: "array", items: NON_EMPTY_STRING },
  },
};

const PROVIDER_SCHEMA = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    preset: NON_EMPTY_STRING,
    protocol: { type: "string", enum: [...PROVIDER_PROTOCOLS] },
    base_url: NON_EMPTY_STRING,
    api_key: NON_EMPTY_STRING,
    api_key_env: NON_EMPTY_STRING,
    headers: { type: ["object", "null"], additionalProperties: { type: "string" } },
    models: { type: ["object", "null"], additionalProperties: MODEL_SCHEMA },
    timeout_ms: MILLISECONDS,
    stream_idle_timeout_ms: MILLISECONDS,
  },
};

/** The longest `timeout_ms` of an MCP server: one hour. */
export const MAX_MCP_TIMEOUT_MS = 3_600_000;

const NAME_LIST = { type: "array", items: NON_EMPTY_STRING };

const MCP_SERVER_SCHEMA = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    command: NON_EMPTY_STRING,
    args: { type: "array", items: { type: "string" } },
    env: { type: ["object", "null"], additionalProperties: { type: "string" } },
    env_vars: NAME_LIST,
    cwd: NON_EMPTY_STRING,
    url: NON_EMPTY_STRING,
    headers: { type: ["object", "null"], additionalProperties: { type: "string" } },
    token_env: NON_EMPTY_STRING,
    enabled: { type: "boolean" },
    timeout_ms: { type: "integer", minimum: 1, maximum: MAX_MCP_TIMEOUT_MS },
    tools: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: { allow: NAME_LIST, deny: NAME_LIST },
    },
    // Worded field by field by parseSandboxSetting (mcp_servers.ts).
    sandbox: { type: ["string", "object", "boolean", "number", "array", "null"] },
  },
};

const STRING_LIST = { type: "array", items: { type: "string" } };

const CAPABILITIES_SCHEMA = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    file: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: { read: STRING_LIST, write: STRING_LIST },
    },
    http: STRING_LIST,
    exec: { type: ["boolean", "array"], items: NON_EMPTY_STRING },
    env: STRING_LIST,
    shared: { type: "boolean" },
  },
};

const EXTENSIONS_SCHEMA = {
  type: ["object", "null"],
  properties: { require_capabilities: { type: "boolean" } },
  additionalProperties: {
    type: ["object", "null"],
    additionalProperties: false,
    properties: { capabilities: CAPABILITIES_SCHEMA },
  },
};

/** The JSON Schema of the whole document. */
export const CONFIG_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    default_model: NON_EMPTY_STRING,
    default_agent: NON_EMPTY_STRING,
    model_aliases: { type: ["object", "null"], additionalProperties: NON_EMPTY_STRING },
    environment_context: { type: "boolean" },
    providers: { type: ["object", "null"], additionalProperties: PROVIDER_SCHEMA },
    compaction: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: {
        enabled: { type: "boolean" },
        reserve_tokens: TOKEN_COUNT,
        keep_recent_tokens: TOKEN_COUNT,
      },
    },
    subagents: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: {
        max_depth: { type: "integer", minimum: 0, maximum: 10 },
        max_parallel: { type: "integer", minimum: 1, maximum: 64 },
      },
    },
    config: { type: ["object", "null"] },
    mcp_servers: { type: ["object", "null"], additionalProperties: MCP_SERVER_SCHEMA },
    extensions: EXTENSIONS_SCHEMA,
    // Worded field by field by parseSandboxSetting (config_checks.ts).
    sandbox: { type: ["string", "object", "boolean", "number", "array", "null"] },
    // Each entry is read by hook_entries.ts, whose messages name the entry and the fix.
    hooks: { type: ["array", "null"] },
  },
} as const;
