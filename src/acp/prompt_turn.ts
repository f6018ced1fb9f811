/**
 * `session/prompt`: one turn of a served session, its events sent as
 * `session/update`s (in order, all before the answer), its confirmations
 * asked as `session/request_permission`, its end as the stop reason.
 *
 * @module
 */

import * as acp from "@agentclientprotocol/sdk";
import type { TurnOutcome } from "../app/interactive_session.ts";
import { PromptContentError, promptText } from "./prompt_text.ts";
import { createPermissionAsker } from "./permission.ts";
import type { ServedSession } from "./served_session.ts";
import { createTurnUpdates, type TurnUpdates } from "./turn_updates.ts";

/** JSON-RPC's code for an internal error: a run that failed. */
const INTERNAL_ERROR = -32603;

/** What a prompt needs of the server. */
export interface PromptContext {
  readonly client: acp.AgentContext;
  readonly log: (line: string) => void;
  /** `-y`: every confirmation is yes, without asking. */
  readonly autoApprove: boolean;
  /** The process's interrupt. */
  readonly signal: AbortSignal;
}

/**
 * Runs `prompt` in `session` and answers its stop reason.
 *
 * @throws {acp.RequestError} when a prompt already runs, the prompt holds
 * content rienda cannot take, or the run failed
 */
export async function runPrompt(
  session: ServedSession,
  prompt: readonly acp.ContentBlock[],
  context: PromptContext,
): Promise<acp.PromptResponse> {
  if (session.turn !== null) {
    throw acp.RequestError.invalidRequest(
      undefined,
      `session ${session.id} is already running a prompt: send session/cancel first`,
    );
  }
  const text = parsedPrompt(prompt);
  const { client, log, signal } = context;
  const controller = new AbortController();
  const stop = () => controller.abort(new DOMException("the prompt was cancelled", "AbortError"));
  if (signal.aborted) stop();
  signal.addEventListener("abort", stop, { once: true });
  let sent: Promise<void> = Promise.resolve();
  const send = (update: acp.SessionUpdate) => {
    sent = sent.then(() =>
      client.notify(acp.methods.client.session.update, { sessionId: session.id, update })
    ).catch(() => {}); // the editor went away: the prompt is being interrupted
  };
  const updates = createTurnUpdates({ workdir: session.conversation.workdir, send, log });
  const ask = createPermissionAsker({
    sessionId: session.id,
    request: (params, cancel) =>
      client.request(acp.methods.client.session.requestPermission, params, {
        cancellationSignal: cancel,
        stopWaitingOnCancel: true,
      }),
    send,
    runningCall: updates.runningCall,
    always: session.always,
  });
  const running = session.conversation.runTurn(text, {
    emit: updates.emit,
    confirm: context.autoApprove ? () => Promise.resolve(true) : ask,
    notify: (notice) => log(notice.body === "" ? notice.title : `${notice.title}: ${notice.body}`),
    signal: controller.signal,
  });
  session.turn = { controller, done: running };
  if (session.files !== null) session.files.onWrite = updates.recordWrite;
  try {
    const outcome = await running;
    await sent;
    return { stopReason: stopReasonOf(outcome, updates) };
  } finally {
    signal.removeEventListener("abort", stop);
    if (session.files !== null) session.files.onWrite = null;
    session.turn = null;
  }
}

/** The stop reason of a turn that ended with `outcome`. */
function stopReasonOf(outcome: TurnOutcome, updates: TurnUpdates): acp.StopReason {
  switch (outcome.reason) {
    case "end_turn":
      return updates.refused() ? "refusal" : "end_turn";
    case "interrupted":
      return "cancelled";
    case "hook_stop":
      // A clean end the agent chose (not `refusal`: the prompt and what followed stay stored).
      return "end_turn";
    case "error":
      if (outcome.maxTurnsReached === true) return "max_turn_requests";
      throw new acp.RequestError(INTERNAL_ERROR, outcome.error ?? "the run failed");
  }
}

/** The prompt's text, or an invalid-params error naming the block rienda cannot take. */
function parsedPrompt(blocks: readonly acp.ContentBlock[]): string {
  try {
    return promptText(blocks);
  } catch (error) {
    if (error instanceof PromptContentError) {
      throw acp.RequestError.invalidParams(undefined, error.message);
    }
    throw error;
  }
}
