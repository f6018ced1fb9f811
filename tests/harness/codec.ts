/**
 * What a wire protocol codec of the fake provider is: a scripted turn in, the
 * SSE events and error bodies of that protocol out.
 *
 * @module
 */

import type { ResolvedToolCall, ResolvedUsage, Turn } from "./turn.ts";

/** The wire protocols the fake provider speaks (config.yaml `protocol` values). */
export type Protocol = "openai_chat_completions" | "openai_responses" | "anthropic";

/**
 * One server-sent event. `final` marks the events that finish a response
 * (finish reason, usage, `[DONE]`, `message_stop`, `response.completed`),
 * which a cut stream never sends.
 */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
  readonly final: boolean;
}

/** What a codec knows about the turn it encodes beyond the script. */
export interface TurnContext {
  /** 1 for the first turn the provider plays. */
  readonly turnNumber: number;
  /** The model name the stream reports. */
  readonly model: string;
  readonly calls: readonly ResolvedToolCall[];
  readonly usage: ResolvedUsage | null;
}

/** One wire protocol. */
export interface Codec {
  readonly protocol: Protocol;
  /** The route it answers, under the provider's base URL. */
  readonly path: string;
  /** The events of a streamed answer, in order. */
  events(turn: Turn, context: TurnContext): SseEvent[];
  /** The JSON error body the vendor sends for a status. */
  errorBody(status: number, message: string): unknown;
}

/** An event whose data is the JSON of a value. */
export function jsonEvent(
  value: unknown,
  options: { event?: string; final?: boolean } = {},
): SseEvent {
  const { event, final = false } = options;
  const data = JSON.stringify(value);
  return event === undefined ? { data, final } : { event, data, final };
}

/** The bytes of one event on the wire (`event:` line if any, `data:` line, blank line). */
export function encodeSse(event: SseEvent): string {
  const head = event.event === undefined ? "" : `event: ${event.event}\n`;
  return `${head}data: ${event.data}\n\n`;
}

/** The OpenAI error `type` and `code` for a status (Chat Completions and Responses). */
export function openAiErrorKind(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: "invalid_request_error", code: "invalid_api_key" };
  if (status === 403) {
    return { type: "invalid_request_error", code: "unsupported_country_region_territory" };
  }
  if (status === 404) return { type: "invalid_request_error", code: "model_not_found" };
  if (status === 429) return { type: "requests", code: "rate_limit_exceeded" };
  if (status >= 500) return { type: "server_error", code: null };
  return { type: "invalid_request_error", code: null };
}
