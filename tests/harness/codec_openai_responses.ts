/**
 * OpenAI Responses as the vendor streams it: `response.created`, then per
 * output item `response.output_item.added`, its deltas and
 * `response.output_item.done`, then `response.completed` (or
 * `response.incomplete`) carrying the whole response with its usage.
 *
 * @module
 */

import {
  type Codec,
  jsonEvent,
  openAiErrorKind,
  type SseEvent,
  type TurnContext,
} from "./codec.ts";
import { splitText, type Turn } from "./turn.ts";

/** The Responses codec (`POST /v1/responses`). */
export const openAiResponsesCodec: Codec = {
  protocol: "openai_responses",
  path: "/v1/responses",
  events: responsesEvents,
  errorBody(status, message) {
    return { error: { message, ...openAiErrorKind(status), param: null } };
  },
};

type Fields = Record<string, unknown>;

function responsesEvents(turn: Turn, context: TurnContext): SseEvent[] {
  const events: SseEvent[] = [];
  const emit = (type: string, fields: Fields, final = false) => {
    events.push(
      jsonEvent({ type, sequence_number: events.length, ...fields }, { event: type, final }),
    );
  };
  const n = context.turnNumber;
  const response = (status: string, output: unknown[], usage: unknown): Fields => ({
    id: `resp_fake${n}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: turn.finishReason } : null,
    model: context.model,
    output,
    parallel_tool_calls: true,
    store: false,
    usage,
  });
  emit("response.created", { response: response("in_progress", [], null) });
  emit("response.in_progress", { response: response("in_progress", [], null) });
  const chunks = turn.chunks ?? 1;
  const output: Fields[] = [];
  const item = (added: Fields, deltas: () => void, done: Fields) => {
    const outputIndex = output.length;
    emit("response.output_item.added", { output_index: outputIndex, item: added });
    deltas();
    emit("response.output_item.done", { output_index: outputIndex, item: done });
    output.push(done);
  };
  if (turn.thinking !== undefined) {
    const id = `rs_fake${n}`;
    const text = turn.thinking;
    const summary = [{ type: "summary_text", text }];
    const at = { "item_id": id, "output_index": output.length, "summary_index": 0 };
    item({ id, type: "reasoning", summary: [] }, () => {
      emit("response.reasoning_summary_part.added", {
        ...at,
        part: { type: "summary_text", text: "" },
      });
      for (const delta of splitText(text, chunks)) {
        emit("response.reasoning_summary_text.delta", { ...at, delta });
      }
      emit("response.reasoning_summary_text.done", { ...at, text });
      emit("response.reasoning_summary_part.done", { ...at, part: summary[0] });
    }, {
      id,
      type: "reasoning",
      encrypted_content: turn.thinkingSignature ?? `encrypted-reasoning-${n}`,
      summary,
    });
  }
  if (turn.text !== undefined && turn.text !== "") {
    const id = `msg_fake${n}`;
    const text = turn.text;
    const at = { "item_id": id, "output_index": output.length, "content_index": 0 };
    const part = { type: "output_text", annotations: [], text };
    item({ id, type: "message", status: "in_progress", role: "assistant", content: [] }, () => {
      emit("response.content_part.added", { ...at, part: { ...part, text: "" } });
      for (const delta of splitText(text, chunks)) {
        emit("response.output_text.delta", { ...at, delta, logprobs: [] });
      }
      emit("response.output_text.done", { ...at, text, logprobs: [] });
      emit("response.content_part.done", { ...at, part });
    }, { id, type: "message", status: "completed", role: "assistant", content: [part] });
  }
  context.calls.forEach((call, index) => {
    const id = `fc_fake${n}_${index + 1}`;
    const fields = { id, type: "function_call", "call_id": call.id, name: call.name };
    const at = { "item_id": id, "output_index": output.length };
    item({ ...fields, status: "in_progress", arguments: "" }, () => {
      for (const delta of splitText(call.argumentText, call.fragments)) {
        emit("response.function_call_arguments.delta", { ...at, delta });
      }
      emit("response.function_call_arguments.done", { ...at, arguments: call.argumentText });
    }, { ...fields, status: "completed", arguments: call.argumentText });
  });
  const status = turn.finishReason === undefined ? "completed" : "incomplete";
  emit(`response.${status}`, { response: response(status, output, usageOf(context)) }, true);
  return events;
}

function usageOf(context: TurnContext): unknown {
  const usage = context.usage;
  if (usage === null) return null;
  const input = usage.input + usage.cachedInput;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedInput },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: input + usage.output,
  };
}
