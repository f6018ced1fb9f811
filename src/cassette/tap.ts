/**
 * What `--record` and `--replay` put between a run and its provider: a
 * {@link CassetteTap} builds each model client of the run, so every HTTP
 * exchange goes through it (docs/testing.md, "Where the cassette captures").
 *
 * @module
 */

import type { ModelClient } from "../llm/model_events.ts";
import type { ModelClientOptions } from "../providers/client.ts";
import { innermostMessage, ProviderError } from "../providers/http_errors.ts";
import type { RecordedError } from "./cassette_format.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** Builds the model clients of a recorded or replayed run. */
export interface CassetteTap {
  /**
   * The client of one resolved model, for a run of agent `agent`, with the
   * run's `secrets` (`createModelClient`; a recording is masked with them).
   */
  client(options: ModelClientOptions, agent: string, secrets: SecretSet): ModelClient;
}

/** A failure as the cassette keeps it: a provider error's kind and message, else the innermost message. */
export function recordedError(cause: unknown): RecordedError {
  return cause instanceof ProviderError
    ? { kind: cause.kind, message: cause.message }
    : { message: innermostMessage(cause) };
}

/** The failure a recorded one stands for, thrown again on replay. */
export function replayedError(error: RecordedError): Error {
  return error.kind === undefined
    ? new Error(error.message)
    : new ProviderError(error.kind, error.message);
}
