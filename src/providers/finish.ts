/**
 * The end of every protocol's stream: the decoded parts, in stream order,
 * become the one `done` event of the attempt.
 *
 * @module
 */

import type { AssistantBlock, StopReason, Usage } from "../llm/messages.ts";
import type { ModelEvent } from "../llm/model_events.ts";

/** The values of a map keyed by stream index, in index order. */
export function inIndexOrder<T>(parts: ReadonlyMap<number, T>): T[] {
  return [...parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
}

/** What a protocol knows about a finished response besides its blocks. */
export interface ResponseFields {
  /** The model the provider reported, if any. */
  readonly model: string | undefined;
  /** The model id the request named, used when the provider reported none. */
  readonly fallbackModel: string;
  /** The protocol's stop reason, told whether the response made tool calls. */
  readonly stopReason: (hasToolCalls: boolean) => StopReason;
  readonly usage: Usage | null;
}

/** The `done` event of a response made of `blocks`. */
export function doneEvent(blocks: AssistantBlock[], fields: ResponseFields): ModelEvent {
  const hasToolCalls = blocks.some((block) => block.type === "tool_call");
  return {
    type: "done",
    message: {
      role: "assistant",
      blocks,
      model: fields.model ?? fields.fallbackModel,
      stopReason: fields.stopReason(hasToolCalls),
      usage: fields.usage,
    },
  };
}
