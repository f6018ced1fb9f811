/**
 * A provider's effective settings: its built-in preset (by name or `preset:`)
 * with the fields config.yaml sets on top (docs/formats.md).
 *
 * @module
 */

import type { Config, ModelConfig } from "../config/config.ts";
import { BUILTIN_PROVIDER_NAMES } from "../config/builtin_names.ts";
import type { WireProtocol } from "../providers/client.ts";
import { DEFAULT_CONTEXT_WINDOW, providerPreset } from "../providers/presets.ts";
import { baseUrlFromEnv } from "../providers/base_url_env.ts";

/** Everything rienda knows about one provider once config.yaml is applied. */
export interface ProviderSettings {
  readonly name: string;
  readonly protocol: WireProtocol;
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Models by alias, from config.yaml. */
  readonly models: Readonly<Record<string, ModelConfig>>;
  /** `providers.<name>.api_key`: a literal key. */
  readonly apiKey?: string;
  /** `providers.<name>.api_key_env`. */
  readonly apiKeyEnv?: string;
  /** The key variable of the built-in (or preset) it starts from. */
  readonly builtinKeyEnv?: string;
  /** False for servers that take no key (ollama, lmstudio, a custom provider with no key settings). */
  readonly keyRequired: boolean;
  /** The context window of models neither config.yaml nor the table knows. */
  readonly defaultContextWindow: number;
  readonly maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Whether config.yaml has a `providers.<name>` entry. */
  readonly configured: boolean;
  /** `timeout_ms`, when config.yaml sets it. */
  readonly timeoutMs?: number;
  /** `stream_idle_timeout_ms`, when config.yaml sets it. */
  readonly streamIdleTimeoutMs?: number;
}

/**
 * The settings of provider `name`: a built-in, a configured provider, or a
 * built-in overridden field by field; undefined when it is neither. A
 * built-in's base URL is config.yaml's `base_url`, else its conventional
 * variable (`OPENAI_BASE_URL`, `providers/base_url_env.ts`), else the preset's.
 *
 * @throws {BaseUrlVariableError} when that variable is not an http(s) URL
 */
export function resolveProvider(
  config: Config,
  name: string,
  env: (name: string) => string | undefined,
): ProviderSettings | undefined {
  const entry = Object.hasOwn(config.providers, name) ? config.providers[name] : undefined;
  const preset = providerPreset(entry?.preset ?? name);
  const protocol = entry?.protocol ?? preset?.protocol;
  const fromEnv = entry?.baseUrl === undefined && entry?.preset === undefined
    ? baseUrlFromEnv(name, env)
    : undefined;
  const baseUrl = entry?.baseUrl ?? fromEnv ?? preset?.baseUrl;
  // config_checks.ts already rejects a custom provider without these.
  if (protocol === undefined || baseUrl === undefined) return undefined;
  const builtinKeyEnv = preset?.keyEnv ?? undefined;
  const maxTokensField = preset?.maxTokensField ?? maxTokensFieldFor(baseUrl);
  return {
    name,
    protocol,
    baseUrl,
    headers: entry?.headers ?? {},
    models: entry?.models ?? {},
    ...(entry?.apiKey === undefined ? {} : { apiKey: entry.apiKey }),
    ...(entry?.apiKeyEnv === undefined ? {} : { apiKeyEnv: entry.apiKeyEnv }),
    ...(builtinKeyEnv === undefined ? {} : { builtinKeyEnv }),
    keyRequired: builtinKeyEnv !== undefined || entry?.apiKey !== undefined ||
      entry?.apiKeyEnv !== undefined,
    defaultContextWindow: preset?.defaultContextWindow ?? DEFAULT_CONTEXT_WINDOW,
    ...(maxTokensField === undefined ? {} : { maxTokensField }),
    configured: entry !== undefined,
    ...(entry?.timeoutMs === undefined ? {} : { timeoutMs: entry.timeoutMs }),
    ...(entry?.streamIdleTimeoutMs === undefined
      ? {}
      : { streamIdleTimeoutMs: entry.streamIdleTimeoutMs }),
  };
}

/** OpenAI's own chat completions endpoint wants `max_completion_tokens` (reasoning models). */
function maxTokensFieldFor(baseUrl: string): "max_completion_tokens" | undefined {
  try {
    return new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : undefined;
  } catch {
    return undefined;
  }
}

/** Every provider name: the built-ins in the spec's order, then the configured ones in file order. */
export function providerNames(config: Config): string[] {
  const names: string[] = [...BUILTIN_PROVIDER_NAMES];
  for (const name of Object.keys(config.providers)) {
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
