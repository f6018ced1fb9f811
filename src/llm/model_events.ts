/**
 * The contract between the engine and a model client: one streamed request in,
 * a sequence of {@link ModelEvent}s out.
 *
 * - A client already retries (see `providers/retry.ts`); a `retry` event says
 *   that everything streamed since the last `retry` (or the start) is void.
 * - The stream ends with exactly one `done` event carrying the complete
 *   message, or it throws: a `ProviderError` after the retries, or the
 *   signal's reason when the request was aborted.
 *
 * @module
 */

import type { AssistantMessage, Message } from "./messages.ts";

/** A tool as the model sees it. `parameters` is a JSON Schema object. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** One request to a model. */
export interface ModelRequest {
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
}

/** What a model client streams back. */
export type ModelEvent =
  | { readonly type: "text_delta"; readonly text: string }
  | { readonly type: "thinking_delta"; readonly text: string }
  | {
    readonly type: "retry";
    /** The attempt that failed, from 1. */
    readonly attempt: number;
    readonly delayMs: number;
    readonly error: string;
  }
  | { readonly type: "done"; readonly message: AssistantMessage };

/** A model bound to its provider, key and settings. */
export interface ModelClient {
  /** The `provider/model` reference this client answers for. */
  readonly ref: string;
  /** Streams one response; see the module doc for the ending rules. */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
}
