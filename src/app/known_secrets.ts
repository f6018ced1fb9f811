/**
 * Every key rienda can know of, remembered before anything is printed
 * (docs/security.md, "What is masked"), whichever command runs and whichever
 * provider it uses:
 *
 * - at start, the environment's (`environment_secrets.ts`, apart so that
 *   `--version` loads no config parser);
 * - before a command ({@link rememberStoredSecrets}): the keys of
 *   `credentials.json`, and of the config in effect (the command's
 *   `--config`, else `RIENDA_CONFIG`, else the home's) its `api_key`s,
 *   credential headers, MCP secrets and the variables its `api_key_env` and
 *   `token_env` name. A file that cannot be read or parsed is skipped here
 *   (the command that needs it says what is wrong).
 *
 * Parsing config.yaml and credentials.json remembers nothing: the set is
 * the caller's (`Io.secrets`), filled here.
 *
 * @module
 */

import { resolvePaths, type RiendaPaths } from "../config/paths.ts";
import type { SecretSet } from "../secrets/secrets.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { type Credentials, loadCredentials } from "../config/credentials.ts";
import { serverSecrets } from "../config/mcp_servers.ts";
import { isCredentialHeader } from "../secrets/secret_names.ts";

/** Remembers the keys of a parsed `credentials.json` into `secrets`. */
export function rememberCredentialSecrets(secrets: SecretSet, credentials: Credentials): void {
  for (const key of Object.values(credentials.keys)) secrets.remember(key);
}

/**
 * Remembers the secrets written in a parsed config into `secrets`: each
 * provider's `api_key` and credential headers, each MCP server's credential
 * headers, secret-named `env` values and secret flags.
 */
export function rememberConfigSecrets(secrets: SecretSet, config: Config): void {
  for (const provider of Object.values(config.providers)) {
    secrets.remember(provider.apiKey);
    for (const [name, value] of Object.entries(provider.headers)) {
      if (isCredentialHeader(name)) secrets.remember(value);
    }
  }
  for (const server of Object.values(config.mcpServers)) {
    for (const value of serverSecrets(server)) secrets.remember(value);
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
 * (`configFlag`, the command's `--config`, else `RIENDA_CONFIG`, else the
 * home's; see the module doc). Never fails.
 */
export async function rememberStoredSecrets(
  secrets: SecretSet,
  env: (name: string) => string | undefined,
  cwd: string,
  configFlag?: string,
): Promise<void> {
  let paths: RiendaPaths;
  try {
    paths = resolvePaths(env, { cwd, ...(configFlag === undefined ? {} : { config: configFlag }) });
  } catch {
    return; // no home: nothing stored
  }
  if (await isRegularFile(paths.credentialsFile)) {
    // A broken file is the command's to report.
    const credentials = await loadCredentials(paths.credentialsFile).catch(() => null);
    if (credentials !== null) rememberCredentialSecrets(secrets, credentials);
  }
  if (!(await isRegularFile(paths.configFile))) return;
  const config = await loadConfig(paths.configFile, { explicit: false }).catch(() => null);
  if (config === null) return;
  rememberConfigSecrets(secrets, config);
  for (const provider of Object.values(config.providers)) {
    if (provider.apiKeyEnv !== undefined) secrets.remember(env(provider.apiKeyEnv));
  }
  for (const server of Object.values(config.mcpServers)) {
    if (server.kind === "remote" && server.tokenEnv !== undefined) {
      secrets.remember(env(server.tokenEnv));
    }
  }
}
