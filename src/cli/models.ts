/**
 * `rienda models`: the `provider/model` references the configuration
 * declares, then the built-in providers whose key is present (any model id
 * works with them: `openai/*`), each marked ready or saying what it lacks.
 * A server that needs no key (ollama, lmstudio, a local custom provider) is
 * ready only when it answers within a second.
 *
 * ```
 * local/qwen   ready      default; no key needed, http://127.0.0.1:11434/v1 reachable (HTTP 404)
 * work/big     not ready  key missing: set WORK_KEY or run rienda auth login work
 * anthropic/*  ready      key from environment (ANTHROPIC_API_KEY)
 * ```
 *
 * @module
 */

import { describeKeySource, lookupApiKey } from "../app/api_key.ts";
import { type ProviderSettings, resolveProvider } from "../app/provider_settings.ts";
import { BUILTIN_PROVIDER_NAMES } from "../config/builtin_names.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { type Credentials, loadCredentials } from "../config/credentials.ts";
import { parseModelRef } from "../config/model_ref.ts";
import { KNOWN_MODELS } from "../config/known_models.ts";
import { BUILTIN_MODEL_ALIASES } from "../config/model_names.ts";
import { errorMessage } from "../base/unknown.ts";
import { resolvePaths } from "../config/paths.ts";
import type { Io } from "../ui/io.ts";
import { formatColumns } from "./columns.ts";
import { EXIT } from "./exit.ts";
import { reachability } from "./reachability.ts";

/** The flags of `rienda models`. */
export interface ModelsFlags {
  /** `--config PATH`. */
  readonly config: string | undefined;
}

/** One line of the listing. */
export interface ModelRow {
  readonly ref: string;
  readonly ready: boolean;
  /** Where the key comes from, or what is missing. */
  readonly detail: string;
  /** The base URL of a server that needs no key (a local one): ready only when it answers. */
  readonly probe?: string;
}

/** How long a local server may take to answer before it counts as not running. */
const LOCAL_REACH_TIMEOUT_MS = 1_000;

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

/** Prints the model references the configuration and the environment offer. */
export async function modelsCommand(io: Io, flags: ModelsFlags): Promise<number> {
  const paths = resolvePaths(io.env, { config: flags.config, cwd: io.cwd });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const credentials = await loadCredentials(paths.credentialsFile);
  for (const warning of credentials.warnings) io.stderr.write(`${warning}\n`);
  const rows = await withLocalServers(modelRows(config, io.env, credentials));
  io.stdout.write(
    formatColumns(rows.map((row) => [row.ref, row.ready ? "ready" : "not ready", row.detail])),
  );
  return EXIT.ok;
}

/** The rows with each local server asked, at once: ready only when it answers (as doctor checks). */
async function withLocalServers(rows: readonly ModelRow[]): Promise<ModelRow[]> {
  const urls = [...new Set(rows.flatMap((row) => row.probe === undefined ? [] : [row.probe]))];
  const answers = new Map(
    await Promise.all(
      urls.map(async (url) => [url, await reachability(url, LOCAL_REACH_TIMEOUT_MS)] as const),
    ),
  );
  return rows.map((row) => {
    const answer = row.probe === undefined ? undefined : answers.get(row.probe);
    if (answer === undefined || !row.ready) return row;
    return { ...row, ready: answer.ok, detail: `${row.detail}, ${answer.text}` };
  });
}
