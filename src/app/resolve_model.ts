/**
 * A `provider/model` reference → the settings of a model client: protocol,
 * base URL, key, headers and model settings, from the built-in presets and
 * config.yaml, with the reasoning level checked against the model.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import type { Credentials } from "../config/credentials.ts";
import { parseModelRef } from "../config/model_ref.ts";
import { resolveModelName } from "../config/model_names.ts";
import type { ModelClientOptions } from "../providers/client.ts";
import { knownContextWindow } from "../providers/presets.ts";
import {
  allowedThinkingLevels,
  anthropicThinkingBudget,
  THINKING_OFF,
} from "../providers/thinking.ts";
import { type KeySource, lookupApiKey, missingKeyMessage } from "./api_key.ts";
import { providerNames, type ProviderSettings, resolveProvider } from "./provider_settings.ts";

/** Inputs of {@link resolveModel} besides the configuration. */
export interface ResolveModelOptions {
  readonly env: (name: string) => string | undefined;
  /** Stored keys, the last place a key is looked up. */
  readonly credentials?: Credentials | undefined;
  /** The `--thinking` level; absent or `off` means no reasoning. */
  readonly thinking?: string | undefined;
  /** No request reaches the provider (`--replay`): a missing key is no error. */
  readonly keyOptional?: boolean | undefined;
}

/** A model ready for `createModelClient`, plus what else the run needs to know about it. */
export interface ResolvedModel extends ModelClientOptions {
  /** Tokens the model can read: config.yaml, else the built-in table, else the provider default. */
  readonly contextWindow: number;
  /** The levels `--thinking` accepts for this model. */
  readonly thinkingLevels: readonly string[];
  /** Where the key came from (never the key). */
  readonly keySource: KeySource;
}

/** A `--thinking` level the model does not accept: a usage error. */
export class ThinkingLevelError extends Error {
  override name = "ThinkingLevelError";
}

/**
 * `ref` as `provider/model`: a bare name (`sonnet`, `gpt-4o`) goes through
 * `model_aliases:`, the built-in aliases and the providers' known models
 * (`config/model_names.ts`).
 *
 * @throws {Error} when no alias or provider matches a bare name, or several do
 */
export function fullModelRef(config: Config, ref: string): string {
  return resolveModelName(ref, config);
}

/**
 * Resolves `ref` (`provider/model` or a bare name, {@link fullModelRef})
 * against the built-in providers and the configuration.
 *
 * @throws {ModelRefError} for a malformed reference
 * @throws {ThinkingLevelError} for a `--thinking` level the model does not accept
 * @throws {Error} for an unknown provider or a missing key; the message names the fix
 */
export function resolveModel(
  config: Config,
  ref: string,
  options: ResolveModelOptions,
): ResolvedModel {
  ref = fullModelRef(config, ref);
  const { provider, model } = parseModelRef(ref);
  const settings = resolveProvider(config, provider, options.env);
  if (settings === undefined) throw new Error(unknownProviderMessage(config, provider, ref));
  const modelSettings = Object.hasOwn(settings.models, model) ? settings.models[model] : undefined;
  const modelId = modelSettings?.id ?? model;
  const thinkingLevels = allowedThinkingLevels(modelSettings?.thinkingLevels);
  const thinking = checkThinking(settings, ref, options.thinking, thinkingLevels);
  const lookup = lookupApiKey(settings, options.env, options.credentials);
  if (lookup.source.kind === "missing" && options.keyOptional !== true) {
    throw new Error(missingKeyMessage(settings, lookup.source.variables, options.credentials));
  }
  return {
    ref,
    protocol: settings.protocol,
    baseUrl: settings.baseUrl,
    apiKey: lookup.key,
    headers: settings.headers,
    modelId,
    ...(modelSettings?.maxTokens === undefined ? {} : { maxTokens: modelSettings.maxTokens }),
    ...(settings.maxTokensField === undefined ? {} : { maxTokensField: settings.maxTokensField }),
    ...(modelSettings?.temperature === undefined ? {} : { temperature: modelSettings.temperature }),
    ...(modelSettings?.topP === undefined ? {} : { topP: modelSettings.topP }),
    ...(thinking === undefined ? {} : { thinking }),
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(settings.streamIdleTimeoutMs === undefined
      ? {}
      : { streamIdleTimeoutMs: settings.streamIdleTimeoutMs }),
    contextWindow: modelSettings?.contextWindow ?? knownContextWindow(modelId) ??
      settings.defaultContextWindow,
    thinkingLevels,
    keySource: lookup.source,
  };
}

/** The level to send, or undefined for none; throws for a level the model does not accept. */
function checkThinking(
  settings: ProviderSettings,
  ref: string,
  level: string | undefined,
  allowed: readonly string[],
): string | undefined {
  if (level === undefined || level === THINKING_OFF) return undefined;
  if (!allowed.includes(level)) {
    throw new ThinkingLevelError(
      `--thinking: unknown level "${level}" for model "${ref}" (allowed: ${allowed.join(", ")})`,
    );
  }
  if (settings.protocol === "anthropic" && anthropicThinkingBudget(level) === undefined) {
    throw new ThinkingLevelError(
      `--thinking: level "${level}" of model "${ref}" has no anthropic thinking budget ` +
        `(use low, medium, high, or a token count of at least 1024 in thinking_levels)`,
    );
  }
  return level;
}

/** The error for a reference whose provider is neither built in nor in config.yaml. */
export function unknownProviderMessage(config: Config, provider: string, ref: string): string {
  const where = config.file ?? "config.yaml";
  return `unknown provider "${provider}" in model "${ref}" (known: ${
    providerNames(config).join(", ")
  }); add it under providers: in ${where}`;
}
