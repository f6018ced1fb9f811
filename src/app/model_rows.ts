/**
 * The `provider/model` references the configuration and the keys offer, as
 * `rienda models` lists them and the chat's `/model` and an editor's model
 * choice offer them: the declared models, the default model, each keyed
 * built-in provider's known models and `provider/*`, then the aliases, each
 * ready or saying what it lacks.
 *
 * @module
 */

import { describeKeySource, lookupApiKey } from "./api_key.ts";
import { type ProviderSettings, resolveProvider } from "./provider_settings.ts";
import { BUILTIN_PROVIDER_NAMES } from "../config/builtin_names.ts";
import type { Config } from "../config/config.ts";
import type { Credentials } from "../config/credentials.ts";
import { parseModelRef } from "../config/model_ref.ts";
import { KNOWN_MODELS } from "../config/known_models.ts";
import { BUILTIN_MODEL_ALIASES } from "../config/model_names.ts";
import { errorMessage } from "../base/unknown.ts";

/** One model reference a front end may offer, and whether it is ready. */
export interface ModelRow {
  readonly ref: string;
  readonly ready: boolean;
  /** Where the key comes from, or what is missing. */
  readonly detail: string;
  /** The base URL of a server that needs no key (a local one): ready only when it answers. */
  readonly probe?: string;
}

function keyState(
  settings: ProviderSettings,
  env: (name: string) => string | undefined,
  credentials: Credentials,
): { ready: boolean; detail: string } {
  const { source } = lookupApiKey(settings, env, credentials);
  const where = describeKeySource(settings, source);
  switch (source.kind) {
    case "missing":
      return { ready: false, detail: `key ${where}` };
    case "not_needed":
      return { ready: true, detail: "no key needed" };
    default:
      return { ready: true, detail: `key from ${where}` };
  }
}

/**
 * The rows of the listing: declared models, the default model, then each
 * keyed built-in's known models and `provider/*`, then the aliases.
 */
export function modelRows(
  config: Config,
  env: (name: string) => string | undefined,
  credentials: Credentials,
): ModelRow[] {
  const rows: ModelRow[] = [];
  const seen = new Set<string>();
  const add = (ref: string, settings: ProviderSettings | undefined) => {
    if (seen.has(ref)) return;
    seen.add(ref);
    const state = settings === undefined
      ? { ready: false, detail: "unknown provider: add it under providers: in config.yaml" }
      : keyState(settings, env, credentials);
    const local = settings !== undefined && !settings.keyRequired;
    rows.push({ ref, ...state, ...(local ? { probe: settings.baseUrl } : {}) });
  };
  for (const [name, provider] of Object.entries(config.providers)) {
    const settings = resolveProvider(config, name, env);
    for (const alias of Object.keys(provider.models)) add(`${name}/${alias}`, settings);
  }
  if (config.defaultModel !== undefined) {
    add(
      config.defaultModel,
      resolveProvider(config, parseModelRef(config.defaultModel).provider, env),
    );
  }
  for (const name of BUILTIN_PROVIDER_NAMES) {
    const settings = resolveProvider(config, name, env);
    if (settings === undefined || !keyState(settings, env, credentials).ready) continue;
    for (const model of KNOWN_MODELS[name]) add(`${name}/${model}`, settings);
    add(`${name}/*`, settings);
  }
  const aliases = { ...BUILTIN_MODEL_ALIASES, ...config.modelAliases };
  const aliasRows = Object.entries(aliases).map(([alias, target]): ModelRow => {
    const state = targetState(config, target, env, credentials);
    return { ...state, ref: alias, detail: `alias of ${target}; ${state.detail}` };
  });
  return [...rows, ...aliasRows].map((row) =>
    row.ref === config.defaultModel ? { ...row, detail: `default; ${row.detail}` } : row
  );
}

/** The state of an alias's target: that of its provider's key (a local server is asked like its rows). */
function targetState(
  config: Config,
  target: string,
  env: (name: string) => string | undefined,
  credentials: Credentials,
): Omit<ModelRow, "ref"> {
  let settings: ProviderSettings | undefined;
  try {
    settings = resolveProvider(config, parseModelRef(target).provider, env);
  } catch (error) {
    return { ready: false, detail: errorMessage(error) };
  }
  if (settings === undefined) {
    return { ready: false, detail: "unknown provider: add it under providers: in config.yaml" };
  }
  const local = !settings.keyRequired;
  return { ...keyState(settings, env, credentials), ...(local ? { probe: settings.baseUrl } : {}) };
}
