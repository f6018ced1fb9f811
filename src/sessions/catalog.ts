/**
 * The sessions of one workspace: listing (newest first), lookup by id, unique
 * id prefix or short id (and a full id in any workspace), and removal.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { findProjectRoot } from "../host/project_root.ts";
import type { HeaderEntry } from "./entries.ts";
import { parseEntry, parseHeader } from "./parse_entry.ts";
import { acquireSessionLock } from "./lock.ts";
import { projectDir } from "./project.ts";
import { matchingIds } from "./short_ids.ts";
import { errorMessage } from "../base/unknown.ts";

/** One stored session, as listed. */
export interface SessionSummary {
  readonly id: string;
  readonly path: string;
  readonly agent: string;
  readonly model: string;
  /** When the session started (the header's `createdAt`). */
  readonly createdAt: string;
  /** When the file last changed (ISO 8601). */
  readonly updatedAt: string;
  /** The last `title` entry, else the first prompt on one line, at most 80 characters. */
  readonly title: string;
  /** Why the file could not be summarised (e.g. no valid header); unset when it could. */
  readonly problem?: string;
  /** The error of the run that ended the session, when its last entry is a `failure`. */
  readonly failed?: string;
  /** What the hook that ended the session's last run said, when its last entry is a `hook_stop`. */
  readonly stopped?: string;
  /** A subagent's session: the session it answers… */
  readonly parentSession?: string;
  /** …and the `agent` call there. */
  readonly parentCall?: string;
}

/** No session, or more than one, matches the id a user gave. */
export class SessionNotFoundError extends Error {
  readonly id: string;
  /** The ids that matched (empty when none did). */
  readonly matches: readonly string[];

  constructor(id: string, matches: readonly string[]) {
    super(
      matches.length === 0
        ? `no session "${id}" in this workspace (rienda sessions lists them)`
        : `session id "${id}" is ambiguous: it matches ${
          matches.join(", ")
        } (give more characters)`,
    );
    this.name = "SessionNotFoundError";
    this.id = id;
    this.matches = matches;
  }
}

/** Characters of a title made from the first prompt. */
const MAX_TITLE_CHARS = 80;

const SESSION_FILE_SUFFIX = ".jsonl";
const WHITESPACE_REGEXP = /\s+/g;

/** The sessions of `workdir`, newest first (last change, then id). */
export async function listSessions(
  sessionsDir: string,
  workdir: string,
): Promise<SessionSummary[]> {
  const files = await sessionFiles(sessionsDir, workdir);
  sortNewestFirst(files);
  return await Promise.all(files.map(summarise));
}

/** The id and file of the most recently changed session of `workdir`, without reading it. */
export async function latestSessionFile(
  sessionsDir: string,
  workdir: string,
): Promise<SessionFile | null> {
  const files = await sessionFiles(sessionsDir, workdir);
  sortNewestFirst(files);
  return files[0] ?? null;
}

/**
 * The id and file of the session `id` names, without reading it: a session
 * of `workdir` whose id is `id`, starts with it or ends with it (a short id,
 * `short_ids.ts`); else, for a full id, the session of that id in any
 * workspace (its `workdir` then differs: read it from the header).
 *
 * @throws {SessionNotFoundError} when no session or several match
 */
export async function findSessionFile(
  sessionsDir: string,
  workdir: string,
  id: string,
): Promise<SessionFile> {
  const wanted = id.trim().toLowerCase();
  const files = wanted === "" ? [] : await sessionFiles(sessionsDir, workdir);
  const ids = matchingIds(wanted, files.map((file) => file.id));
  const matches = files.filter((file) => ids.includes(file.id));
  const [only] = matches;
  if (only !== undefined && matches.length === 1) return only;
  if (matches.length === 0 && FULL_ID_REGEXP.test(wanted)) {
    const elsewhere = await findInAnyWorkspace(sessionsDir, wanted);
    if (elsewhere !== null) return elsewhere;
  }
  throw new SessionNotFoundError(id, matches.map((file) => file.id).sort());
}

/** A whole session id: 26 characters of lowercase Crockford base32. */
const FULL_ID_REGEXP = /^[0-9a-hjkmnp-tv-z]{26}$/;

/** The file of session `id` in whichever workspace folder holds it, or null. */
async function findInAnyWorkspace(sessionsDir: string, id: string): Promise<SessionFile | null> {
  try {
    for await (const folder of Deno.readDir(sessionsDir)) {
      if (!folder.isDirectory) continue;
      const path = join(sessionsDir, folder.name, `${id}${SESSION_FILE_SUFFIX}`);
      const info = await Deno.stat(path).catch(() => null);
      if (info?.isFile) return { id, path, mtimeMs: info.mtime?.getTime() ?? 0 };
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return null;
}

/** How many sessions the workspace `workdir` has. */
export async function countSessions(sessionsDir: string, workdir: string): Promise<number> {
  return (await sessionFiles(sessionsDir, workdir)).length;
}

/** How a workspace without sessions gets one, in the messages that say it has none. */
export const START_HINT = 'rienda run "PROMPT" starts one';

/**
 * The folders above `workdir` up to its project root (the nearest folder
 * upward holding `.git`) that have sessions, nearest first; none when
 * `workdir` is not inside a git project.
 */
export async function sessionsAbove(
  sessionsDir: string,
  workdir: string,
): Promise<{ dir: string; count: number }[]> {
  const root = await findProjectRoot(workdir);
  const found: { dir: string; count: number }[] = [];
  for (let dir = workdir; dir !== root;) {
    dir = dirname(dir);
    const count = await countSessions(sessionsDir, dir);
    if (count > 0) found.push({ dir, count });
  }
  return found;
}

/**
 * The error of `-c` in a workspace without sessions: how to start one and,
 * in a subfolder of a project, where its nearest sessions are (`rerun` is
 * the command that continues them: `rienda run` or `rienda`).
 */
export async function noSessionMessage(
  sessionsDir: string,
  workdir: string,
  rerun: string,
): Promise<string> {
  const [nearest] = await sessionsAbove(sessionsDir, workdir);
  const where = nearest === undefined
    ? ""
    : `; the project has ${nearest.count} session${nearest.count === 1 ? "" : "s"} in ` +
      `${nearest.dir}: ${rerun} -C ${nearest.dir} -c`;
  return `no session to continue in ${workdir} (${START_HINT})${where}`;
}

/**
 * Deletes a session file (and the lock file beside it), holding its lock meanwhile.
 *
 * @throws {SessionLockedError} when a live process is writing the session
 */
export async function removeSession(session: Pick<SessionSummary, "id" | "path">): Promise<void> {
  const lock = await acquireSessionLock(session.path, session.id);
  try {
    await Deno.remove(session.path);
  } finally {
    await lock.release();
  }
}

/** The first prompt folded to one line and cut at {@link MAX_TITLE_CHARS} characters. */
export function titleFromPrompt(prompt: string): string {
  const folded = prompt.replace(WHITESPACE_REGEXP, " ").trim();
  return Array.from(folded).slice(0, MAX_TITLE_CHARS).join("");
}

/** A session file found in a workspace's folder. */
export interface SessionFile {
  readonly id: string;
  readonly path: string;
  /** When the file last changed (ms since the epoch). */
  readonly mtimeMs: number;
}

async function sessionFiles(sessionsDir: string, workdir: string): Promise<SessionFile[]> {
  const dir = await projectDir(sessionsDir, workdir);
  const names: string[] = [];
  try {
    for await (const item of Deno.readDir(dir)) {
      if (item.isFile && item.name.endsWith(SESSION_FILE_SUFFIX)) names.push(item.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return await Promise.all(names.map(async (name) => {
    const path = join(dir, name);
    const info = await Deno.stat(path);
    return {
      id: name.slice(0, -SESSION_FILE_SUFFIX.length),
      path,
      mtimeMs: info.mtime?.getTime() ?? 0,
    };
  }));
}

function sortNewestFirst(files: SessionFile[]): void {
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

async function summarise(file: SessionFile): Promise<SessionSummary> {
  const base = { id: file.id, path: file.path, updatedAt: new Date(file.mtimeMs).toISOString() };
  const lines = (await Deno.readTextFile(file.path)).split("\n");
  let header: HeaderEntry;
  try {
    header = parseHeader(JSON.parse(lines[0] ?? ""));
  } catch (error) {
    const problem = `invalid header: ${errorMessage(error)}`;
    return { ...base, agent: "", model: "", createdAt: "", title: "", problem };
  }
  const { agent, model, createdAt, parentSession, parentCall } = header;
  const { failed, stopped } = endOf(lines);
  return {
    ...base,
    agent,
    model,
    createdAt,
    title: titleOf(lines),
    ...(failed === undefined ? {} : { failed }),
    ...(stopped === undefined ? {} : { stopped }),
    ...(parentSession === undefined ? {} : { parentSession }),
    ...(parentCall === undefined ? {} : { parentCall }),
  };
}

/**
 * How the last run ended, from the last entry (a torn or empty last line
 * passed over): the error of a `failure`, or the reason of a `hook_stop`.
 */
function endOf(lines: readonly string[]): { failed?: string; stopped?: string } {
  for (let index = lines.length - 1; index > 0; index--) {
    const entry = entryOrNull(lines[index] ?? "");
    if (entry === null) continue;
    if (entry.kind === "failure") return { failed: entry.error };
    return entry.kind === "hook_stop" ? { stopped: entry.reason } : {};
  }
  return {};
}

/** The last `title` entry, else the first prompt; lines that do not parse are passed over. */
function titleOf(lines: readonly string[]): string {
  let title = "";
  let prompt: string | null = null;
  for (const line of lines.slice(1)) {
    // Cheap filters first: most lines are neither titles nor the first prompt.
    const maybeTitle = line.includes('"title"');
    if (!maybeTitle && (prompt !== null || !line.includes('"user"'))) continue;
    const entry = entryOrNull(line);
    if (entry?.kind === "title" && entry.title.trim() !== "") title = entry.title;
    if (prompt === null && entry?.kind === "message" && entry.role === "user") {
      const text = entry.blocks.map((block) => block.type === "text" ? block.text : "").join("");
      if (text.trim() !== "") prompt = text;
    }
  }
  return title !== "" ? title : titleFromPrompt(prompt ?? "");
}

function entryOrNull(line: string) {
  try {
    return parseEntry(JSON.parse(line));
  } catch {
    return null;
  }
}
