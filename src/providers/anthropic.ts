/**
 * The Anthropic Messages wire protocol (`POST {base}/messages`, streamed).
 *
 * - Request (`anthropic_request.ts`): `x-api-key`, `anthropic-version:
 *   2023-06-01`, `system`, `max_tokens` (default 8192), tools with
 *   `input_schema`, `tool_use`/`tool_result` with `is_error`, signed thinking
 *   and redacted thinking sent back, prompt-cache marks on the system prompt
 *   and the last user block.
 * - Response: `message_start` … one start/delta/stop group per content block
 *   … `message_delta` (stop reason, output tokens) and `message_stop`; an
 *   `error` event is a {@link ProviderError} (`overloaded_error` retried). A
 *   stream without `message_stop` or a stop reason was cut.
 * - Usage: `input_tokens` already excludes cache reads and writes.
 *
 * @module
 */

import type { AssistantBlock, StopReason, Usage } from "../llm/messages.ts";
import type { ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { anthropicBody, anthropicHeaders } from "./anthropic_request.ts";
import { cutStreamError, errorFromStreamPayload } from "./http_errors.ts";
import type { ProtocolOptions } from "./protocol.ts";
import { doneEvent, inIndexOrder } from "./finish.ts";
import { postJsonEvents, SSE_DONE } from "./request.ts";
import { parseToolArguments } from "./tool_arguments.ts";
import { isRecord, numberAt, recordAt, stringAt } from "./wire_json.ts";

export { anthropicBody, anthropicHeaders } from "./anthropic_request.ts";

/** One content block being assembled from its deltas. */
type PartialBlock =
  | { readonly kind: "text"; text: string }
  | { readonly kind: "thinking"; thinking: string; signature: string }
  | { readonly kind: "redacted"; readonly data: string }
  | {
    readonly kind: "tool_use";
    readonly id: string;
    readonly name: string;
    readonly input: unknown;
    json: string;
  }
  | { readonly kind: "other" };

/** Token counts as Anthropic reports them, each possibly missing. */
interface UsageCounts {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** What the decoder has gathered so far. */
interface AnthropicDecodeState {
  model: string | undefined;
  readonly blocks: Map<number, PartialBlock>;
  stopReason: string | undefined;
  readonly usage: UsageCounts;
  sawUsage: boolean;
  sawStop: boolean;
}

/** Maps a `stop_reason`; a turn that made calls is `tool_use` whatever the server said. */
export function anthropicStopReason(reason: string | undefined, hasCalls: boolean): StopReason {
  if (hasCalls) return "tool_use";
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "end_turn";
    case "tool_use":
      return "tool_use";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens";
    case "refusal":
      return "content_filter";
    default:
      return "unknown";
  }
}

/** Reads the counts of a `usage` object into `counts`; false when there was none. */
function readUsage(counts: UsageCounts, usage: unknown): boolean {
  if (!isRecord(usage)) return false;
  const fields = [
    ["input", "input_tokens"],
    ["output", "output_tokens"],
    ["cacheRead", "cache_read_input_tokens"],
    ["cacheWrite", "cache_creation_input_tokens"],
  ] as const;
  for (const [name, wire] of fields) {
    const value = numberAt(usage, wire);
    if (value !== undefined) counts[name] = value;
  }
  return true;
}

/**
 * Normalises Anthropic usage counts (formats.md): `input_tokens` already
 * excludes cached reads and writes, and no reasoning count is reported.
 */
export function anthropicUsage(counts: UsageCounts): Usage {
  return {
    inputTokens: counts.input ?? 0,
    outputTokens: counts.output ?? 0,
    reasoningTokens: 0,
    cacheReadTokens: counts.cacheRead ?? 0,
    cacheWriteTokens: counts.cacheWrite ?? 0,
  };
}

function startBlock(state: AnthropicDecodeState, index: number, block: unknown): ModelEvent[] {
  switch (stringAt(block, "type")) {
    case "text": {
      const text = stringAt(block, "text") ?? "";
      state.blocks.set(index, { kind: "text", text });
      return text === "" ? [] : [{ type: "text_delta", text }];
    }
    case "thinking": {
      const thinking = stringAt(block, "thinking") ?? "";
      const signature = stringAt(block, "signature") ?? "";
      state.blocks.set(index, { kind: "thinking", thinking, signature });
      return thinking === "" ? [] : [{ type: "thinking_delta", text: thinking }];
    }
    case "redacted_thinking":
      state.blocks.set(index, { kind: "redacted", data: stringAt(block, "data") ?? "" });
      return [];
    case "tool_use":
      state.blocks.set(index, {
        kind: "tool_use",
        id: stringAt(block, "id") ?? "",
        name: stringAt(block, "name") ?? "",
        input: isRecord(block) ? block.input : undefined,
        json: "",
      });
      return [];
    default:
      // Server tools and future block kinds are not part of the conversation model.
      state.blocks.set(index, { kind: "other" });
      return [];
  }
}

function applyDelta(state: AnthropicDecodeState, index: number, delta: unknown): ModelEvent[] {
  const block = state.blocks.get(index);
  if (block === undefined) return [];
  const type = stringAt(delta, "type");
  if (block.kind === "text" && type === "text_delta") {
    const text = stringAt(delta, "text") ?? "";
    block.text += text;
    return text === "" ? [] : [{ type: "text_delta", text }];
  }
  if (block.kind === "thinking" && type === "thinking_delta") {
    const text = stringAt(delta, "thinking") ?? "";
    block.thinking += text;
    return text === "" ? [] : [{ type: "thinking_delta", text }];
  }
  if (block.kind === "thinking" && type === "signature_delta") {
    block.signature += stringAt(delta, "signature") ?? "";
  } else if (block.kind === "tool_use" && type === "input_json_delta") {
    block.json += stringAt(delta, "partial_json") ?? "";
  }
  return [];
}

/** Applies one event to the state and returns the deltas it carries. */
function decodeEvent(state: AnthropicDecodeState, event: unknown): ModelEvent[] {
  const index = numberAt(event, "index") ?? 0;
  switch (stringAt(event, "type")) {
    case "message_start": {
      const message = recordAt(event, "message");
      state.model ??= stringAt(message, "model") || undefined;
      if (readUsage(state.usage, recordAt(message, "usage"))) state.sawUsage = true;
      return [];
    }
    case "content_block_start":
      return startBlock(state, index, recordAt(event, "content_block"));
    case "content_block_delta":
      return applyDelta(state, index, recordAt(event, "delta"));
    case "message_delta": {
      const reason = stringAt(recordAt(event, "delta"), "stop_reason");
      if (reason) state.stopReason = reason;
      if (readUsage(state.usage, recordAt(event, "usage"))) state.sawUsage = true;
      return [];
    }
    case "message_stop":
      state.sawStop = true;
      return [];
    case "error":
      throw errorFromStreamPayload(event);
    default:
      // ping, content_block_stop and event types added later.
      return [];
  }
}

function toAssistantBlock(block: PartialBlock): AssistantBlock | undefined {
  switch (block.kind) {
    case "text":
      return block.text === "" ? undefined : { type: "text", text: block.text };
    case "thinking":
      return {
        type: "thinking",
        thinking: block.thinking,
        ...(block.signature === "" ? {} : { signature: block.signature }),
      };
    case "redacted":
      return { type: "thinking", thinking: "", signature: block.data, redacted: true };
    case "tool_use": {
      // Arguments normally stream as JSON deltas; a complete `input` in the start event also counts.
      const parsed = block.json === "" && isRecord(block.input) && Object.keys(block.input).length
        ? { arguments: block.input }
        : parseToolArguments(block.json);
      return { type: "tool_call", id: block.id, name: block.name, ...parsed };
    }
    case "other":
      return undefined;
    default: {
      const unknownBlock: never = block;
      throw new TypeError(`unknown block ${JSON.stringify(unknownBlock)}`);
    }
  }
}

function finishMessage(state: AnthropicDecodeState, fallbackModel: string): ModelEvent {
  const blocks = inIndexOrder(state.blocks).map(toAssistantBlock)
    .filter((block) => block !== undefined);
  return doneEvent(blocks, {
    model: state.model,
    fallbackModel,
    stopReason: (hasCalls) => anthropicStopReason(state.stopReason, hasCalls),
    usage: state.sawUsage ? anthropicUsage(state.usage) : null,
  });
}

/**
 * Streams one attempt of an Anthropic Messages request.
 *
 * @throws {ProviderError} for HTTP, network, stream and in-stream errors; the
 * signal's reason on abort
 */
export async function* streamAnthropic(
  options: ProtocolOptions,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const state: AnthropicDecodeState = {
    model: undefined,
    blocks: new Map(),
    stopReason: undefined,
    usage: {},
    sawUsage: false,
    sawStop: false,
  };
  const payloads = postJsonEvents(options, "messages", {
    headers: anthropicHeaders(options),
    body: anthropicBody(options, request),
  }, signal);
  for await (const payload of payloads) {
    if (payload === SSE_DONE) continue;
    yield* decodeEvent(state, payload);
    if (state.sawStop) break;
  }
  if (!state.sawStop && state.stopReason === undefined) throw cutStreamError();
  yield finishMessage(state, options.modelId);
}
