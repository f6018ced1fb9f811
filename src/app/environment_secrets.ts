/**
 * The keys of the environment, remembered at start before anything is
 * printed (docs/security.md, "What is masked"): the built-in key variables
 * (`OPENAI_API_KEY`, …) and every variable whose name says it holds a secret
 * (`GITHUB_TOKEN`, `DB_PASSWORD`) unless its value is a path, a number or
 * words. The stored keys follow before a command (`known_secrets.ts`).
 *
 * @module
 */

import { PROVIDER_PRESETS } from "../providers/presets.ts";
import { isSecretEnvironmentVariable } from "../secrets/secret_names.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** Remembers the secrets of the environment `variables` into `secrets` (see the module doc). */
export function rememberEnvironmentSecrets(
  secrets: SecretSet,
  variables: Readonly<Record<string, string>>,
): void {
  for (const preset of Object.values(PROVIDER_PRESETS)) {
    if (preset.keyEnv !== null) secrets.remember(variables[preset.keyEnv]);
  }
  for (const [name, value] of Object.entries(variables)) {
    if (isSecretEnvironmentVariable(name, value)) secrets.remember(value);
  }
}
