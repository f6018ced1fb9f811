/**
 * Anthropic Messages as the vendor streams it: `event:`/`data:` pairs from
 * `message_start` (and a `ping`) through one start/delta/stop group per
 * content block to `message_delta` and `message_stop`.
 *
 * @module
 */

import { type Codec, jsonEvent, type SseEvent, type TurnContext } from "./codec.ts";
import { splitText, type Turn } from "./turn.ts";

/** The Anthropic Messages codec (`POST /v1/messages`). */
export const anthropicCodec: Codec = {
  protocol: "anthropic",
  path: "/v1/messages",
  events: anthropicEvents,
  errorBody(status, message) {
    return { type: "error", error: { type: anthropicErrorType(status), message } };
  },
};

function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 529:
      return "overloaded_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

function anthropicEvents(turn: Turn, context: TurnContext): SseEvent[] {
  const usage = context.usage;
  const events: SseEvent[] = [
    named("message_start", {
      message: {
        id: `msg_fake${context.turnNumber}`,
        type: "message",
        role: "assistant",
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage?.input ?? 0,
          cache_creation_input_tokens: usage?.cacheWrite ?? 0,
          cache_read_input_tokens: usage?.cachedInput ?? 0,
          output_tokens: 1,
        },
      },
    }),
    named("ping", {}),
  ];
  const chunks = turn.chunks ?? 1;
  let index = 0;
  if (turn.thinking !== undefined || turn.thinkingSignature !== undefined) {
    const deltas: Record<string, string>[] = splitText(turn.thinking ?? "", chunks).map((
      thinking,
    ) => ({ type: "thinking_delta", thinking }));
    if (turn.thinkingSignature !== undefined) {
      deltas.push({ type: "signature_delta", signature: turn.thinkingSignature });
    }
    events.push(...block(index++, { type: "thinking", thinking: "", signature: "" }, deltas));
  }
  if (turn.text !== undefined && turn.text !== "") {
    const deltas = splitText(turn.text, chunks).map((text) => ({ type: "text_delta", text }));
    events.push(...block(index++, { type: "text", text: "" }, deltas));
  }
  for (const call of context.calls) {
    const deltas = splitText(call.argumentText, call.fragments).map((partial_json) => ({
      type: "input_json_delta",
      partial_json,
    }));
    const start = { type: "tool_use", id: call.id, name: call.name, input: {} };
    events.push(...block(index++, start, deltas));
  }
  const stopReason = turn.finishReason ?? (context.calls.length > 0 ? "tool_use" : "end_turn");
  events.push(
    named("message_delta", {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage?.output ?? 0 },
    }, true),
    named("message_stop", {}, true),
  );
  return events;
}

function block(index: number, contentBlock: unknown, deltas: readonly unknown[]): SseEvent[] {
  return [
    named("content_block_start", { index, content_block: contentBlock }),
    ...deltas.map((delta) => named("content_block_delta", { index, delta })),
    named("content_block_stop", { index }),
  ];
}

function named(type: string, fields: Record<string, unknown>, final = false): SseEvent {
  return jsonEvent({ type, ...fields }, { event: type, final });
}
