/**
 * `rienda auth login PROVIDER` / `auth list` / `auth logout PROVIDER`: API
 * keys kept in `$RIENDA_HOME/credentials.json` (docs/cli.md).
 *
 * - `login` asks without echo on a terminal and reads the first line of
 *   standard input when it is piped; the key is never printed.
 * - `list` says where each provider's key comes from (config, an environment
 *   variable, credentials.json), never the key itself.
 *
 * @module
 */

import { describeKeySource, lookupApiKey } from "../app/api_key.ts";
import { providerNames, resolveProvider } from "../app/provider_settings.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { type Credentials, loadCredentials, saveCredentials } from "../config/credentials.ts";
import { resolvePaths, type RiendaPaths } from "../config/paths.ts";
import type { Io } from "../ui/io.ts";
import { formatColumns } from "./columns.ts";
import { EXIT, UsageError } from "./exit.ts";

/** Flags every `auth` subcommand takes. */
export interface AuthFlags {
  /** `--config PATH`. */
  readonly config: string | undefined;
}

/** What an auth command needs: the paths, the configuration and the stored keys. */
interface AuthContext {
  readonly paths: RiendaPaths;
  readonly config: Config;
  readonly credentials: Credentials;
}

async function loadContext(io: Io, flags: AuthFlags): Promise<AuthContext> {
  const paths = resolvePaths(io.env, { config: flags.config, cwd: io.cwd });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const credentials = await loadCredentials(paths.credentialsFile);
  for (const warning of credentials.warnings) io.stderr.write(`${warning}\n`);
  return { paths, config, credentials };
}

function checkProvider(
  io: Io,
  context: AuthContext,
  provider: string,
  command: string,
): void {
  if (resolveProvider(context.config, provider, io.env) !== undefined) return;
  const known = providerNames(context.config).join(", ");
  throw new UsageError(`unknown provider "${provider}" (known: ${known})`, command);
}

const WHITESPACE_REGEXP = /\s/;

/** Stores the key of `provider`, read without echo (or from piped standard input). */
export async function authLogin(io: Io, provider: string, flags: AuthFlags): Promise<number> {
  const context = await loadContext(io, flags);
  checkProvider(io, context, provider, "auth login");
  const answer = await io.readSecret(`API key for ${provider}: `);
  const key = answer?.trim() ?? "";
  io.secrets.remember(key);
  if (key === "") {
    throw new UsageError(
      "no API key given: type it at the prompt, or pipe it on standard input",
      "auth login",
    );
  }
  if (WHITESPACE_REGEXP.test(key)) {
    throw new UsageError("the API key contains whitespace: paste the key alone", "auth login");
  }
  const { credentials, config, paths } = context;
  await saveCredentials(paths.credentialsFile, { ...credentials.keys, [provider]: key });
  io.stdout.write(`stored the API key of ${provider} in ${paths.credentialsFile}\n`);
  const settings = resolveProvider(config, provider, io.env);
  const used = settings === undefined ? undefined : lookupApiKey(settings, io.env, undefined);
  if (used !== undefined && settings !== undefined && used.key !== null) {
    io.stderr.write(
      `note: ${describeKeySource(settings, used.source)} takes precedence over the stored key\n`,
    );
  }
  return EXIT.ok;
}

/** Removes the stored key of `provider`; removing a key that is not stored is not an error. */
export async function authLogout(io: Io, provider: string, flags: AuthFlags): Promise<number> {
  const context = await loadContext(io, flags);
  const { credentials, paths } = context;
  if (!Object.hasOwn(credentials.keys, provider)) {
    io.stdout.write(`no API key of ${provider} is stored in ${paths.credentialsFile}\n`);
    return EXIT.ok;
  }
  const keys = { ...credentials.keys };
  delete keys[provider];
  await saveCredentials(paths.credentialsFile, keys);
  io.stdout.write(`removed the API key of ${provider} from ${paths.credentialsFile}\n`);
  return EXIT.ok;
}

/** Prints every provider and where its key comes from. */
export async function authList(io: Io, flags: AuthFlags): Promise<number> {
  const { config, credentials } = await loadContext(io, flags);
  const rows: [string, string][] = [];
  for (const name of providerNames(config)) {
    const settings = resolveProvider(config, name, io.env);
    if (settings === undefined) continue;
    const { source } = lookupApiKey(settings, io.env, credentials);
    rows.push([name, describeKeySource(settings, source)]);
  }
  for (const name of Object.keys(credentials.keys).sort()) {
    if (resolveProvider(config, name, io.env) === undefined) {
      rows.push([name, "credentials.json (not a known provider)"]);
    }
  }
  io.stdout.write(formatColumns(rows));
  return EXIT.ok;
}
