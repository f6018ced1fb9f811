/**
 * Continuing a stored session (`rienda run -s ID` / `-c`): find it in the
 * workspace, lock it, read its active branch, and work out what the next run
 * appends before its prompt (switches, results for calls a crash left open).
 *
 * - The lock is taken before the file is read and held until the run's
 *   writer closes: a second writer is refused with a clear message.
 * - Nothing is written here: the entries to append wait for the run's first
 *   append (see `run_session.ts`), so a run refused before its first request
 *   leaves the file as it was.
 *
 * @module
 */

import { type AgentDefinition, AgentFileError, loadAgentFile } from "../agents/agent_file.ts";
import type { AgentSource } from "../agents/agent_sources.ts";
import { AgentNotFoundError, loadAgent } from "../agents/catalog.ts";
import { type Message, toolCallsOf, type UserMessage } from "../llm/messages.ts";
import { findSessionFile, latestSessionFile, noSessionMessage } from "../sessions/catalog.ts";
import { type NewEntry, toMessageFields } from "../sessions/entries.ts";
import { type BranchContext, branchContext } from "../sessions/history.ts";
import { openSession, type SessionFileWriter } from "../sessions/writer.ts";
import { projectDir } from "../sessions/project.ts";
import { dirname } from "node:path";
import { errorMessage } from "../base/unknown.ts";

/** Which session to continue: an id (or unique prefix), or the most recent one. */
export type SessionTarget =
  | { readonly kind: "id"; readonly id: string }
  | { readonly kind: "latest" };

/** A locked session, read and ready to be continued. */
export interface ContinuedSession {
  readonly id: string;
  readonly path: string;
  /**
   * The workspace the run works in: the one asked for, or the session's own
   * (its header's) when a full id found it in another workspace.
   */
  readonly workdir: string;
  /** Holds the session's lock; close it when the run ends or fails. */
  readonly writer: SessionFileWriter;
  /** The branch's messages (after its last compaction), summary, agent, model and thinking. */
  readonly branch: BranchContext;
  /** Problems that lost nothing, such as a skipped torn last line. */
  readonly warnings: readonly string[];
}

/** The result stored for a tool call that a crash left without one, before its tool started. */
export const UNANSWERED_CALL_RESULT = "the run ended before the tool ran";

/** The result stored for a tool call that a crash left without one while its tool ran. */
export const UNFINISHED_CALL_RESULT = "the run ended while the tool ran; it may have had effects";

/**
 * Finds, locks and reads the session to continue.
 *
 * @throws {Error} when the workspace has no session to continue, the id
 * matches none or several, another process writes the session, or the file
 * is not a valid session (naming the file and line)
 */
export async function openContinuedSession(
  sessionsDir: string,
  workdir: string,
  target: SessionTarget,
): Promise<ContinuedSession> {
  const file = target.kind === "id"
    ? await findSessionFile(sessionsDir, workdir, target.id)
    : await latestSessionFile(sessionsDir, workdir);
  if (file === null) throw new Error(await noSessionMessage(sessionsDir, workdir, "rienda run"));
  const { data, writer } = await openSession(file.path);
  const elsewhere = dirname(file.path) !== await projectDir(sessionsDir, workdir);
  if (elsewhere) {
    const info = await Deno.stat(data.header.workdir).catch(() => null);
    if (info === null || !info.isDirectory) {
      await writer.close();
      throw new Error(
        `session ${data.header.id} belongs to the workspace ${data.header.workdir}, which is no longer a directory`,
      );
    }
  }
  return {
    id: data.header.id,
    path: file.path,
    workdir: elsewhere ? data.header.workdir : workdir,
    writer,
    branch: branchContext(data),
    warnings: elsewhere
      ? [
        ...data.warnings,
        `session ${data.header.id} belongs to the workspace ${data.header.workdir}: the run works there`,
      ]
      : data.warnings,
  };
}

/**
 * The results to store for the tool calls of the branch's last message when
 * a crash left them without any (an interrupt always stores them itself):
 * {@link UNFINISHED_CALL_RESULT} for a call whose tool had started,
 * {@link UNANSWERED_CALL_RESULT} for the others; null when every call has
 * its result.
 */
export function unansweredCalls(branch: BranchContext): UserMessage | null {
  const last = branch.messages.at(-1);
  if (last === undefined || last.role !== "assistant") return null;
  const calls = toolCallsOf(last);
  if (calls.length === 0) return null;
  return {
    role: "user",
    blocks: calls.map((call) => ({
      type: "tool_result",
      callId: call.id,
      content: [{
        type: "text",
        text: branch.startedCalls.has(call.id) ? UNFINISHED_CALL_RESULT : UNANSWERED_CALL_RESULT,
      }],
      isError: true,
    })),
  };
}

/** What a continued run uses, and what the branch says. */
export interface SwitchChoice {
  readonly agent: string;
  /** The agent's file when it was given with `-f FILE` (absolute), else null. */
  readonly agentFile: string | null;
  readonly model: string;
  /** The reasoning level, or null for off. */
  readonly thinking: string | null;
}

/**
 * The switch entries that make the branch continue with `chosen`: one per
 * value that differs from the branch's current one, agent first.
 *
 * @example
 * ```ts
 * switchEntries(
 *   { agent: "coder", agentFile: null, model: "openai/gpt-4o", thinking: null },
 *   { agent: "coder", agentFile: null, model: "anthropic/claude-sonnet-4-5", thinking: null },
 * ); // [{ kind: "model", model: "anthropic/claude-sonnet-4-5" }]
 * ```
 */
export function switchEntries(current: SwitchChoice, chosen: SwitchChoice): NewEntry[] {
  const entries: NewEntry[] = [];
  if (chosen.agent !== current.agent || chosen.agentFile !== current.agentFile) {
    entries.push({
      kind: "agent",
      agent: chosen.agent,
      ...(chosen.agentFile === null ? {} : { agentFile: chosen.agentFile }),
    });
  }
  if (chosen.model !== current.model) entries.push({ kind: "model", model: chosen.model });
  if (chosen.thinking !== current.thinking) {
    entries.push({ kind: "thinking", thinking: chosen.thinking ?? "off" });
  }
  return entries;
}

/** What a continued run starts from and what it appends before its prompt. */
export interface Continuation {
  /** The branch's messages after its last compaction, plus results for unanswered calls. */
  readonly history: Message[];
  /** The entry ids of `history` that are already stored, in order. */
  readonly historyIds: readonly string[];
  /** The last compaction's summary, when the branch has one. */
  readonly summary: string | undefined;
  /** Entries to write before the prompt: results for unanswered calls, then switches. */
  readonly pending: NewEntry[];
}

/** How `session` continues with the agent, model and reasoning level `chosen`. */
export function continuation(session: ContinuedSession, chosen: SwitchChoice): Continuation {
  const { branch } = session;
  const repair = unansweredCalls(branch);
  const current = {
    agent: branch.agent,
    agentFile: branch.agentFile,
    model: branch.model,
    thinking: branch.thinking,
  };
  return {
    history: repair === null ? branch.messages : [...branch.messages, repair],
    historyIds: branch.messageIds,
    summary: branch.compaction?.summary,
    pending: [
      ...(repair === null ? [] : [toMessageFields(repair)]),
      ...switchEntries(current, chosen),
    ],
  };
}

/**
 * The agent the session's branch uses (its last `agent` switch, else the
 * header's): the file it was given as (`-f FILE`), else `agents/<id>.md`.
 *
 * @throws {Error} saying so and suggesting -a when that agent no longer exists
 */
export async function loadSessionAgent(
  sources: readonly AgentSource[],
  session: { readonly id: string; readonly branch: Pick<BranchContext, "agent" | "agentFile"> },
): Promise<AgentDefinition> {
  const id = session.branch.agent;
  const file = session.branch.agentFile;
  if (file !== null) {
    try {
      return await loadAgentFile(file);
    } catch (error) {
      if (!(error instanceof AgentFileError) || !(error.cause instanceof Deno.errors.NotFound)) {
        throw error;
      }
      throw new Error(
        `session ${session.id} uses the agent file ${file}, which no longer exists: ` +
          "pass -a AGENT or -f FILE to continue it with another agent",
        { cause: error },
      );
    }
  }
  try {
    return await loadAgent(sources, id);
  } catch (error) {
    if (!(error instanceof AgentNotFoundError)) throw error;
    throw new Error(
      `session ${session.id} uses agent "${id}", which no longer exists ` +
        `(${error.path} not found): pass -a AGENT or -f FILE to continue it with another agent`,
      { cause: error },
    );
  }
}

/** The error for a session whose model cannot be used any more, suggesting -m. */
export function sessionModelError(
  session: Pick<ContinuedSession, "id">,
  model: string,
  error: unknown,
): Error {
  const reason = errorMessage(error);
  return new Error(
    `session ${session.id} uses model "${model}", which is not available (${reason}): ` +
      "pass -m PROVIDER/MODEL to continue it with another model",
    { cause: error },
  );
}
