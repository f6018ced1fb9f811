/**
 * Appends entries to a session file, one whole line per write, under the
 * session's lock. A new session's file (and its folders) appear on the first
 * append, so a run that fails before its first request writes nothing.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import type { Message } from "../llm/messages.ts";
import {
  type HeaderEntry,
  type KnownEntry,
  type NewEntry,
  SESSION_FORMAT_VERSION,
  toMessageFields,
} from "./entries.ts";
import { activeLeafId } from "./history.ts";
import { newEntryId } from "./ids.ts";
import { acquireSessionLock, type SessionLock, SessionLockedError } from "./lock.ts";
import { projectDir } from "./project.ts";
import { readSessionFile, type SessionData, SessionFileError } from "./reader.ts";
import { errorMessage } from "../base/unknown.ts";

/**
 * A session writer bound to one file; close it to release the session's lock.
 * Appends run in call order, each as one whole line.
 */
export interface SessionFileWriter extends AsyncDisposable {
  /** The session id. */
  readonly id: string;
  /** The session file, which may not exist before the first append. */
  readonly path: string;
  /** The id the next entry will follow ("" before the first entry). */
  readonly leafId: string;
  /** Appends one message as one entry (its id is then `leafId`). */
  append(message: Message): Promise<void>;
  /**
   * Appends any entry (a message via `toMessageFields`, compaction, switch,
   * leaf, title, tool start) and returns its id.
   */
  appendEntry(entry: NewEntry): Promise<string>;
  /** Waits for pending appends, closes the file and releases the lock (idempotent). */
  close(): Promise<void>;
}

/** Options of {@link createSessionWriter}. */
export interface CreateSessionWriterOptions {
  /** The `sessions/` folder of the rienda home. */
  readonly sessionsDir: string;
  /** The absolute workspace path: picks the project folder and goes in the header. */
  readonly workdir: string;
  /** The new session's id (see `newSessionId`). */
  readonly id: string;
  /** The agent id, for the header. */
  readonly agent: string;
  /** The absolute path of the agent file (`-f FILE`), for the header. */
  readonly agentFile?: string | undefined;
  /** The `provider/model` reference, for the header. */
  readonly model: string;
  /** A subagent's parent session and `agent` call, for the header. */
  readonly parent?: { readonly sessionId: string; readonly callId: string } | undefined;
  /** The clock of `createdAt` fields. @default () => new Date() */
  readonly now?: () => Date;
}

/** Options of {@link openSession}. */
export interface OpenSessionOptions {
  /** The clock of `createdAt` fields. @default () => new Date() */
  readonly now?: () => Date;
}

/** The file of session `id` of `workdir` under `sessionsDir`. */
export async function sessionPath(
  sessionsDir: string,
  workdir: string,
  id: string,
): Promise<string> {
  return join(await projectDir(sessionsDir, workdir), `${id}.jsonl`);
}

/** A writer for a new session; nothing touches the disk before the first append. */
export async function createSessionWriter(
  options: CreateSessionWriterOptions,
): Promise<SessionFileWriter> {
  const { sessionsDir, workdir, id, agent, agentFile, model, parent, now = () => new Date() } =
    options;
  const path = await sessionPath(sessionsDir, workdir, id);
  return createWriter({
    id,
    path,
    now,
    leafId: "",
    taken: new Set(),
    open: async () => {
      await ensurePrivateDir(dirname(path));
      const lock = await acquireSessionLock(path, id);
      try {
        const file = await Deno.open(path, { append: true, createNew: true, mode: 0o600 });
        await restrictMode(path, 0o600);
        const header: HeaderEntry = {
          kind: "header",
          version: SESSION_FORMAT_VERSION,
          id,
          createdAt: now().toISOString(),
          agent,
          ...(agentFile === undefined ? {} : { agentFile }),
          model,
          workdir,
          ...(parent === undefined
            ? {}
            : { parentSession: parent.sessionId, parentCall: parent.callId }),
        };
        return { file, lock, size: 0, prefix: `${JSON.stringify(header)}\n` };
      } catch (error) {
        await lock.release();
        throw error;
      }
    },
  });
}

/**
 * Locks the session file at `path`, then reads it and opens it for appending:
 * no other process can write between the read and the first append.
 *
 * @throws {SessionLockedError} when another live process writes the session
 * @throws {SessionFileError} when the file cannot be read as a session
 */
export async function openSession(
  path: string,
  options: OpenSessionOptions = {},
): Promise<{ data: SessionData; writer: SessionFileWriter }> {
  const lock = await acquireSessionLock(path, basename(path, ".jsonl"));
  try {
    const data = await readSessionFile(path);
    return { data, writer: await writerOver(path, data, lock, options) };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function writerOver(
  path: string,
  session: SessionData,
  lock: SessionLock,
  options: OpenSessionOptions,
): Promise<SessionFileWriter> {
  const { now = () => new Date() } = options;
  const { fileBytes, keptBytes, missingNewline } = session.end;
  const file = await Deno.open(path, { append: true });
  try {
    const size = (await file.stat()).size;
    if (size !== fileBytes) {
      throw new SessionFileError(
        path,
        null,
        "the file changed while it was being opened (another process wrote to it): try again",
      );
    }
    // A torn last line (a crash mid-write) would become a corrupt middle line.
    if (keptBytes < fileBytes) await file.truncate(keptBytes);
  } catch (error) {
    file.close();
    throw error;
  }
  const taken = new Set<string>();
  for (const entry of session.entries) if (entry.id !== null) taken.add(entry.id);
  return createWriter({
    id: session.header.id,
    path,
    now,
    leafId: activeLeafId(session.entries),
    taken,
    open: { file, lock, size: keptBytes, prefix: missingNewline ? "\n" : "" },
  });
}

/** An open file, its lock, its size, and text to write before the next entry. */
interface OpenFile {
  readonly file: Deno.FsFile;
  readonly lock: SessionLock;
  size: number;
  prefix: string;
}

interface WriterState {
  readonly id: string;
  readonly path: string;
  readonly now: () => Date;
  readonly leafId: string;
  readonly taken: Set<string>;
  /** The open file, or how to open it on the first append. */
  readonly open: OpenFile | (() => Promise<OpenFile>);
}

function createWriter(state: WriterState): SessionFileWriter {
  const { id, path, now, taken } = state;
  const encoder = new TextEncoder();
  let leafId = state.leafId;
  let opened: OpenFile | null = typeof state.open === "function" ? null : state.open;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();

  // Appends run one after another so lines never interleave and parents chain.
  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    if (closed) {
      return Promise.reject(new Error(`session ${id}: cannot append after the writer was closed`));
    }
    const result = queue.then(task);
    queue = result.catch(() => {});
    return result;
  }

  async function write(entry: NewEntry): Promise<string> {
    if (opened === null && typeof state.open === "function") opened = await openFirst(state.open);
    if (opened === null) throw new Error(`session ${id}: the file is not open`);
    const entryId = newEntryId(taken);
    const createdAt = now().toISOString();
    const base = { id: entryId, parentId: leafId, createdAt };
    const full: KnownEntry = { ...entry, ...base };
    // Key order as in the spec: kind, id, parentId, createdAt, then the fields.
    const line = `${opened.prefix}${
      JSON.stringify(Object.assign({ kind: entry.kind }, base, entry, base))
    }\n`;
    const bytes = encoder.encode(line);
    try {
      let written = 0;
      while (written < bytes.length) written += await opened.file.write(bytes.subarray(written));
    } catch (error) {
      taken.delete(full.id);
      // Cut back a partial line so the file stays a list of whole entries.
      await opened.file.truncate(opened.size).catch(() => {});
      throw new Error(`session ${id}: cannot write ${path}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    opened.size += bytes.length;
    opened.prefix = "";
    leafId = full.kind === "leaf" ? full.targetId : full.id;
    return full.id;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await queue;
    if (opened === null) return;
    opened.file.close();
    await opened.lock.release();
  }

  return {
    id,
    path,
    get leafId() {
      return leafId;
    },
    append: async (message) => {
      await enqueue(() => write(toMessageFields(message)));
    },
    appendEntry: (entry) => enqueue(() => write(entry)),
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function openFirst(open: () => Promise<OpenFile>): Promise<OpenFile> {
  try {
    return await open();
  } catch (error) {
    if (error instanceof SessionLockedError) throw error;
    throw new Error(`cannot create the session file: ${errorMessage(error)}`, { cause: error });
  }
}

/** Creates `dir` (and missing parents) with mode 0700, enforced despite the umask. */
async function ensurePrivateDir(dir: string): Promise<void> {
  try {
    await Deno.mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return;
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    await ensurePrivateDir(dirname(dir));
    return await ensurePrivateDir(dir);
  }
  await restrictMode(dir, 0o700);
}

async function restrictMode(path: string, mode: number): Promise<void> {
  if (Deno.build.os !== "windows") await Deno.chmod(path, mode);
}
