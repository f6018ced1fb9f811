/**
 * Which model a run of an agent uses, and whether it can: `rienda run`,
 * `rienda agents` and `rienda doctor` share this one answer. An agent that
 * names no model (no `model:`, or Claude Code's `inherit`) takes the model
 * the default agent would use: `default_model`, else the first built-in
 * provider with a key (docs/providers.md, "The default agent's model").
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import type { Credentials } from "../config/credentials.ts";
import { parseModelRef } from "../config/model_ref.ts";
import { lookupApiKey, missingKeyMessage } from "./api_key.ts";
import { firstKeyedModel } from "./default_model.ts";
import { resolveProvider } from "./provider_settings.ts";
import { fullModelRef, unknownProviderMessage } from "./resolve_model.ts";
import { errorMessage } from "../base/unknown.ts";

/** Where the model of an agent comes from. */
export type ModelOrigin = "agent" | "default_model" | "first_key";

/** The model an agent runs with, as named (a bare name is not resolved yet). */
export interface AgentModel {
  readonly ref: string;
  readonly origin: ModelOrigin;
}

/** What {@link agentModel} and {@link modelReadiness} read besides the configuration. */
export interface KeyLookupInputs {
  readonly env: (name: string) => string | undefined;
  readonly credentials: Credentials | undefined;
}

/** The agent's own model, else `default_model`, else the first provider with a key; undefined when none. */
export function agentModel(
  model: string | undefined,
  config: Config,
  keys: KeyLookupInputs,
): AgentModel | undefined {
  if (model !== undefined) return { ref: model, origin: "agent" };
  if (config.defaultModel !== undefined) {
    return { ref: config.defaultModel, origin: "default_model" };
  }
  const found = firstKeyedModel(config, keys.env, keys.credentials);
  return found === undefined ? undefined : { ref: found, origin: "first_key" };
}

/** Whether a model can run, with the fix when it cannot. */
export type ModelReadiness =
  | { readonly kind: "ready"; readonly ref: string }
  | { readonly kind: "no_key"; readonly ref: string; readonly fix: string }
  | { readonly kind: "unknown_model"; readonly fix: string }
  | { readonly kind: "unknown_provider"; readonly ref: string; readonly fix: string }
  | { readonly kind: "bad_base_url"; readonly ref: string; readonly fix: string };

/**
 * Whether `named` can run: a bare name that resolves, a known provider, and a
 * key (or a provider that needs none; whether a local server runs is not asked).
 */
export function modelReadiness(
  named: string,
  config: Config,
  keys: KeyLookupInputs,
): ModelReadiness {
  let ref: string;
  let provider: string;
  try {
    ref = fullModelRef(config, named);
    provider = parseModelRef(ref).provider;
  } catch (error) {
    return { kind: "unknown_model", fix: errorMessage(error) };
  }
  let settings;
  try {
    settings = resolveProvider(config, provider, keys.env);
  } catch (error) {
    return { kind: "bad_base_url", ref, fix: errorMessage(error) };
  }
  if (settings === undefined) {
    return { kind: "unknown_provider", ref, fix: unknownProviderMessage(config, provider, ref) };
  }
  const { source } = lookupApiKey(settings, keys.env, keys.credentials);
  if (source.kind !== "missing") return { kind: "ready", ref };
  return {
    kind: "no_key",
    ref,
    fix: missingKeyMessage(settings, source.variables, keys.credentials),
  };
}
