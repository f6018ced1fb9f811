/**
 * `$RIENDA_HOME/credentials.json`: the API keys `rienda auth login` stores
 * (docs/formats.md), the last place a key is looked up.
 *
 * - One entry per provider: `{"openai": {"api_key": "sk-…"}}`.
 * - Written with mode 0600 through a temporary file and a rename, so a
 *   reader never sees half a file.
 * - A malformed file, or entry, is a warning and counts as empty: it never
 *   stops a run. Warnings and errors never quote the file's content, which
 *   may hold keys.
 *
 * @module
 */

import { dirname } from "node:path";
import { describeKind } from "./describe_value.ts";
import { isRecord } from "../base/unknown.ts";
import { errorMessage } from "../base/unknown.ts";
import { readTextFileAtMost } from "../host/read_at_most.ts";

/** The largest credentials.json read (read while reading). */
const MAX_CREDENTIALS_BYTES = 1024 * 1024;

/** The keys of a credentials file, and what was wrong with it. */
export interface Credentials {
  /** The file they were read from. */
  readonly file: string;
  /** API keys by provider name. */
  readonly keys: Readonly<Record<string, string>>;
  /** Problems of the file; each one already names the file. */
  readonly warnings: readonly string[];
}

/** The access mode of the file: owner read and write only. */
export const CREDENTIALS_FILE_MODE = 0o600;

const REWRITE_HINT = '"rienda auth login PROVIDER" rewrites it';

/** Credentials with no keys (a missing file). */
export function emptyCredentials(file: string): Credentials {
  return { file, keys: {}, warnings: [] };
}

/**
 * Parses the text of a credentials file; problems become warnings, never
 * errors, and never quote the text.
 *
 * @example
 * ```ts
 * parseCredentials('{"openai":{"api_key":"sk-1"}}', "/h/credentials.json").keys;
 * // { openai: "sk-1" }
 * ```
 */
export function parseCredentials(text: string, file: string): Credentials {
  let document: unknown;
  try {
    document = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return {
      file,
      keys: {},
      warnings: [`${file}: not valid JSON; its keys are ignored (${REWRITE_HINT})`],
    };
  }
  if (!isRecord(document)) {
    return {
      file,
      keys: {},
      warnings: [
        `${file}: must be a JSON object of providers such as {"openai": {"api_key": "…"}} ` +
        `(found ${describeJson(document)}); its keys are ignored (${REWRITE_HINT})`,
      ],
    };
  }
  const keys: Record<string, string> = {};
  const warnings: string[] = [];
  for (const [provider, entry] of Object.entries(document)) {
    const key = isRecord(entry) ? entry["api_key"] : undefined;
    if (typeof key === "string" && key.trim() !== "") {
      keys[provider] = key.trim();
      continue;
    }
    warnings.push(
      `${file}: ${provider}: must be {"api_key": "<key>"} (found ${describeEntry(entry)}); ` +
        `the entry is ignored (run rienda auth login ${provider})`,
    );
  }
  return { file, keys, warnings };
}

function describeJson(value: unknown): string {
  // Any scalar could be a key: name the kind only.
  return describeKind(value);
}

function describeEntry(entry: unknown): string {
  if (!isRecord(entry)) return describeJson(entry);
  if (!("api_key" in entry)) return "no api_key";
  const key = entry["api_key"];
  return typeof key === "string" ? "an empty api_key" : `api_key ${describeJson(key)}`;
}

/**
 * Reads the credentials file; a missing file has no keys. A file others may
 * read adds a warning.
 *
 * @throws {Error} only when the file exists but cannot be read
 */
export async function loadCredentials(file: string): Promise<Credentials> {
  let read;
  let mode: number | null = null;
  try {
    read = await readTextFileAtMost(file, MAX_CREDENTIALS_BYTES);
    mode = (await Deno.stat(file)).mode;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return emptyCredentials(file);
    const reason = errorMessage(error);
    throw new Error(`${file}: cannot read the credentials file: ${reason}`, { cause: error });
  }
  if (!read.complete) {
    throw new Error(
      `${file}: the credentials file is larger than 1 MiB, so rienda did not write it: remove it and run rienda auth login again`,
    );
  }
  const credentials = parseCredentials(read.text, file);
  if (mode === null || (mode & 0o077) === 0) return credentials;
  const shown = (mode & 0o777).toString(8).padStart(4, "0");
  return {
    ...credentials,
    warnings: [
      ...credentials.warnings,
      `${file}: other users may read this file (mode ${shown}); run chmod 600 ${file}`,
    ],
  };
}

/** The JSON text of a credentials file holding `keys`, providers sorted. */
export function formatCredentials(keys: Readonly<Record<string, string>>): string {
  const document: Record<string, { "api_key": string }> = {};
  for (const provider of Object.keys(keys).sort()) {
    const key = keys[provider];
    if (key !== undefined) document[provider] = { "api_key": key };
  }
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Writes `keys` as the credentials file: mode 0600, through a temporary file
 * in the same directory renamed over the old one. Creates the directory
 * (mode 0700) when needed.
 */
export async function saveCredentials(
  file: string,
  keys: Readonly<Record<string, string>>,
): Promise<void> {
  const dir = dirname(file);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, formatCredentials(keys), {
      mode: CREDENTIALS_FILE_MODE,
      createNew: true,
    });
    // The umask may only narrow the mode; chmod makes it exact (no modes on Windows).
    if (Deno.build.os !== "windows") await Deno.chmod(temp, CREDENTIALS_FILE_MODE);
    await Deno.rename(temp, file);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    const reason = errorMessage(error);
    throw new Error(`${file}: cannot write the credentials file: ${reason}`, { cause: error });
  }
}
