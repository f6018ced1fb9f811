/**
 * The session as one run sees it: the engine's `SessionWriter` over a
 * session file (or over nothing, for `--no-session`), which
 *
 * - writes entries decided before the run (switches, results for calls a
 *   crash left open) just before the run's first message, so a run that
 *   fails before its first request writes nothing;
 * - continues the session `-s` / `-c` locked ({@link openRunSession}), or
 *   starts a new one;
 * - remembers the entry id of every message of the conversation, so a
 *   compaction can name the first message it keeps (`keptId`).
 *
 * @module
 */

import type { CompactionRecord } from "../engine/compaction.ts";
import type { SessionWriter } from "../engine/session_writer.ts";
import type { Message } from "../llm/messages.ts";
import { type NewEntry, toMessageFields } from "../sessions/entries.ts";
import { createSessionWriter, type SessionFileWriter } from "../sessions/writer.ts";
import { titleFromPrompt } from "../sessions/catalog.ts";
import { continuation, type ContinuedSession, type SwitchChoice } from "./continue_session.ts";

/** A run's session: appends messages, records compactions, and closes. */
export interface RunSession extends SessionWriter, AsyncDisposable {
  /** Stores a compaction entry naming the first kept message. */
  recordCompaction(compaction: CompactionRecord): Promise<void>;
  /**
   * Marks the session as ended by `error` (a `failure` entry); nothing when
   * nothing is stored yet: a run that failed before its first request leaves no file.
   */
  recordFailure(error: string): Promise<void>;
  /**
   * Records a hook's refusal of a tool call, written just before the next
   * entry (the call's result); nothing for `--no-session`.
   */
  recordHookDenial(denial: HookDenial): void;
}

/** A refusal by a hook, as a `hook_denial` entry records it. */
export type HookDenial = Omit<Extract<NewEntry, { kind: "hook_denial" }>, "kind">;

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
    async hookStopped({ point, hook, reason, callId }) {
      if (writer === null) return;
      await flush();
      await writer.appendEntry({
        kind: "hook_stop",
        point,
        hook,
        reason,
        ...(callId === undefined ? {} : { callId }),
      });
    },
    recordHookDenial(denial) {
      if (writer === null) return;
      pending = [...pending, { kind: "hook_denial", ...denial }];
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

/** What {@link openRunSession} starts a run's session from. */
export interface RunSessionInputs {
  readonly sessionsDir: string;
  readonly workdir: string;
  /** The continued session's id, or the new session's. */
  readonly sessionId: string;
  /** The session `-s` / `-c` locked and read; null for a new one. */
  readonly continued: ContinuedSession | null;
  /** The agent (its file, when given as one), model and reasoning level the run uses. */
  readonly chosen: SwitchChoice;
  /** `--no-session`: nothing is stored. */
  readonly noSession: boolean;
  /** A new session's title, when its first prompt would make a poor one. */
  readonly title?: string | undefined;
  /** A subagent's parent session and `agent` call, for a new session's header. */
  readonly parent?: { readonly sessionId: string; readonly callId: string } | undefined;
}

/** A run's session and the conversation it continues. */
export interface OpenedRunSession {
  readonly session: RunSession;
  /** The branch's messages to send before the prompt (empty for a new session). */
  readonly history: Message[];
  /** The branch's last compaction summary, when there is one. */
  readonly summary: string | undefined;
}

/**
 * The session of a run: the continued one, with the switches and repairs it
 * appends before the prompt, or a new one (written from its first message).
 */
export async function openRunSession(inputs: RunSessionInputs): Promise<OpenedRunSession> {
  const { continued, chosen } = inputs;
  const resumed = continued === null ? null : continuation(continued, chosen);
  const writer = continued?.writer ?? (inputs.noSession ? null : await createSessionWriter({
    sessionsDir: inputs.sessionsDir,
    workdir: inputs.workdir,
    id: inputs.sessionId,
    agent: chosen.agent,
    agentFile: chosen.agentFile ?? undefined,
    model: chosen.model,
    parent: inputs.parent,
  }));
  const session = bindRunSession(writer, {
    historyIds: resumed?.historyIds ?? [],
    pending: resumed?.pending ??
      (inputs.title === undefined ? [] : [{ kind: "title", title: titleFromPrompt(inputs.title) }]),
  });
  return { session, history: resumed?.history ?? [], summary: resumed?.summary };
}
