/**
 * One writer per session file: an exclusive OS file lock (`flock` on Unix,
 * `LockFileEx` on Windows) on `<file>.lock` beside it, which the kernel
 * releases when its holder exits, however it exits. The holder writes its pid
 * into the file, for the message that refuses a second writer only.
 *
 * @module
 */

/** A held session lock; `release()` removes the lock file and unlocks it (safe to call twice). */
export interface SessionLock {
  readonly path: string;
  release(): Promise<void>;
}

/** Another live process holds the session. */
export class SessionLockedError extends Error {
  /** The holder's pid, or null when the lock file does not name one yet. */
  readonly pid: number | null;

  constructor(sessionId: string, pid: number | null) {
    super(
      `session ${sessionId} is in use by another rienda process` +
        (pid === null ? "" : ` (pid ${pid})`) + "; wait for it to finish or stop it",
    );
    this.name = "SessionLockedError";
    this.pid = pid;
  }
}

/** A lock file removed by its holder between our open and our lock is opened again this often. */
const MAX_ATTEMPTS = 5;
const PID_REGEXP = /^\s*(\d+)\s*$/;
/** More than any pid's digits and a newline. */
const PID_BYTES = 32;

/** The lock file path of a session file. */
export function lockPathOf(sessionFile: string): string {
  return `${sessionFile}.lock`;
}

/**
 * Takes the lock of `sessionFile` for this process (a second take from the
 * same process is refused too: each take is its own open file).
 *
 * @throws {SessionLockedError} when another holder has it
 */
export async function acquireSessionLock(
  sessionFile: string,
  sessionId: string,
): Promise<SessionLock> {
  const path = lockPathOf(sessionFile);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    await refuseNonFile(path);
    const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
    let kept = false;
    try {
      if (!(await file.tryLock(true))) {
        throw new SessionLockedError(sessionId, await pidIn(file));
      }
      // A holder that released meanwhile removed the file we opened: lock the one now at `path`.
      if (!(await isFileAt(file, path))) continue;
      await file.truncate(0);
      await writeAll(file, new TextEncoder().encode(`${Deno.pid}\n`));
      kept = true;
      return { path, release: releaseOnce(file, path) };
    } finally {
      if (!kept) file.close();
    }
  }
  throw new SessionLockedError(sessionId, null);
}

/** A symlink planted as the lock would have its target truncated: refused, naming it. */
async function refuseNonFile(path: string): Promise<void> {
  const info = await Deno.lstat(path).catch((error: unknown) => {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  });
  if (info !== null && !info.isFile) {
    throw new Error(`${path} is not a regular file (a session lock is); remove it`);
  }
}

function releaseOnce(file: Deno.FsFile, path: string): () => Promise<void> {
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    try {
      // Removed while still locked, so no one can lock the old file and believe it current.
      if (await isFileAt(file, path)) await Deno.remove(path).catch(ignoreNotFound);
    } finally {
      file.close();
    }
  };
}

/** Whether `path` still names the open `file` (same device and inode; always true where unknown). */
async function isFileAt(file: Deno.FsFile, path: string): Promise<boolean> {
  const [open, named] = await Promise.all([
    file.stat(),
    Deno.stat(path).catch((error: unknown) => {
      if (error instanceof Deno.errors.NotFound) return null;
      throw error;
    }),
  ]);
  if (named === null) return false;
  return open.ino === null || named.ino === null ||
    (open.ino === named.ino && open.dev === named.dev);
}

/** The pid a holder wrote into the lock file, or null (still being written, or unreadable). */
async function pidIn(file: Deno.FsFile): Promise<number | null> {
  try {
    await file.seek(0, Deno.SeekMode.Start);
    const buffer = new Uint8Array(PID_BYTES);
    const read = await file.read(buffer);
    const match = PID_REGEXP.exec(new TextDecoder().decode(buffer.subarray(0, read ?? 0)));
    const pid = match ? Number(match[1]) : NaN;
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await file.write(bytes.subarray(written));
  }
}

function ignoreNotFound(error: unknown): void {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
}
