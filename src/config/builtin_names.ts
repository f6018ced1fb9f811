/**
 * Names of the providers rienda knows without any configuration.
 *
 * A configured provider with one of these names overrides the built-in's
 * fields, and `preset:` accepts exactly these names (docs/formats.md).
 *
 * @module
 */

/** The built-in provider names, in the order the spec lists them. */
export const BUILTIN_PROVIDER_NAMES = [
  "openai",
  "anthropic",
  "openrouter",
  "groq",
  "deepseek",
  "mistral",
  "xai",
  "together",
  "fireworks",
  "gemini",
  "ollama",
  "lmstudio",
] as const;

/** One built-in provider name. */
export type BuiltinProviderName = typeof BUILTIN_PROVIDER_NAMES[number];

const BUILTIN_SET: ReadonlySet<string> = new Set(BUILTIN_PROVIDER_NAMES);

/** Whether `name` is one of {@link BUILTIN_PROVIDER_NAMES}. */
export function isBuiltinProviderName(name: string): name is BuiltinProviderName {
  return BUILTIN_SET.has(name);
}
