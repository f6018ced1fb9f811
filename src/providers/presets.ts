/**
 * The built-in providers (docs/formats.md): their wire protocol, endpoint,
 * key variable and context-window defaults, usable with no configuration.
 *
 * - Any model id passes through: `openai/gpt-4o` needs no declaration.
 * - A model's context window comes from config.yaml (`context_window`), else
 *   {@link knownContextWindow}'s small table, else the provider's default
 *   ({@link DEFAULT_CONTEXT_WINDOW}, or {@link DEFAULT_LOCAL_CONTEXT_WINDOW}
 *   for local servers).
 *
 * @module
 */

import { type BuiltinProviderName, isBuiltinProviderName } from "../config/builtin_names.ts";
import type { WireProtocol } from "./client.ts";

/** What rienda knows about one built-in provider. */
export interface ProviderPreset {
  readonly name: BuiltinProviderName;
  readonly protocol: WireProtocol;
  /** The API root, without a trailing slash. */
  readonly baseUrl: string;
  /** The environment variable that holds the key; null for local servers that need none. */
  readonly keyEnv: string | null;
  /** The context window of models missing from the table. */
  readonly defaultContextWindow: number;
  /** The chat completions field for the output cap, when not `max_tokens`. */
  readonly maxTokensField?: "max_completion_tokens";
}

/** The context window assumed for a cloud model rienda does not know. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** The context window assumed for a model of a local server (ollama, lmstudio). */
export const DEFAULT_LOCAL_CONTEXT_WINDOW = 32_768;

function cloud(
  name: BuiltinProviderName,
  protocol: WireProtocol,
  baseUrl: string,
  keyEnv: string,
): ProviderPreset {
  return { name, protocol, baseUrl, keyEnv, defaultContextWindow: DEFAULT_CONTEXT_WINDOW };
}

function local(name: BuiltinProviderName, baseUrl: string): ProviderPreset {
  return {
    name,
    protocol: "openai_chat_completions",
    baseUrl,
    keyEnv: null,
    defaultContextWindow: DEFAULT_LOCAL_CONTEXT_WINDOW,
  };
}

const CHAT = "openai_chat_completions";

/** Every built-in provider, by name, in the order the spec lists them. */
export const PROVIDER_PRESETS: Readonly<Record<BuiltinProviderName, ProviderPreset>> = {
  openai: {
    ...cloud("openai", "openai_responses", "https://api.openai.com/v1", "OPENAI_API_KEY"),
    // Used only when a config switches openai to chat completions: its
    // reasoning models reject `max_tokens`.
    maxTokensField: "max_completion_tokens",
  },
  anthropic: cloud("anthropic", "anthropic", "https://api.anthropic.com/v1", "ANTHROPIC_API_KEY"),
  openrouter: cloud("openrouter", CHAT, "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
  groq: cloud("groq", CHAT, "https://api.groq.com/openai/v1", "GROQ_API_KEY"),
  deepseek: cloud("deepseek", CHAT, "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"),
  mistral: cloud("mistral", CHAT, "https://api.mistral.ai/v1", "MISTRAL_API_KEY"),
  xai: cloud("xai", CHAT, "https://api.x.ai/v1", "XAI_API_KEY"),
  together: cloud("together", CHAT, "https://api.together.xyz/v1", "TOGETHER_API_KEY"),
  fireworks: cloud("fireworks", CHAT, "https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY"),
  gemini: cloud(
    "gemini",
    CHAT,
    "https://generativelanguage.googleapis.com/v1beta/openai",
    "GEMINI_API_KEY",
  ),
  ollama: local("ollama", "http://127.0.0.1:11434/v1"),
  lmstudio: local("lmstudio", "http://127.0.0.1:1234/v1"),
};

/** The built-in provider called `name`, or undefined. */
export function providerPreset(name: string): ProviderPreset | undefined {
  return isBuiltinProviderName(name) ? PROVIDER_PRESETS[name] : undefined;
}

/**
 * Context windows of well-known model families, by id prefix (the longest
 * matching prefix wins). Approximate; `context_window` in config.yaml wins.
 */
const CONTEXT_WINDOWS: readonly (readonly [string, number])[] = [
  ["gpt-5", 400_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4", 8_192],
  ["gpt-3.5-turbo", 16_385],
  ["gpt-oss", 131_072],
  ["o1", 200_000],
  ["o1-mini", 128_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
  ["claude-", 200_000],
  ["gemini-1.5-pro", 2_097_152],
  ["gemini-", 1_048_576],
  ["deepseek-", 128_000],
  ["grok-3", 131_072],
  ["grok-4", 256_000],
  ["grok-code", 256_000],
  ["mistral-large", 131_072],
  ["mistral-medium", 131_072],
  ["mistral-small", 131_072],
  ["codestral", 256_000],
  ["devstral", 131_072],
  ["llama-3", 131_072],
  ["kimi-k2", 131_072],
  ["qwen3-coder", 262_144],
];

/**
 * The context window of a well-known model, or undefined. Vendor prefixes
 * (`anthropic/claude-…` on OpenRouter, `accounts/…/models/…` on Fireworks)
 * are ignored.
 *
 * @example
 * ```ts
 * knownContextWindow("anthropic/claude-sonnet-4-5"); // 200000
 * knownContextWindow("my-finetune");                 // undefined
 * ```
 */
export function knownContextWindow(modelId: string): number | undefined {
  const name = modelId.slice(modelId.lastIndexOf("/") + 1).toLowerCase();
  let best: readonly [string, number] | undefined;
  for (const entry of CONTEXT_WINDOWS) {
    if (name.startsWith(entry[0]) && entry[0].length > (best?.[0].length ?? 0)) best = entry;
  }
  return best?.[1];
}
