/**
 * The model of an agent (the default one or any other) when neither `-m`,
 * the agent file nor `default_model` names one: the first built-in provider that has a key, in
 * the order of {@link DEFAULT_MODELS}, with its default model
 * (docs/providers.md, "The default agent's model"). Local servers (ollama,
 * lmstudio) need no key and are never picked: nothing says one is running.
 *
 * @module
 */

import { DEFAULT_AGENT_ID } from "../agents/default_agent.ts";
import type { BuiltinProviderName } from "../config/builtin_names.ts";
import type { Config } from "../config/config.ts";
import { KNOWN_MODELS } from "../config/known_models.ts";
import type { Credentials } from "../config/credentials.ts";
import { keyVariables, lookupApiKey } from "./api_key.ts";
import { resolveProvider } from "./provider_settings.ts";

/** The providers tried, in order; each with its first known model (`config/known_models.ts`). */
const DEFAULT_PROVIDERS: readonly BuiltinProviderName[] = [
  "anthropic",
  "openai",
  "openrouter",
  "groq",
  "deepseek",
  "mistral",
  "xai",
  "together",
  "fireworks",
  "gemini",
];

/** The providers tried, in order, with the model the default agent uses on each. */
export const DEFAULT_MODELS: readonly (readonly [BuiltinProviderName, string])[] = DEFAULT_PROVIDERS
  .flatMap((provider) => {
    const model = KNOWN_MODELS[provider][0];
    return model === undefined ? [] : [[provider, model] as const];
  });

/** The `provider/model` of the first provider of {@link DEFAULT_MODELS} with a key, or undefined. */
export function firstKeyedModel(
  config: Config,
  env: (name: string) => string | undefined,
  credentials: Credentials | undefined,
): string | undefined {
  for (const [provider, model] of DEFAULT_MODELS) {
    const settings = resolveProvider(config, provider, env);
    if (settings === undefined) continue;
    const { source } = lookupApiKey(settings, env, credentials);
    if (source.kind !== "missing" && source.kind !== "not_needed") return `${provider}/${model}`;
  }
  return undefined;
}

/**
 * The message for an agent with no model of its own when there is no
 * `default_model` and no key at all; an agent other than the default one is
 * named with its file.
 */
export function noModelMessage(
  config: Config,
  agent: { readonly id: string; readonly path: string },
): string {
  const who = agent.id === DEFAULT_AGENT_ID
    ? "the default agent"
    : `agent "${agent.id}" (${agent.path})`;
  return `${who} has no model: ${noModelFix(config)}`;
}

/** What gives an agent without a model of its own one: the key variables, `rienda auth login`, `default_model`, `-m`. */
export function noModelFix(config: Config): string {
  const variables = DEFAULT_MODELS.flatMap(([provider]) => {
    // Only the key variables are read: the base URL (and its variable) does not matter here.
    const settings = resolveProvider(config, provider, () => undefined);
    return settings === undefined ? [] : keyVariables(settings);
  });
  return `set an API key (${
    [...new Set(variables)].join(", ")
  }) or run rienda auth login PROVIDER, or set default_model in config.yaml or pass -m PROVIDER/MODEL`;
}
