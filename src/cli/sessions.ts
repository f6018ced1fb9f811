/**
 * `rienda sessions [list] | show ID | rm ID`: the stored sessions of a
 * workspace, newest first; one transcript as readable text; removal.
 *
 * @module
 */

import { resolve } from "node:path";
import { resolvePaths } from "../config/paths.ts";
import {
  findSessionFile,
  listSessions,
  removeSession,
  sessionsAbove,
  type SessionSummary,
  START_HINT,
} from "../sessions/catalog.ts";
import { readSessionFile } from "../sessions/reader.ts";
import { shortIds } from "../sessions/short_ids.ts";
import { formatTranscript } from "../sessions/transcript.ts";
import { nestSessions } from "../sessions/session_tree.ts";
import type { Io } from "../ui/io.ts";
import { EXIT } from "./exit.ts";

/** The flags every `sessions` command takes. */
export interface SessionsFlags {
  /** `-C DIR`: the workspace (default: the current directory). */
  readonly workdir: string | undefined;
}

/** `rienda sessions [list]`: one line per session, newest first. */
export async function sessionsList(io: Io, flags: SessionsFlags): Promise<number> {
  const { sessionsDir, workdir } = await locate(io, flags);
  const sessions = await listSessions(sessionsDir, workdir);
  if (sessions.length === 0) {
    io.stderr.write(`no sessions in ${workdir} (${START_HINT})\n`);
    for (const { dir, count } of await sessionsAbove(sessionsDir, workdir)) {
      const noun = count === 1 ? "session" : "sessions";
      io.stderr.write(`the project has ${count} ${noun} in ${dir}: rienda sessions -C ${dir}\n`);
    }
    return EXIT.ok;
  }
  io.stdout.write(formatSessionList(sessions, Date.now()));
  return EXIT.ok;
}

/** `rienda sessions show ID`: the transcript of one session. */
export async function sessionsShow(io: Io, id: string, flags: SessionsFlags): Promise<number> {
  const { sessionsDir, workdir } = await locate(io, flags);
  const session = await findSessionFile(sessionsDir, workdir, id);
  const data = await readSessionFile(session.path);
  for (const warning of data.warnings) io.stderr.write(`${warning}\n`);
  const { header } = data;
  const parent = header.parentSession === undefined
    ? ""
    : `subagent of session ${header.parentSession} (call ${header.parentCall ?? "?"})\n`;
  const children = (await listSessions(sessionsDir, header.workdir))
    .filter((child) => child.parentSession === header.id)
    .sort((a, b) => a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);
  io.stdout.write(parent + formatTranscript(data) + subagentsSection(children));
  return EXIT.ok;
}

/** The sessions of a session's subagents, one line each (none: nothing). */
function subagentsSection(children: readonly SessionSummary[]): string {
  if (children.length === 0) return "";
  const lines = children.map((child) =>
    `${child.id}  ${child.agent}  ${child.parentCall ?? "?"}  ${child.title}`.trimEnd()
  );
  return `\n── subagents (rienda sessions show ID) ──\n${lines.join("\n")}\n`;
}

/** `rienda sessions rm ID`: deletes one session file. */
export async function sessionsRemove(io: Io, id: string, flags: SessionsFlags): Promise<number> {
  const { sessionsDir, workdir } = await locate(io, flags);
  const session = await findSessionFile(sessionsDir, workdir, id);
  await removeSession(session);
  io.stdout.write(`removed session ${session.id}\n`);
  return EXIT.ok;
}

/** `(failed) ` or `(stopped) ` before the title of a session whose last run ended so. */
function endMark(session: SessionSummary): string {
  if (session.failed !== undefined) return "(failed) ";
  return session.stopped === undefined ? "" : "(stopped) ";
}

/**
 * The session list: short id (`short_ids.ts`), agent, model, age and title in
 * aligned columns; a subagent's session under its parent's, its title after `↳ `.
 *
 * @example
 * ```ts
 * formatSessionList([{ id: "01k5", path: "", agent: "coder", model: "fake/m", createdAt: "",
 *   updatedAt: "2026-01-01T00:00:00.000Z", title: "hi" }], Date.parse("2026-01-01T00:03:00Z"));
 * // "01k5  coder  fake/m  3m ago  hi\n"
 * ```
 */
export function formatSessionList(sessions: readonly SessionSummary[], nowMs: number): string {
  const shorts = shortIds(sessions.map((session) => session.id));
  const rows = nestSessions(sessions).map(({ session, depth, orphan }) =>
    session.problem === undefined
      ? [
        shorts.get(session.id) ?? session.id,
        session.agent,
        session.model,
        formatAge(Date.parse(session.updatedAt), nowMs),
        subagentMark(session, depth, orphan) +
        endMark(session) + session.title,
      ]
      : [
        shorts.get(session.id) ?? session.id,
        "?",
        "?",
        formatAge(Date.parse(session.updatedAt), nowMs),
        `(${session.problem})`,
      ]
  );
  const widths = [0, 1, 2, 3].map((column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0))
  );
  return rows.map((row) =>
    row.map((cell, column) => column < 4 ? cell.padEnd(widths[column] ?? 0) : cell).join("  ")
      .trimEnd()
  ).join("\n") + "\n";
}

/** `↳ ` before a subagent's title, indented by its depth; an orphan names its parent. */
function subagentMark(session: SessionSummary, depth: number, orphan: boolean): string {
  if (orphan) return `(subagent of ${session.parentSession}) `;
  return depth === 0 ? "" : `${"  ".repeat(depth - 1)}↳ `;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long ago `thenMs` was: `just now`, `42s ago`, `3m ago`, `5h ago`,
 * `12d ago`, then the date (`2026-01-31`).
 */
export function formatAge(thenMs: number, nowMs: number): string {
  if (!Number.isFinite(thenMs)) return "?";
  const elapsed = Math.max(0, nowMs - thenMs);
  if (elapsed < 5_000) return "just now";
  if (elapsed < MINUTE_MS) return `${Math.floor(elapsed / 1000)}s ago`;
  if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)}m ago`;
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)}h ago`;
  if (elapsed < 30 * DAY_MS) return `${Math.floor(elapsed / DAY_MS)}d ago`;
  return new Date(thenMs).toISOString().slice(0, 10);
}

async function locate(io: Io, flags: SessionsFlags): Promise<{
  sessionsDir: string;
  workdir: string;
}> {
  const { sessionsDir } = resolvePaths(io.env, { cwd: io.cwd });
  const workdir = resolve(io.cwd, flags.workdir ?? ".");
  const info = await Deno.stat(workdir).catch(() => null);
  if (info === null || !info.isDirectory) {
    throw new Error(`workdir ${workdir} is not a directory: pass an existing directory with -C`);
  }
  return { sessionsDir, workdir };
}
