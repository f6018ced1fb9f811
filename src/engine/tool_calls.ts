/**
 * The tool calls of an answer as a run accepts them, before any hook, tool,
 * front end or session sees them:
 *
 * - ids are unique within the turn: a call whose id is empty or already used
 *   by an earlier call of the same answer gets a fresh one (`newCallId`), so
 *   the stored history stays valid for every provider;
 * - arguments are within the payload limits (`sandbox/payload_limits.ts`): a call
 *   over them is refused with `the tool was not executed: arguments nested
 *   deeper than 64 levels` (or `larger than 1 MiB`), and its arguments are
 *   replaced by the raw argument text `[arguments nested deeper than 64
 *   levels, not kept]`, so nothing downstream (hooks, the loop guard, the
 *   renderers, the session, the next request) has to handle them.
 *
 * @module
 */

import { type AssistantMessage, newCallId, type ToolCallBlock } from "../llm/messages.ts";
import { payloadProblem } from "../sandbox/payload_limits.ts";

/** The prefix of every result of a call that did not run because of its arguments. */
export const NOT_EXECUTED = "the tool was not executed: ";

/** An answer with its calls accepted, and the refusals of the calls over the limits. */
export interface AcceptedCalls {
  readonly message: AssistantMessage;
  /** The result text of each refused call, by its (new) id. */
  readonly refusals: ReadonlyMap<string, string>;
}

/** Applies the rules of the module doc to the calls of `message`. */
export function acceptToolCalls(message: AssistantMessage): AcceptedCalls {
  const seen = new Set<string>();
  const refusals = new Map<string, string>();
  let changed = false;
  const blocks = message.blocks.map((block) => {
    if (block.type !== "tool_call") return block;
    let call: ToolCallBlock = block;
    if (call.id === "" || seen.has(call.id)) {
      call = { ...call, id: freshId(seen) };
      changed = true;
    }
    seen.add(call.id);
    const problem = payloadProblem(call.rawArguments ?? call.arguments);
    if (problem !== null) {
      refusals.set(call.id, `${NOT_EXECUTED}arguments ${problem}`);
      const rawArguments = `[arguments ${problem}, not kept]`;
      call = { type: "tool_call", id: call.id, name: call.name, arguments: {}, rawArguments };
      changed = true;
    }
    return call;
  });
  return { message: changed ? { ...message, blocks } : message, refusals };
}

function freshId(seen: ReadonlySet<string>): string {
  for (;;) {
    const id = newCallId();
    if (!seen.has(id)) return id;
  }
}
