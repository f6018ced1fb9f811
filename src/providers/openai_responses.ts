/**
 * The OpenAI Responses wire protocol (`POST {base}/responses`, streamed).
 *
 * - Request (`openai_responses_request.ts`): `instructions`, typed `input`
 *   items (`message`, `function_call`, `function_call_output`, `reasoning`),
 *   `store: false`, `reasoning: {effort, summary: "auto"}` and
 *   `include: ["reasoning.encrypted_content"]` when reasoning is on.
 * - Response: one `response.output_item.added` … `.done` group per output
 *   item, then `response.completed` / `response.incomplete` with the usage;
 *   `response.failed` and `error` events are {@link ProviderError}s. A stream
 *   without a final event was cut.
 * - Kept for replay: a reasoning item (id, encrypted content, summary) as the
 *   JSON `signature` of its thinking block; a message item's id as the
 *   `signature` of its text block.
 *
 * @module
 */

import type { AssistantBlock, StopReason, Usage } from "../llm/messages.ts";
import { newCallId } from "../llm/messages.ts";
import type { ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { cutStreamError, errorFromStreamPayload } from "./http_errors.ts";
import { responsesBody, responsesHeaders } from "./openai_responses_request.ts";
import type { ProtocolOptions } from "./protocol.ts";
import { doneEvent, inIndexOrder } from "./finish.ts";
import { postJsonEvents, SSE_DONE } from "./request.ts";
import { parseToolArguments } from "./tool_arguments.ts";
import { arrayAt, isRecord, numberAt, recordAt, stringAt } from "./wire_json.ts";

export { responsesBody, responsesHeaders } from "./openai_responses_request.ts";

/** One output item being assembled from its events. */
type PartialItem =
  | { readonly kind: "reasoning"; id: string; summary: string[]; text: string; encrypted: string }
  | { readonly kind: "message"; id: string; text: string }
  | { readonly kind: "function_call"; id: string; callId: string; name: string; args: string }
  | { readonly kind: "other" };

/** What the decoder has gathered so far. */
interface ResponsesDecodeState {
  model: string | undefined;
  readonly items: Map<number, PartialItem>;
  /** `completed`, `incomplete`, … once the final event arrived. */
  status: string | undefined;
  incompleteReason: string | undefined;
  usage: Usage | null;
}

/** Maps the final status; a turn that made calls is `tool_use`. */
export function responsesStopReason(
  status: string | undefined,
  incompleteReason: string | undefined,
  hasCalls: boolean,
): StopReason {
  if (status === "incomplete") {
    if (incompleteReason === "max_output_tokens") return "max_tokens";
    if (incompleteReason === "content_filter") return "content_filter";
    return hasCalls ? "tool_use" : "unknown";
  }
  if (hasCalls) return "tool_use";
  return status === "completed" ? "end_turn" : "unknown";
}

/**
 * Normalises a Responses `usage` object (formats.md): input excludes cached
 * reads, output includes reasoning; null when the value is not a usage object.
 */
export function responsesUsage(value: unknown): Usage | null {
  if (!isRecord(value)) return null;
  const cacheRead = numberAt(recordAt(value, "input_tokens_details"), "cached_tokens") ?? 0;
  return {
    inputTokens: Math.max(0, (numberAt(value, "input_tokens") ?? 0) - cacheRead),
    outputTokens: numberAt(value, "output_tokens") ?? 0,
    reasoningTokens: numberAt(recordAt(value, "output_tokens_details"), "reasoning_tokens") ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: 0,
  };
}

/** The texts of a list of `{text}` (or `{refusal}`) parts. */
function partsText(parts: readonly unknown[]): string[] {
  return parts.map((part) => stringAt(part, "text") ?? stringAt(part, "refusal") ?? "");
}

/** A partial item from an item object (as added, or complete as done). */
function itemFrom(item: unknown): PartialItem {
  const id = stringAt(item, "id") ?? "";
  switch (stringAt(item, "type")) {
    case "reasoning":
      return {
        kind: "reasoning",
        id,
        summary: partsText(arrayAt(item, "summary")),
        text: partsText(arrayAt(item, "content")).join(""),
        encrypted: stringAt(item, "encrypted_content") ?? "",
      };
    case "message":
      return { kind: "message", id, text: partsText(arrayAt(item, "content")).join("") };
    case "function_call":
      return {
        kind: "function_call",
        id,
        callId: stringAt(item, "call_id") ?? "",
        name: stringAt(item, "name") ?? "",
        args: stringAt(item, "arguments") ?? "",
      };
    default:
      // Built-in tool calls and future item types are not part of the conversation model.
      return { kind: "other" };
  }
}

function finishResponse(state: ResponsesDecodeState, response: unknown, status: string): void {
  state.status = stringAt(response, "status") ?? status;
  state.incompleteReason = stringAt(recordAt(response, "incomplete_details"), "reason");
  state.model = stringAt(response, "model") || state.model;
  state.usage = responsesUsage(recordAt(response, "usage"));
  // Servers that skip the per-item events still send the whole output here.
  if (state.items.size === 0) {
    arrayAt(response, "output").forEach((item, index) => state.items.set(index, itemFrom(item)));
  }
}

/** Which part of an item a delta event extends. */
type DeltaTarget = "text" | "summary" | "reasoning" | "arguments";

/** The item a delta belongs to; servers that skip `output_item.added` get one made up. */
function itemForDelta(
  state: ResponsesDecodeState,
  event: unknown,
  target: DeltaTarget,
): PartialItem | undefined {
  const index = numberAt(event, "output_index") ?? 0;
  const known = state.items.get(index);
  if (known !== undefined || target === "arguments") return known;
  const id = stringAt(event, "item_id") ?? "";
  const made: PartialItem = target === "text"
    ? { kind: "message", id, text: "" }
    : { kind: "reasoning", id, summary: [], text: "", encrypted: "" };
  state.items.set(index, made);
  return made;
}

/** Applies one delta event to its item; returns the event to yield. */
function applyDelta(
  state: ResponsesDecodeState,
  event: unknown,
  target: DeltaTarget,
): ModelEvent[] {
  const delta = stringAt(event, "delta") ?? "";
  const item = delta === "" ? undefined : itemForDelta(state, event, target);
  if (item === undefined) return [];
  switch (target) {
    case "text":
      if (item.kind !== "message") return [];
      item.text += delta;
      return [{ type: "text_delta", text: delta }];
    case "arguments":
      if (item.kind === "function_call") item.args += delta;
      return [];
    case "summary": {
      if (item.kind !== "reasoning") return [];
      const index = numberAt(event, "summary_index") ?? 0;
      // Summary parts read as paragraphs.
      const separator = index > 0 && item.summary[index] === undefined ? "\n\n" : "";
      item.summary[index] = (item.summary[index] ?? "") + delta;
      return [{ type: "thinking_delta", text: separator + delta }];
    }
    case "reasoning":
      if (item.kind !== "reasoning") return [];
      item.text += delta;
      return [{ type: "thinking_delta", text: delta }];
    default: {
      const unknownTarget: never = target;
      throw new TypeError(`unknown delta target ${String(unknownTarget)}`);
    }
  }
}

/** Applies one event to the state and returns the deltas it carries. */
function decodeEvent(state: ResponsesDecodeState, event: unknown): ModelEvent[] {
  const type = stringAt(event, "type") ?? "";
  switch (type) {
    case "response.created":
    case "response.in_progress":
      state.model ??= stringAt(recordAt(event, "response"), "model") || undefined;
      return [];
    case "response.output_item.added":
    case "response.output_item.done":
      state.items.set(
        numberAt(event, "output_index") ?? state.items.size,
        itemFrom(recordAt(event, "item")),
      );
      return [];
    case "response.output_text.delta":
    case "response.refusal.delta":
      return applyDelta(state, event, "text");
    case "response.reasoning_summary_text.delta":
      return applyDelta(state, event, "summary");
    case "response.reasoning_text.delta":
      return applyDelta(state, event, "reasoning");
    case "response.function_call_arguments.delta":
      return applyDelta(state, event, "arguments");
    case "response.completed":
    case "response.incomplete":
      finishResponse(state, recordAt(event, "response"), type.slice("response.".length));
      return [];
    case "response.failed":
      throw errorFromStreamPayload({ error: recordAt(recordAt(event, "response"), "error") });
    case "error":
      throw errorFromStreamPayload(event);
    default:
      return [];
  }
}

function toAssistantBlock(item: PartialItem): AssistantBlock | undefined {
  switch (item.kind) {
    case "reasoning": {
      const thinking = item.summary.length > 0 ? item.summary.join("\n\n") : item.text;
      if (item.encrypted === "") {
        return thinking === "" ? undefined : { type: "thinking", thinking };
      }
      const summary = item.summary.map((text) => ({ type: "summary_text", text }));
      const replay = {
        type: "reasoning",
        id: item.id,
        "encrypted_content": item.encrypted,
        summary,
      };
      return { type: "thinking", thinking, signature: JSON.stringify(replay) };
    }
    case "message":
      if (item.text === "") return undefined;
      return { type: "text", text: item.text, ...(item.id === "" ? {} : { signature: item.id }) };
    case "function_call":
      return {
        type: "tool_call",
        id: item.callId || item.id || newCallId(),
        name: item.name,
        ...parseToolArguments(item.args),
      };
    case "other":
      return undefined;
    default: {
      const unknownItem: never = item;
      throw new TypeError(`unknown item ${JSON.stringify(unknownItem)}`);
    }
  }
}

function finishMessage(state: ResponsesDecodeState, fallbackModel: string): ModelEvent {
  const blocks = inIndexOrder(state.items).map(toAssistantBlock)
    .filter((block) => block !== undefined);
  return doneEvent(blocks, {
    model: state.model,
    fallbackModel,
    stopReason: (hasCalls) => responsesStopReason(state.status, state.incompleteReason, hasCalls),
    usage: state.usage,
  });
}

/**
 * Streams one attempt of a Responses request.
 *
 * @throws {ProviderError} for HTTP, network, stream and in-stream errors; the
 * signal's reason on abort
 */
export async function* streamResponses(
  options: ProtocolOptions,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const state: ResponsesDecodeState = {
    model: undefined,
    items: new Map(),
    status: undefined,
    incompleteReason: undefined,
    usage: null,
  };
  const payloads = postJsonEvents(options, "responses", {
    headers: responsesHeaders(options),
    body: responsesBody(options, request),
  }, signal);
  for await (const payload of payloads) {
    if (payload === SSE_DONE) continue;
    yield* decodeEvent(state, payload);
    if (state.status !== undefined) break;
  }
  if (state.status === undefined) throw cutStreamError();
  yield finishMessage(state, options.modelId);
}
