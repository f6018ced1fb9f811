/**
 * Confirmations as `session/request_permission`: `ctx.confirm` of hooks and
 * tools, and rienda's own questions (a write outside the workspace, a call
 * the agent file asks before), each asked of the editor with allow / reject
 * options.
 *
 * - A question asked while a tool call runs is asked on that call; one
 *   asked outside a call (a hook's, before the call is announced) gets a
 *   tool call of its own (`kind: other`), completed or failed with the answer.
 * - rienda's own questions also offer "Always allow": the same question
 *   (same title and body: the same action on the same path or command) is
 *   then allowed without asking for the rest of the session. A hook's or a
 *   tool's `ctx.confirm` is asked every time.
 * - The answer is no when the editor cancels, fails or the prompt is
 *   cancelled.
 *
 * @module
 */

import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import type { ApprovalQuestion } from "../tools/approval.ts";
import type { RunningCall } from "./turn_updates.ts";

/** Option ids of the permission request. */
const ALLOW = "allow";
const ALWAYS = "allow_always";
const REJECT = "reject";

/** What {@link createPermissionAsker} asks through. */
export interface PermissionAskerOptions {
  readonly sessionId: string;
  /** Sends `session/request_permission`; `signal` cancels it. */
  readonly request: (
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ) => Promise<RequestPermissionResponse>;
  /** Sends a `session/update`, in order with the turn's others. */
  readonly send: (update: SessionUpdate) => void;
  /** The call running now, if any. */
  readonly runningCall: () => RunningCall | undefined;
  /** The session's remembered "always" answers (question keys); lives as long as the session. */
  readonly always: Set<string>;
}

/** A `confirm` for `prepareRun` that asks the editor. */
export function createPermissionAsker(
  options: PermissionAskerOptions,
): (question: ApprovalQuestion, signal: AbortSignal) => Promise<boolean> {
  let asked = 0;
  return async (question, signal) => {
    const own = question.from === "rienda";
    const key = JSON.stringify([question.title, question.body]);
    if (own && options.always.has(key)) return true;
    const running = options.runningCall();
    const text = question.body === "" ? question.title : `${question.title}\n\n${question.body}`;
    const content = [{ type: "content" as const, content: { type: "text" as const, text } }];
    let toolCall: ToolCallUpdate;
    let standalone = false;
    if (running === undefined) {
      asked += 1;
      standalone = true;
      const toolCallId = `rienda-confirm-${asked}`;
      toolCall = { toolCallId, title: question.title, kind: "other" };
      options.send({
        sessionUpdate: "tool_call",
        toolCallId,
        title: question.title,
        kind: "other",
        status: "pending",
        content,
      });
    } else {
      toolCall = { toolCallId: running.id, content };
    }
    const choice = await options.request({
      sessionId: options.sessionId,
      toolCall,
      options: [
        { optionId: ALLOW, name: "Allow", kind: "allow_once" },
        ...(own ? [{ optionId: ALWAYS, name: "Always allow", kind: "allow_always" as const }] : []),
        { optionId: REJECT, name: "Reject", kind: "reject_once" },
      ],
    }, signal).catch(() => null);
    const selected = choice?.outcome.outcome === "selected" ? choice.outcome.optionId : null;
    const allowed = !signal.aborted && (selected === ALLOW || selected === ALWAYS);
    if (allowed && selected === ALWAYS && own) options.always.add(key);
    if (standalone) {
      options.send({
        sessionUpdate: "tool_call_update",
        toolCallId: toolCall.toolCallId,
        status: allowed ? "completed" : "failed",
      });
    }
    return allowed;
  };
}
