/**
 * `$RIENDA_HOME/trust.json`: which projects the user trusts (docs/security.md,
 * "Project trust"). Until a project is trusted, its agent files never take
 * the place of the built-in default or of a home agent.
 *
 * - One entry per project, keyed by the real path of its root:
 *   `{"/home/me/app": {"trusted": true, "decided": "2026-12-01T10:00:00.000Z"}}`.
 *   A project without an entry is undecided; `trusted: false` records a "no"
 *   (the chat asks only while a project is undecided).
 * - A project is its root's real path exactly: trusting a folder trusts
 *   neither its parent nor another project below it.
 * - Written with mode 0600 through a temporary file and a rename.
 * - A malformed file trusts nothing and is a warning; `rienda trust` refuses
 *   to write over it, so nothing in it is lost.
 *
 * @module
 */

import { dirname } from "node:path";
import { describeKind } from "./describe_value.ts";
import { errorMessage, isRecord } from "../base/unknown.ts";
import { readTextFileAtMost } from "../host/read_at_most.ts";

/** The largest trust.json read. */
const MAX_TRUST_BYTES = 4 * 1024 * 1024;

/** What the user decided about a project. */
export type TrustState = "trusted" | "untrusted" | "undecided";

/** One project's entry. */
export interface TrustEntry {
  readonly trusted: boolean;
  /** When it was decided (ISO 8601), as written. */
  readonly decided: string;
}

/** The entries of trust.json and what was wrong with it. */
export interface TrustRecords {
  readonly file: string;
  /** By the real path of the project root. */
  readonly entries: ReadonlyMap<string, TrustEntry>;
  /** What is wrong with the file, naming it; when set, nothing is trusted. */
  readonly problem?: string;
}

/** The warning of a malformed trust.json, or undefined. */
export function trustWarning(records: TrustRecords): string | undefined {
  return records.problem === undefined
    ? undefined
    : `${records.problem}; no project is trusted until it is fixed or removed`;
}

/**
 * Parses trust.json; a problem trusts nothing and is kept in `problem`.
 *
 * @example
 * ```ts
 * parseTrust('{"/a": {"trusted": true, "decided": "2026-01-01"}}', "/h/trust.json").entries.get("/a");
 * // { trusted: true, decided: "2026-01-01" }
 * ```
 */
export function parseTrust(text: string, file: string): TrustRecords {
  const broken = (why: string): TrustRecords => ({
    file,
    entries: new Map(),
    problem: `${file}: ${why}`,
  });
  let document: unknown;
  try {
    document = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    return broken(`not valid JSON (${errorMessage(error)})`);
  }
  if (!isRecord(document)) {
    return broken(
      `must be a JSON object of project roots such as {"/home/me/app": {"trusted": true}} (found ${
        describeKind(document)
      })`,
    );
  }
  const entries = new Map<string, TrustEntry>();
  for (const [root, entry] of Object.entries(document)) {
    const trusted = isRecord(entry) ? entry["trusted"] : undefined;
    if (typeof trusted !== "boolean") {
      return broken(`${JSON.stringify(root)}: "trusted" must be true or false`);
    }
    const decided = isRecord(entry) && typeof entry["decided"] === "string" ? entry["decided"] : "";
    entries.set(root, { trusted, decided });
  }
  return { file, entries };
}

/**
 * Reads trust.json; a missing file trusts nothing.
 *
 * @throws {Error} when the file exists but cannot be read
 */
export async function loadTrust(file: string): Promise<TrustRecords> {
  let read;
  try {
    read = await readTextFileAtMost(file, MAX_TRUST_BYTES);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { file, entries: new Map() };
    throw new Error(`${file}: cannot read the trust file: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  if (!read.complete) {
    return { file, entries: new Map(), problem: `${file}: larger than 4 MiB, so it was not read` };
  }
  return parseTrust(read.text, file);
}

/** What `records` say about the project whose root has the real path `realRoot`. */
export function trustStateOf(records: TrustRecords, realRoot: string): TrustState {
  const entry = records.entries.get(realRoot);
  return entry === undefined ? "undecided" : entry.trusted ? "trusted" : "untrusted";
}

/**
 * Records the decision about the project `realRoot` in trust.json (mode
 * 0600, through a temporary file renamed over the old one).
 *
 * @throws {Error} when the file is malformed (it is left as it is) or cannot be written
 */
export async function saveTrustDecision(
  file: string,
  realRoot: string,
  trusted: boolean,
  now: Date = new Date(),
): Promise<void> {
  const records = await loadTrust(file);
  if (records.problem !== undefined) {
    throw new Error(`${records.problem}: fix or remove it, then run rienda trust again`);
  }
  const document: Record<string, TrustEntry> = {};
  for (const [root, entry] of records.entries) document[root] = entry;
  document[realRoot] = { trusted, decided: now.toISOString() };
  await Deno.mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, `${JSON.stringify(document, null, 2)}\n`, {
      mode: 0o600,
      createNew: true,
    });
    await Deno.rename(temp, file);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw new Error(`${file}: cannot write the trust file: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}
