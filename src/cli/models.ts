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

import { type ModelRow, modelRows } from "../app/model_rows.ts";
import { loadConfig } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
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

/** How long a local server may take to answer before it counts as not running. */
const LOCAL_REACH_TIMEOUT_MS = 1_000;

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
