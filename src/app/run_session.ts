/**
 * The session as one run sees it: the engine's `SessionWriter` over a
 * session file (or over nothing, for `--no-session`), which
 *
 * - writes entries decided before the run (switches, results for calls a
 *   crash left open) just before the run's first message, so a run that
 *   fails before its first request writes nothing;
 * - remembers the entry id of every message of the conversation, so a
 *   compaction can name the first message it keeps (`keptId`).
 *
 * @module
 */

import type { CompactionRecord } from "../engine/compaction.ts";
import type { SessionWriter } from "../engine/session_writer.ts";
import type { Message } from "../llm/messages.ts";
import { type NewEntry, toMessageFields } from "../sessions/entries.ts";
import type { SessionFileWriter } from "../sessions/writer.ts";

/** A run's session: appends messages, records compactions, and closes. */
export interface RunSession extends SessionWriter, AsyncDisposable {
  /** Stores a compaction entry naming the first kept message. */
  recordCompaction(compaction: CompactionRecord): Promise<void>;
  /**
   * Marks the session as ended by `error` (a `failure` entry); nothing when
   * nothing is stored yet: a run that failed before its first request leaves no file.
   */
  recordFailure(error: string): Promise<void>;
}

/** Options of {@link bindRunSession}. */
export interface BindRunSessionOptions {
  /** The entry ids of the history the run starts from, in order. */
  readonly historyIds: readonly string[];
  /** Entries to write before the first message of the run, in order. */
  readonly pending: readonly NewEntry[];
}

/**
 * Binds a session file writer (null for `--no-session`) to a run.
 *
 * @throws {Error} from `recordCompaction` when `keptIndex` names no stored message
 */
export function bindRunSession(
  writer: SessionFileWriter | null,
  options: BindRunSessionOptions,
): RunSession {
  const ids = [...options.historyIds];
  let pending: readonly NewEntry[] = options.pending;

  async function flush(): Promise<void> {
    if (writer === null || pending.length === 0) return;
    const entries = pending;
    pending = [];
    for (const entry of entries) {
      const id = await writer.appendEntry(entry);
      if (entry.kind === "message") ids.push(id);
    }
  }

  return {
    async append(message: Message) {
      if (writer === null) return;
      await flush();
      ids.push(await writer.appendEntry(toMessageFields(message)));
    },
    async toolStarted(callId) {
      if (writer === null) return;
      await flush();
      await writer.appendEntry({ kind: "tool_start", callId });
    },
    async recordCompaction({ summary, keptIndex, tokensBefore }) {
      if (writer === null) return;
      await flush();
      const keptId = ids[keptIndex];
      if (keptId === undefined) {
        throw new Error(`no stored message at position ${keptIndex} to keep after the summary`);
      }
      await writer.appendEntry({ kind: "compaction", summary, keptId, tokensBefore });
    },
    async recordFailure(error) {
      if (writer === null || writer.leafId === "") return;
      await writer.appendEntry({ kind: "failure", error });
    },
    async [Symbol.asyncDispose]() {
      await writer?.close();
    },
  };
}
