/**
 * One writer per session file: a `<file>.lock` beside it, created exclusively
 * and holding the writer's pid and the start time of that process. A lock
 * whose process is gone, or whose pid now belongs to a process started at
 * another time (a reused pid), is stale and taken over; a live one refuses
 * the second writer.
 *
 * @module
 */

import process from "node:process";

/** A held session lock; `release()` removes it (safe to call twice). */
export interface SessionLock {
  readonly path: string;
  release(): Promise<void>;
}

/** Another live process holds the session. */
export class SessionLockedError extends Error {
  /** The holder's pid, or null when the lock file does not name one yet. */
  readonly pid: number | null;
  readonly lockPath: string;

  constructor(sessionId: string, pid: number | null, lockPath: string) {
    super(
      `session ${sessionId} is in use by another rienda process` +
        (pid === null ? "" : ` (pid ${pid})`) +
        `; if no rienda process is running it, remove ${lockPath}`,
    );
    this.name = "SessionLockedError";
    this.pid = pid;
    this.lockPath = lockPath;
  }
}

/** A lock file without a pid younger than this may be mid-creation. */
const UNNAMED_LOCK_GRACE_MS = 5_000;
const MAX_ATTEMPTS = 5;
/** `<pid>` or `<pid> <start>` (older locks have no start). */
const LOCK_REGEXP = /^\s*(\d+)(?:[ \t]+(\S+))?\s*$/;

// Locks this process holds: a lock naming our own pid that is not here was
// left by an earlier process that had the same pid (containers reuse pids).
const held = new Set<string>();

/** The lock file path of a session file. */
export function lockPathOf(sessionFile: string): string {
  return `${sessionFile}.lock`;
}

/**
 * Takes the lock of `sessionFile` for this process.
 *
 * @throws {SessionLockedError} when a live process holds it
 */
export async function acquireSessionLock(
  sessionFile: string,
  sessionId: string,
): Promise<SessionLock> {
  const path = lockPathOf(sessionFile);
  const start = await ownStart();
  const content = start === null ? `${Deno.pid}\n` : `${Deno.pid} ${start}\n`;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await createExclusive(path, content)) {
      held.add(path);
      return { path, release: () => release(path, content) };
    }
    const found = await readLock(path);
    if (found === null) continue; // released meanwhile: try again
    const holder = holderOf(found.text);
    if (holder === null && Date.now() - found.mtimeMs < UNNAMED_LOCK_GRACE_MS) {
      throw new SessionLockedError(sessionId, null, path);
    }
    if (holder !== null && (await holderAlive(holder, path))) {
      throw new SessionLockedError(sessionId, holder.pid, path);
    }
    await removeIfUnchanged(path, found.text);
  }
  throw new SessionLockedError(sessionId, null, path);
}

/**
 * Who holds the lock of `sessionFile` when a live process other than this one
 * does (`pid` null: a lock still being written), else null.
 */
export async function findLockHolder(
  sessionFile: string,
): Promise<{ readonly pid: number | null } | null> {
  const path = lockPathOf(sessionFile);
  const found = await readLock(path);
  if (found === null) return null;
  const holder = holderOf(found.text);
  if (holder === null) {
    return Date.now() - found.mtimeMs < UNNAMED_LOCK_GRACE_MS ? { pid: null } : null;
  }
  return holder.pid !== Deno.pid && (await holderAlive(holder, path)) ? { pid: holder.pid } : null;
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
  try {
    await file.write(new TextEncoder().encode(content));
  } finally {
    file.close();
  }
  return true;
}

async function readLock(path: string): Promise<{ text: string; mtimeMs: number } | null> {
  try {
    const [text, info] = await Promise.all([Deno.readTextFile(path), Deno.stat(path)]);
    return { text, mtimeMs: info.mtime?.getTime() ?? 0 };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** The process a lock names: its pid and, in locks written since start times were kept, its start. */
interface Holder {
  readonly pid: number;
  readonly start: string | undefined;
}

function holderOf(text: string): Holder | null {
  const match = LOCK_REGEXP.exec(text);
  const pid = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, start: match?.[2] } : null;
}

/**
 * Whether the holder still runs: its pid is alive and, when the lock records
 * a start time, the process with that pid started then (else the pid was
 * reused by an unrelated process). A start that cannot be read counts as the same.
 */
async function holderAlive(holder: Holder, path: string): Promise<boolean> {
  if (holder.pid === Deno.pid) return held.has(path);
  if (!(await isProcessAlive(holder.pid))) return false;
  if (holder.start === undefined) return true;
  const start = await processStart(holder.pid);
  return start === null || start === holder.start;
}

let ownStartRead: Promise<string | null> | undefined;

/**
 * This process's start, read once (a `sh` spawn, about 1 ms): call it early
 * (a new session's writer does) so the first lock does not wait for it.
 */
export function ownStart(): Promise<string | null> {
  return ownStartRead ??= processStart(Deno.pid);
}

/**
 * When process `pid` started, as an opaque token without spaces: on Linux
 * the start time in clock ticks since boot (`/proc/<pid>/stat`, field 22),
 * elsewhere `ps -o lstart=`; null when it cannot be told. Read through `sh`
 * (the only program the binary may run; Deno refuses `/proc/<pid>/stat`
 * without full access).
 */
export async function processStart(pid: number): Promise<string | null> {
  try {
    const { code, stdout } = await new Deno.Command("sh", {
      args: ["-c", START_SCRIPT, "sh", String(pid)],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    const start = new TextDecoder().decode(stdout).trim().replace(/\s+/g, "_");
    return code === 0 && start !== "" ? start : null;
  } catch {
    return null;
  }
}

// The command name (field 2) is in parentheses and may hold spaces: the fields are counted after it.
const START_SCRIPT = 'if [ -r "/proc/$1/stat" ]; then read -r l < "/proc/$1/stat" || exit 1; ' +
  'l=${l##*) }; set -f; set -- $l; shift 19 || exit 1; printf "%s" "$1"; ' +
  'else ps -o lstart= -p "$1"; fi';

async function removeIfUnchanged(path: string, text: string): Promise<void> {
  // Re-read just before removing so a lock another process took over in the
  // meantime is left alone.
  const again = await readLock(path);
  if (again === null || again.text !== text) return;
  await removeQuietly(path);
}

async function release(path: string, content: string): Promise<void> {
  if (!held.delete(path)) return;
  const found = await readLock(path);
  if (found !== null && found.text === content) await removeQuietly(path);
}

async function removeQuietly(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Whether process `pid` exists. Uses `/proc` on Linux, else a signal-0
 * probe; when neither is permitted, asks `sh` (the only program the binary
 * may run). Unknown counts as alive, so a lock is never stolen by mistake.
 */
export async function isProcessAlive(pid: number): Promise<boolean> {
  if (Deno.build.os === "linux") {
    const proc = await pathExists(`/proc/${pid}`);
    if (proc === true) return true;
    if (proc === false && (await pathExists("/proc/self")) === true) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "ESRCH") return false;
    if (code === "EPERM") return true;
  }
  return await probeWithShell(pid);
}

async function probeWithShell(pid: number): Promise<boolean> {
  const script = 'kill -0 "$1" 2>/dev/null && exit 0; ' +
    'command -v ps >/dev/null 2>&1 || exit 2; ps -p "$1" >/dev/null 2>&1 && exit 0; exit 1';
  try {
    const { code } = await new Deno.Command("sh", {
      args: ["-c", script, "sh", String(pid)],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return code !== 1;
  } catch {
    return true;
  }
}

/** Whether `path` exists; null when that cannot be told (no permission). */
async function pathExists(path: string): Promise<boolean | null> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? false : null;
  }
}
