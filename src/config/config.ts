/**
 * `config.yaml`: the optional configuration of the rienda home
 * (docs/formats.md, "config.yaml").
 *
 * - A missing default file is an empty config; a missing file named by
 *   `--config` or `RIENDA_CONFIG` is an error; an empty file is an empty config.
 * - Unknown keys and wrong types are errors naming the file, the key path,
 *   the expected type and the value found, one problem per line:
 *   `/h/.rienda/config.yaml: providers.local.base_url: must be a string (found 42)`.
 * - The schema (`config_schema.ts`) is compiled ahead of time into
 *   `config_validator.js`, so start-up never loads or compiles ajv.
 *
 * @module
 */

import { ConfigError } from "./config_error.ts";
import { checkConfig, rawModelNames } from "./config_checks.ts";
import { resolveModelName } from "./model_names.ts";
import type {
  ProviderProtocol,
  RawConfig,
  RawModelConfig,
  RawProviderConfig,
} from "./config_schema.ts";
import { validate } from "./config_validator.js";
import { describeValue } from "./describe_value.ts";
import { formatFieldPath } from "../base/field_path.ts";
import { isRecord } from "../base/unknown.ts";
import { checkMcpServers, type McpServerSettings, toMcpServers } from "./mcp_servers.ts";
import type { HookEntry } from "./hook_entries.ts";
import { parseHookEntries } from "./parse_hook_entries.ts";
import { issuesFromAjv, type SchemaIssue } from "./schema_issues.ts";
import { parseYaml, type YamlSource } from "./yaml_source.ts";
import { errorMessage } from "../base/unknown.ts";
import { readTextFileAtMost } from "../host/read_at_most.ts";

/** The largest config.yaml read (read while reading). */
const MAX_CONFIG_BYTES = 1024 * 1024;
import { type CapabilitySet, parseCapabilitySet } from "../sandbox/capability_set.ts";
import { parseSandboxSetting, type SandboxSetting } from "../sandbox/sandbox_setting.ts";

export { ConfigError } from "./config_error.ts";
export { PROVIDER_PROTOCOLS, type ProviderProtocol } from "./config_schema.ts";
export type { McpServerSettings } from "./mcp_servers.ts";

/** A model entry of a provider (`providers.<name>.models.<alias>`). */
export interface ModelConfig {
  /** The wire id; the alias when absent. */
  readonly id?: string;
  readonly contextWindow?: number;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly thinkingLevels?: readonly string[];
}

/** A configured provider (`providers.<name>`). */
export interface ProviderConfig {
  /** A built-in provider whose settings this one starts from. */
  readonly preset?: string;
  readonly protocol?: ProviderProtocol;
  readonly baseUrl?: string;
  /** A literal key (discouraged). */
  readonly apiKey?: string;
  /** The environment variable that holds the key. */
  readonly apiKeyEnv?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Models by alias; models not listed still work. */
  readonly models: Readonly<Record<string, ModelConfig>>;
  /** `timeout_ms`: the longest wait for the response to start. */
  readonly timeoutMs?: number;
  /** `stream_idle_timeout_ms`: the longest silence inside a streamed response. */
  readonly streamIdleTimeoutMs?: number;
}

/** When and how much history compaction keeps. */
export interface CompactionConfig {
  readonly enabled: boolean;
  readonly reserveTokens: number;
  readonly keepRecentTokens: number;
}

/** `subagents:`: how deep delegation goes and how many children of one run run at once. */
export interface SubagentConfig {
  /** Children of the main agent are at depth 1; a delegation past this depth is refused. */
  readonly maxDepth: number;
  readonly maxParallel: number;
}

/** The parsed configuration, defaults applied. */
export interface Config {
  /** The file it was read from; null when there was none. */
  readonly file: string | null;
  /** The model used when neither the agent nor `-m` names one. */
  readonly defaultModel?: string;
  /** The agent of `rienda run` and the chat when nothing names one (`default_agent`; else `default`). */
  readonly defaultAgent?: string;
  /** `model_aliases:`: bare model names → `provider/model` (`model_names.ts`). */
  readonly modelAliases: Readonly<Record<string, string>>;
  /** Whether the system prompt gets the environment block (`environment_context`, default true). */
  readonly environmentContext: boolean;
  readonly providers: Readonly<Record<string, ProviderConfig>>;
  readonly compaction: CompactionConfig;
  readonly subagents: SubagentConfig;
  /** The `config:` block: free settings for extensions, keyed by tool or hook name. */
  readonly extensions: Readonly<Record<string, unknown>>;
  /** `mcp_servers:` by server name (docs/mcp.md). */
  readonly mcpServers: Readonly<Record<string, McpServerSettings>>;
  /** `extensions:`: whether extensions must declare capabilities, and the grants narrowing them. */
  readonly capabilityPolicy: CapabilityPolicySettings;
  /** `sandbox:`, the sandbox of every agent's commands (docs/sandbox.md); absent when unset. */
  readonly sandbox?: SandboxSetting;
  /** `hooks:`: the hooks of every run of every agent, before the agent's (docs/extending.md). */
  readonly hooks: readonly HookEntry[];
  /** The whole parsed document, for `ctx.config`. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** `extensions:` of `config.yaml` (docs/extending.md, "Capabilities"). */
export interface CapabilityPolicySettings {
  /** `extensions.require_capabilities`: undeclared extensions get no file, http, exec or env access. */
  readonly requireCapabilities: boolean;
  /** `extensions.<name>.capabilities`, by extension name. */
  readonly grants: Readonly<Record<string, CapabilitySet>>;
}

/** Tokens kept free for the answer before compaction starts. */
export const DEFAULT_RESERVE_TOKENS = 16384;
/** Tokens of recent history that compaction keeps verbatim. */
export const DEFAULT_KEEP_RECENT_TOKENS = 20000;
/** At most this many problems are listed in one error; the rest are counted. */
export const MAX_REPORTED_PROBLEMS = 10;

/** The configuration of a missing or empty file. */
export function emptyConfig(file: string | null): Config {
  return {
    file,
    modelAliases: {},
    environmentContext: true,
    providers: {},
    compaction: {
      enabled: true,
      reserveTokens: DEFAULT_RESERVE_TOKENS,
      keepRecentTokens: DEFAULT_KEEP_RECENT_TOKENS,
    },
    subagents: { maxDepth: 2, maxParallel: 4 },
    extensions: {},
    mcpServers: {},
    capabilityPolicy: { requireCapabilities: false, grants: {} },
    hooks: [],
    raw: {},
  };
}

/**
 * Reads and parses the configuration file at `path`.
 *
 * @throws {ConfigError} when an explicit file is missing, or the file is unreadable or invalid
 */
export async function loadConfig(path: string, options: { explicit: boolean }): Promise<Config> {
  let read;
  try {
    read = await readTextFileAtMost(path, MAX_CONFIG_BYTES);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      if (!options.explicit) return emptyConfig(null);
      throw new ConfigError(
        `${path}: config file not found (check the --config flag or RIENDA_CONFIG)`,
        { file: path, cause: error },
      );
    }
    const reason = errorMessage(error);
    throw new ConfigError(`${path}: cannot read the config file: ${lowerFirst(reason)}`, {
      file: path,
      cause: error,
    });
  }
  if (!read.complete) {
    throw new ConfigError(
      `${path}: the config file is larger than 1 MiB (check that --config or RIENDA_CONFIG names config.yaml)`,
      { file: path },
    );
  }
  if (lastLoaded?.path === path && lastLoaded.text === read.text) {
    return structuredClone(lastLoaded.config);
  }
  const config = parseConfig(read.text, path);
  lastLoaded = { path, text: read.text, config: structuredClone(config) };
  return config;
}

/**
 * The last file {@link loadConfig} parsed, by path and text: a command reads the config twice
 * (its keys are remembered before it runs, `app/known_secrets.ts`, then it loads it), and the
 * YAML parse is the dearer half of a one-shot run's configuration. The text is read every
 * time, so an edited file is parsed again; callers get copies.
 */
let lastLoaded: { readonly path: string; readonly text: string; readonly config: Config } | null =
  null;

/**
 * Parses the text of a configuration file; `path` names it in errors.
 *
 * @throws {ConfigError} on invalid YAML, unknown keys, wrong types or inconsistent providers
 */
export function parseConfig(text: string, path: string): Config {
  const parsed = parseYaml(text.replace(/^\uFEFF/, ""));
  if (!parsed.ok) {
    const { line, column } = parsed.position;
    throw new ConfigError(`${path}:${line}:${column}: invalid YAML: ${parsed.message}`, {
      file: path,
      line,
    });
  }
  const { source } = parsed;
  const document = source.value;
  if (document === null) return emptyConfig(path);
  if (!isRecord(document)) {
    throw new ConfigError(
      `${path}: must be a mapping of settings such as "default_model: openai/gpt-4o-mini" ` +
        `(found ${describeValue(document)})`,
      { file: path, line: 1 },
    );
  }
  if (!validate(document)) {
    throw issuesError(path, issuesFromAjv(validate.errors ?? [], document), source);
  }
  const hooks = parseHookEntries(document.hooks);
  const problems = [...checkConfig(document), ...checkMcpServers(document), ...hooks.problems];
  if (problems.length > 0) throw issuesError(path, problems, source);
  return toConfig(path, document, document, hooks.entries);
}

function issuesError(
  file: string,
  issues: readonly SchemaIssue[],
  source: YamlSource,
): ConfigError {
  // Reading order: the first problem in the file comes first, unlocated ones last.
  const located = issues
    .map((issue, index) => ({
      issue,
      index,
      at: source.locate(issue.path, { key: issue.key === true }),
    }))
    .sort((a, b) =>
      (a.at?.line ?? Infinity) - (b.at?.line ?? Infinity) ||
      (a.at?.column ?? 0) - (b.at?.column ?? 0) ||
      a.index - b.index
    );
  const lines = located.slice(0, MAX_REPORTED_PROBLEMS).map(({ issue }) => {
    const field = formatFieldPath(issue.path);
    return field === "" ? `${file}: ${issue.message}` : `${file}: ${field}: ${issue.message}`;
  });
  const hidden = located.length - MAX_REPORTED_PROBLEMS;
  if (hidden > 0) lines.push(`${file}: and ${hidden} more problem${hidden === 1 ? "" : "s"}`);
  const first = located[0];
  const field = first === undefined ? "" : formatFieldPath(first.issue.path);
  return new ConfigError(lines.join("\n"), {
    file,
    field: field === "" ? undefined : field,
    line: first?.at?.line,
  });
}

function toConfig(
  file: string,
  raw: RawConfig,
  document: Record<string, unknown>,
  hooks: readonly HookEntry[],
): Config {
  const providers: Record<string, ProviderConfig> = {};
  for (const [name, provider] of Object.entries(raw.providers ?? {})) {
    providers[name] = toProviderConfig(provider ?? {});
  }
  const defaults = emptyConfig(file).compaction;
  const limits = emptyConfig(file).subagents;
  return {
    file,
    // checkConfig made sure a bare name resolves.
    ...(raw.default_model === undefined
      ? {}
      : { defaultModel: resolveModelName(raw.default_model, rawModelNames(raw)) }),
    ...(raw.default_agent === undefined ? {} : { defaultAgent: raw.default_agent }),
    modelAliases: { ...raw.model_aliases },
    environmentContext: raw.environment_context ?? true,
    providers,
    compaction: {
      enabled: raw.compaction?.enabled ?? defaults.enabled,
      reserveTokens: raw.compaction?.reserve_tokens ?? defaults.reserveTokens,
      keepRecentTokens: raw.compaction?.keep_recent_tokens ?? defaults.keepRecentTokens,
    },
    subagents: {
      maxDepth: raw.subagents?.max_depth ?? limits.maxDepth,
      maxParallel: raw.subagents?.max_parallel ?? limits.maxParallel,
    },
    extensions: { ...raw.config },
    mcpServers: toMcpServers(raw),
    capabilityPolicy: toCapabilityPolicy(raw),
    ...(raw.sandbox === undefined || raw.sandbox === null
      ? {}
      : { sandbox: parseSandboxSetting(raw.sandbox).setting }),
    hooks,
    raw: document,
  };
}

function toCapabilityPolicy(raw: RawConfig): CapabilityPolicySettings {
  const grants: Record<string, CapabilitySet> = {};
  let requireCapabilities = false;
  for (const [name, entry] of Object.entries(raw.extensions ?? {})) {
    if (name === "require_capabilities") requireCapabilities = entry === true;
    else if (typeof entry === "object" && entry !== null && entry.capabilities !== undefined) {
      grants[name] = parseCapabilitySet(entry.capabilities).set;
    }
  }
  return { requireCapabilities, grants };
}

function toProviderConfig(raw: RawProviderConfig): ProviderConfig {
  const models: Record<string, ModelConfig> = {};
  for (const [alias, model] of Object.entries(raw.models ?? {})) {
    models[alias] = toModelConfig(model ?? {});
  }
  return {
    ...(raw.preset === undefined ? {} : { preset: raw.preset }),
    ...(raw.protocol === undefined ? {} : { protocol: raw.protocol }),
    ...(raw.base_url === undefined ? {} : { baseUrl: raw.base_url }),
    ...(raw.api_key === undefined ? {} : { apiKey: raw.api_key }),
    ...(raw.api_key_env === undefined ? {} : { apiKeyEnv: raw.api_key_env }),
    headers: { ...raw.headers },
    models,
    ...(raw.timeout_ms === undefined ? {} : { timeoutMs: raw.timeout_ms }),
    ...(raw.stream_idle_timeout_ms === undefined
      ? {}
      : { streamIdleTimeoutMs: raw.stream_idle_timeout_ms }),
  };
}

function toModelConfig(raw: RawModelConfig): ModelConfig {
  return {
    ...(raw.id === undefined ? {} : { id: raw.id }),
    ...(raw.context_window === undefined ? {} : { contextWindow: raw.context_window }),
    ...(raw.max_tokens === undefined ? {} : { maxTokens: raw.max_tokens }),
    ...(raw.temperature === undefined ? {} : { temperature: raw.temperature }),
    ...(raw.top_p === undefined ? {} : { topP: raw.top_p }),
    ...(raw.thinking_levels === undefined ? {} : { thinkingLevels: [...raw.thinking_levels] }),
  };
}

function lowerFirst(text: string): string {
  return text.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
}
