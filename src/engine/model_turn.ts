/**
 * One model turn: stream a request, forward live deltas and retries as run
 * events, and return the complete assistant message.
 *
 * @module
 */

import type { AssistantMessage } from "../llm/messages.ts";
import type { ModelClient, ModelRequest } from "../llm/model_events.ts";
import type { EventSink } from "./events.ts";

/** Options of {@link streamModelTurn}. */
export interface ModelTurnOptions {
  readonly model: ModelClient;
  readonly request: ModelRequest;
  readonly emit: EventSink;
  readonly signal: AbortSignal;
  /** Withhold text and thinking deltas (an `afterModelResponse` hook may rewrite them). */
  readonly withholdDeltas: boolean;
}

/**
 * Streams one response and returns it.
 *
 * @throws the client's error after its retries, or the signal's reason
 */
export async function streamModelTurn(options: ModelTurnOptions): Promise<AssistantMessage> {
  const { model, request, emit, signal, withholdDeltas } = options;
  for await (const event of model.stream(request, signal)) {
    signal.throwIfAborted();
    switch (event.type) {
      case "text_delta":
      case "thinking_delta":
        if (!withholdDeltas && event.text !== "") emit(event);
        break;
      case "retry":
        emit(event);
        break;
      case "done":
        return event.message;
      default: {
        const unexpected: never = event;
        throw new Error(`unexpected model event ${JSON.stringify(unexpected)}`);
      }
    }
  }
  signal.throwIfAborted();
  throw new Error("the model stream ended without a response");
}
