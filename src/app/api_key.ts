/**
 * Where a provider's API key comes from, in the order of docs/formats.md:
 * the provider's `api_key`, its `api_key_env`, the built-in variable,
 * `credentials.json`. An empty variable counts as unset.
 *
 * Nothing here ever puts a key in a message. Every key it can find was
 * remembered before the command ran (`known_secrets.ts`), and the model
 * client remembers the one it is given, so no output can show it.
 *
 * @module
 */

import type { Credentials } from "../config/credentials.ts";
import type { ProviderSettings } from "./provider_settings.ts";

/** Where a key was found, or why there is none. */
export type KeySource =
  | { readonly kind: "config" }
  | { readonly kind: "env"; readonly variable: string }
  | { readonly kind: "credentials"; readonly file: string }
  | { readonly kind: "not_needed" }
  | { readonly kind: "missing"; readonly variables: readonly string[] };

/** A key and where it came from; `key` is null for `not_needed` and `missing`. */
export interface KeyLookup {
  readonly key: string | null;
  readonly source: KeySource;
}

/** The variables that may hold the provider's key, in lookup order. */
export function keyVariables(settings: ProviderSettings): string[] {
  const variables = [settings.apiKeyEnv, settings.builtinKeyEnv]
    .filter((name) => name !== undefined);
  return [...new Set(variables)];
}

/** Finds the provider's key (formats.md lookup order). */
export function lookupApiKey(
  settings: ProviderSettings,
  env: (name: string) => string | undefined,
  credentials: Credentials | undefined,
): KeyLookup {
  if (settings.apiKey !== undefined) return { key: settings.apiKey, source: { kind: "config" } };
  const variables = keyVariables(settings);
  for (const variable of variables) {
    const value = env(variable)?.trim();
    if (value) return { key: value, source: { kind: "env", variable } };
  }
  const stored = credentials !== undefined && Object.hasOwn(credentials.keys, settings.name)
    ? credentials.keys[settings.name]
    : undefined;
  if (stored !== undefined && credentials !== undefined) {
    return { key: stored, source: { kind: "credentials", file: credentials.file } };
  }
  if (!settings.keyRequired) return { key: null, source: { kind: "not_needed" } };
  return { key: null, source: { kind: "missing", variables } };
}

/**
 * The error message for a provider whose key is missing: the variable to
 * set and the `rienda auth login` command, plus the credentials file's own
 * problems, which may be why.
 */
export function missingKeyMessage(
  settings: ProviderSettings,
  variables: readonly string[],
  credentials: Credentials | undefined,
): string {
  const set = variables.length === 0 ? "" : `set ${variables.join(" or ")} or `;
  const problems = credentials?.warnings.length ? ` (${credentials.warnings.join("; ")})` : "";
  return `provider "${settings.name}" needs an API key: ${set}run rienda auth login ${settings.name}${problems}`;
}

/** A short description of where a key comes from, for `rienda auth list`; never the key. */
export function describeKeySource(
  settings: Pick<ProviderSettings, "name">,
  source: KeySource,
): string {
  switch (source.kind) {
    case "config":
      return `config (providers.${settings.name}.api_key)`;
    case "env":
      return `environment (${source.variable})`;
    case "credentials":
      return "credentials.json";
    case "not_needed":
      return "none needed";
    case "missing": {
      const set = source.variables.length === 0 ? "" : `set ${source.variables.join(" or ")} or `;
      return `missing: ${set}run rienda auth login ${settings.name}`;
    }
    default: {
      const unknownSource: never = source;
      throw new TypeError(`unknown key source ${JSON.stringify(unknownSource)}`);
    }
  }
}
