/**
 * The current models of the built-in providers that rienda names in its
 * listings (`rienda models`): a short list to choose from, kept current here
 * and in docs/providers.md. Any other model id of a provider works as well;
 * local servers (ollama, lmstudio) have whatever they have pulled, so none is
 * listed for them.
 *
 * @module
 */

import type { BuiltinProviderName } from "./builtin_names.ts";

/** Model ids per built-in provider; the first is the one the default agent takes with that key. */
export const KNOWN_MODELS: Readonly<Record<BuiltinProviderName, readonly string[]>> = {
  anthropic: ["claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5"],
  openai: ["gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-4o", "gpt-4o-mini", "o3", "o4-mini"],
  openrouter: ["anthropic/claude-sonnet-4.5", "openai/gpt-5"],
  groq: ["openai/gpt-oss-120b", "llama-3.3-70b-versatile"],
  deepseek: ["deepseek-chat", "deepseek-reasoner"],
  mistral: ["mistral-medium-latest", "mistral-large-latest", "codestral-latest"],
  xai: ["grok-4", "grok-code-fast-1"],
  together: ["Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8"],
  fireworks: ["accounts/fireworks/models/qwen3-coder-480b-a35b-instruct"],
  gemini: ["gemini-2.5-pro", "gemini-2.5-flash"],
  ollama: [],
  lmstudio: [],
};
