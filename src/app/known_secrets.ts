/**
 * Every key rienda can know of, remembered before anything is printed
 * (docs/security.md, "What is masked"), whichever command runs and whichever
 * provider it uses:
 *
 * - at start ({@link rememberEnvironmentSecrets}): the built-in key
 *   variables (`OPENAI_API_KEY`, …) and every variable whose name says it
 *   holds a secret (`GITHUB_TOKEN`, `DB_PASSWORD`) unless its value is a
 *   path, a number or words;
 * - before a command ({@link rememberStoredSecrets}): the keys of
 *   `credentials.json`, and of the config in effect its `api_key`s,
 *   credential headers, MCP secrets and the variables its `api_key_env` and
 *   `token_env` name. A file that cannot be read or parsed is skipped here
 *   (the command that needs it says what is wrong).
 *
 * Reading them again where a command loads them is harmless: a secret is
 * remembered once.
 *
 * @module
 */

import { loadConfig } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
import { resolvePaths, type RiendaPaths } from "../config/paths.ts";
import { PROVIDER_PRESETS } from "../providers/presets.ts";
import { isSecretEnvironmentVariable } from "../secrets/secret_names.ts";
import { rememberSecret } from "../secrets/secrets.ts";

/** Remembers the secrets of the environment `variables` (see the module doc). */
export function rememberEnvironmentSecrets(variables: Readonly<Record<string, string>>): void {
  for (const preset of Object.values(PROVIDER_PRESETS)) {
    if (preset.keyEnv !== null) rememberSecret(variables[preset.keyEnv]);
  }
  for (const [name, value] of Object.entries(variables)) {
    if (isSecretEnvironmentVariable(name, value)) rememberSecret(value);
  }
}

/** Whether `path` is a regular file (a named pipe in its place must not block the start). */
async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * Remembers the keys of `credentials.json` and of the config in effect
 * (`RIENDA_CONFIG`, else the home's; see the module doc). Never fails.
 */
export async function rememberStoredSecrets(
  env: (name: string) => string | undefined,
  cwd: string,
): Promise<void> {
  let paths: RiendaPaths;
  try {
    paths = resolvePaths(env, { cwd });
  } catch {
    return; // no home: nothing stored
  }
  if (await isRegularFile(paths.credentialsFile)) {
    // Parsing remembers the keys; a broken file is the command's to report.
    await loadCredentials(paths.credentialsFile).catch(() => undefined);
  }
  if (!(await isRegularFile(paths.configFile))) return;
  const config = await loadConfig(paths.configFile, { explicit: false }).catch(() => null);
  if (config === null) return;
  for (const provider of Object.values(config.providers)) {
    if (provider.apiKeyEnv !== undefined) rememberSecret(env(provider.apiKeyEnv));
  }
  for (const server of Object.values(config.mcpServers)) {
    if (server.kind === "remote" && server.tokenEnv !== undefined) {
      rememberSecret(env(server.tokenEnv));
    }
  }
}
