/**
 * What every wire protocol file takes and gives: {@link ProtocolOptions} in,
 * one attempt's {@link ModelEvent}s out (retries are `retry.ts`'s job).
 *
 * @module
 */

import type { ModelEvent, ModelRequest } from "../llm/model_events.ts";

/** A model's endpoint, key and settings, as a wire protocol needs them. */
export interface ProtocolOptions {
  /** The API root, e.g. `https://api.openai.com/v1` (a trailing slash is fine). */
  readonly baseUrl: string;
  /** The API key; null for servers without one (ollama, lmstudio). */
  readonly apiKey: string | null;
  /** Extra headers from the provider's configuration; they win over rienda's own. */
  readonly headers: Readonly<Record<string, string>>;
  /** The model id on the wire. */
  readonly modelId: string;
  readonly maxTokens?: number;
  /**
   * The chat completions field that carries `maxTokens` (OpenAI's reasoning
   * models want `max_completion_tokens`). @default {"max_tokens"}
   */
  readonly maxTokensField?: "max_tokens" | "max_completion_tokens";
  readonly temperature?: number;
  readonly topP?: number;
  /** The reasoning level (`low`, `medium`, `high` or a model's own); absent or `off` sends none. */
  readonly thinking?: string;
  /** The longest wait for the response to start, in ms. @default {DEFAULT_TIMEOUT_MS} */
  readonly timeoutMs?: number;
  /** The longest silence inside the stream, in ms. @default {DEFAULT_STREAM_IDLE_TIMEOUT_MS} */
  readonly streamIdleTimeoutMs?: number;
  /** The fetch to use; the global one by default (tests inject a fake). */
  readonly fetch?: typeof fetch;
}

/** One attempt of one request in one wire protocol. */
export type ProtocolAttempt = (
  options: ProtocolOptions,
  request: ModelRequest,
  signal: AbortSignal,
) => AsyncGenerator<ModelEvent>;

/** The reasoning level to send, or undefined when thinking is off. */
export function thinkingLevel(options: ProtocolOptions): string | undefined {
  const level = options.thinking?.trim();
  return level === undefined || level === "" || level === "off" ? undefined : level;
}
