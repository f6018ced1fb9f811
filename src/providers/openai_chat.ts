/**
 * The OpenAI Chat Completions wire protocol (`POST {base}/chat/completions`,
 * streamed), spoken by OpenAI and most OpenAI-compatible servers.
 *
 * - Request: system message first, tool results as `tool` messages, thinking
 *   never sent back; `stream_options.include_usage` for the usage chunk.
 * - Response: `content` → text, `reasoning_content`/`reasoning` → thinking,
 *   `tool_calls` fragments assembled by `index`. A stream that ends with
 *   neither a `finish_reason` nor `[DONE]` was cut.
 *
 * @module
 */

import type {
  AssistantBlock,
  Message,
  StopReason,
  ToolCallBlock,
  Usage,
  UserMessage,
} from "../llm/messages.ts";
import { newCallId } from "../llm/messages.ts";
import type { ModelEvent, ModelRequest, ToolSpec } from "../llm/model_events.ts";
import { cutStreamError, errorFromStreamPayload } from "./http_errors.ts";
import { type ProtocolOptions, thinkingLevel } from "./protocol.ts";
import { doneEvent, inIndexOrder } from "./finish.ts";
import { postJsonEvents, requestHeaders, SSE_DONE } from "./request.ts";
import { parseToolArguments } from "./tool_arguments.ts";
import { arrayAt, isRecord, numberAt, recordAt, stringAt } from "./wire_json.ts";

/** A Chat Completions tool call as sent back in an assistant message. */
interface ChatToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

/** One message of the `messages` array. */
type ChatMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | {
    readonly role: "assistant";
    readonly content: string | null;
    readonly "tool_calls"?: readonly ChatToolCall[];
  }
  | { readonly role: "tool"; readonly "tool_call_id": string; readonly content: string };

function toChatToolCall(block: ToolCallBlock): ChatToolCall {
  return {
    id: block.id,
    type: "function",
    function: {
      name: block.name,
      arguments: block.rawArguments ?? JSON.stringify(block.arguments),
    },
  };
}

function assistantMessage(blocks: readonly AssistantBlock[]): ChatMessage {
  const text = blocks.map((block) => block.type === "text" ? block.text : "").join("");
  const calls = blocks.filter((block) => block.type === "tool_call").map(toChatToolCall);
  if (calls.length === 0) return { role: "assistant", content: text };
  return { role: "assistant", content: text === "" ? null : text, "tool_calls": calls };
}

/** Tool results first, as they must follow the assistant's calls; then any text. */
function userMessages(message: UserMessage): ChatMessage[] {
  const out: ChatMessage[] = [];
  const texts: string[] = [];
  for (const block of message.blocks) {
    if (block.type === "text") {
      texts.push(block.text);
      continue;
    }
    const content = block.content.map((part) => part.text).join("\n");
    out.push({ role: "tool", "tool_call_id": block.callId, content });
  }
  if (texts.length > 0) out.push({ role: "user", content: texts.join("\n\n") });
  return out;
}

/** The `messages` array: the system prompt (when any), then the conversation. */
export function toChatMessages(system: string, messages: readonly Message[]): ChatMessage[] {
  const out: ChatMessage[] = system === "" ? [] : [{ role: "system", content: system }];
  for (const message of messages) {
    if (message.role === "assistant") out.push(assistantMessage(message.blocks));
    else out.push(...userMessages(message));
  }
  return out;
}

function toChatTool(tool: ToolSpec) {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  } as const;
}

/** The JSON body of one streamed request. */
export function chatCompletionsBody(
  options: ProtocolOptions,
  request: ModelRequest,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.modelId,
    messages: toChatMessages(request.system, request.messages),
  };
  if (request.tools.length > 0) body.tools = request.tools.map(toChatTool);
  body.stream = true;
  body["stream_options"] = { "include_usage": true };
  if (options.maxTokens !== undefined) {
    body[options.maxTokensField ?? "max_tokens"] = options.maxTokens;
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body["top_p"] = options.topP;
  const level = thinkingLevel(options);
  if (level !== undefined) body["reasoning_effort"] = level;
  return body;
}

/** The headers of a request: rienda's, then `Authorization` when keyed, then the provider's. */
export function chatCompletionsHeaders(options: ProtocolOptions): Headers {
  const auth: Record<string, string> = options.apiKey === null || options.apiKey === ""
    ? {}
    : { authorization: `Bearer ${options.apiKey}` };
  return requestHeaders(auth, options.headers);
}

/** Maps a `finish_reason`; a turn that made calls is `tool_use` whatever the server said. */
export function chatStopReason(finishReason: string | undefined, hasCalls: boolean): StopReason {
  switch (finishReason) {
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "stop":
      return hasCalls ? "tool_use" : "end_turn";
    case "length":
      return "max_tokens";
    case "content_filter":
      return "content_filter";
    default:
      return hasCalls ? "tool_use" : "unknown";
  }
}

/**
 * Normalises a `usage` object (formats.md): input excludes cached reads
 * (`prompt_tokens_details.cached_tokens`, or DeepSeek's
 * `prompt_cache_hit_tokens`) and cache writes (OpenRouter's
 * `cache_write_tokens`); null when the value is not a usage object.
 */
export function chatUsage(value: unknown): Usage | null {
  if (!isRecord(value)) return null;
  const prompt = numberAt(value, "prompt_tokens") ?? 0;
  const promptDetails = recordAt(value, "prompt_tokens_details");
  const cacheRead = numberAt(promptDetails, "cached_tokens") ??
    numberAt(value, "prompt_cache_hit_tokens") ?? 0;
  const cacheWrite = numberAt(promptDetails, "cache_write_tokens") ?? 0;
  const completionDetails = recordAt(value, "completion_tokens_details");
  return {
    inputTokens: Math.max(0, prompt - cacheRead - cacheWrite),
    outputTokens: numberAt(value, "completion_tokens") ?? 0,
    reasoningTokens: numberAt(completionDetails, "reasoning_tokens") ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

/** A tool call being assembled from its fragments. */
interface PartialCall {
  id: string;
  name: string;
  argumentText: string;
}

/** What the decoder has gathered so far. */
interface ChatDecodeState {
  model: string | undefined;
  thinking: string;
  text: string;
  readonly calls: Map<number, PartialCall>;
  finishReason: string | undefined;
  usage: Usage | null;
}

/** Finds the call a fragment belongs to; fragments without `index` go by `id`. */
function callFor(state: ChatDecodeState, fragment: unknown): PartialCall {
  const id = stringAt(fragment, "id");
  let index = numberAt(fragment, "index");
  if (index === undefined) {
    const known = [...state.calls].find(([, call]) => id !== undefined && call.id === id);
    const last = state.calls.size === 0 ? -1 : Math.max(...state.calls.keys());
    index = known?.[0] ?? (id !== undefined || last === -1 ? last + 1 : last);
  }
  let call = state.calls.get(index);
  if (call === undefined) {
    call = { id: "", name: "", argumentText: "" };
    state.calls.set(index, call);
  }
  if (id && call.id === "") call.id = id;
  return call;
}

function addToolCallFragment(state: ChatDecodeState, fragment: unknown): void {
  const call = callFor(state, fragment);
  const fn = recordAt(fragment, "function");
  const name = stringAt(fn, "name");
  // Servers send the whole name once; some repeat it in later fragments.
  if (name && call.name === "") call.name = name;
  call.argumentText += stringAt(fn, "arguments") ?? "";
}

/** Applies one chunk to the state and returns the deltas it carries. */
function decodeChunk(state: ChatDecodeState, chunk: unknown): ModelEvent[] {
  if (isRecord(chunk) && chunk.error !== undefined && chunk.error !== null) {
    throw errorFromStreamPayload(chunk);
  }
  state.model ??= stringAt(chunk, "model") || undefined;
  const usage = chatUsage(recordAt(chunk, "usage"));
  if (usage !== null) state.usage = usage;
  const events: ModelEvent[] = [];
  const choice = arrayAt(chunk, "choices").find((item) => (numberAt(item, "index") ?? 0) === 0);
  const delta = recordAt(choice, "delta");
  const thinking = stringAt(delta, "reasoning_content") || stringAt(delta, "reasoning");
  if (thinking) {
    state.thinking += thinking;
    events.push({ type: "thinking_delta", text: thinking });
  }
  const text = (stringAt(delta, "content") ?? "") + (stringAt(delta, "refusal") ?? "");
  if (text) {
    state.text += text;
    events.push({ type: "text_delta", text });
  }
  for (const fragment of arrayAt(delta, "tool_calls")) addToolCallFragment(state, fragment);
  const finishReason = stringAt(choice, "finish_reason");
  if (finishReason) state.finishReason = finishReason;
  return events;
}

function finishMessage(state: ChatDecodeState, fallbackModel: string): ModelEvent {
  const blocks: AssistantBlock[] = [];
  if (state.thinking !== "") blocks.push({ type: "thinking", thinking: state.thinking });
  if (state.text !== "") blocks.push({ type: "text", text: state.text });
  for (const call of inIndexOrder(state.calls)) {
    blocks.push({
      type: "tool_call",
      id: call.id || newCallId(),
      name: call.name,
      ...parseToolArguments(call.argumentText),
    });
  }
  return doneEvent(blocks, {
    model: state.model,
    fallbackModel,
    stopReason: (hasCalls) => chatStopReason(state.finishReason, hasCalls),
    usage: state.usage,
  });
}

/**
 * Streams one attempt of a Chat Completions request.
 *
 * @throws {ProviderError} for HTTP, network, stream and in-stream errors; the
 * signal's reason on abort
 */
export async function* streamChatCompletions(
  options: ProtocolOptions,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const state: ChatDecodeState = {
    model: undefined,
    thinking: "",
    text: "",
    calls: new Map(),
    finishReason: undefined,
    usage: null,
  };
  let sawDone = false;
  const payloads = postJsonEvents(options, "chat/completions", {
    headers: chatCompletionsHeaders(options),
    body: chatCompletionsBody(options, request),
  }, signal);
  for await (const payload of payloads) {
    if (payload === SSE_DONE) {
      sawDone = true;
      break;
    }
    yield* decodeChunk(state, payload);
  }
  if (!sawDone && state.finishReason === undefined) throw cutStreamError();
  yield finishMessage(state, options.modelId);
}
