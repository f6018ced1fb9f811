/**
 * Model clients: a wire protocol, its endpoint and key, and the retry policy,
 * bound together behind the engine's `ModelClient` contract.
 *
 * - One file per wire protocol (`openai_chat.ts`, `openai_responses.ts`,
 *   `anthropic.ts`), each built from the shared parts: `request.ts`
 *   (POST + SSE), `sse.ts`, `http_errors.ts` and `tool_arguments.ts`.
 * - `presets.ts` knows the built-in providers; `thinking.ts` maps reasoning
 *   levels to each protocol's fields.
 * - Every request is retried by `retry.ts` (5 attempts, 0.5 s doubling to
 *   8 s with jitter); a `retry` event voids the partial answer before it.
 * - No vendor SDKs; `User-Agent: rienda/<version>` on every request.
 *
 * See `docs/providers.md` (retries, errors).
 *
 * @module
 */

import type { ModelClient, ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { streamAnthropic } from "./anthropic.ts";
import { streamChatCompletions } from "./openai_chat.ts";
import { streamResponses } from "./openai_responses.ts";
import type { ProtocolAttempt, ProtocolOptions } from "./protocol.ts";
import { isCredentialHeader } from "../secrets/secret_names.ts";
import type { SecretSet } from "../secrets/secrets.ts";
import { ProviderError } from "./http_errors.ts";
import { retryingStream, type RetryPolicy, type Sleep } from "./retry.ts";

/** The wire protocols a provider may speak (config.yaml `protocol`). */
export type WireProtocol = "openai_chat_completions" | "openai_responses" | "anthropic";

/** Everything a client needs: the model, its endpoint and key, its settings. */
export interface ModelClientOptions extends ProtocolOptions {
  /** The `provider/model` reference, as the user wrote it. */
  readonly ref: string;
  readonly protocol: WireProtocol;
  /** Overrides of the retry policy (tests shorten the waits). */
  readonly retry?: Partial<RetryPolicy>;
  /** The wait between attempts (tests inject a fake). */
  readonly sleep?: Sleep;
}

/** Thrown when a protocol is known but has no implementation yet. */
export class UnsupportedProtocolError extends Error {
  /** Creates the error for `protocol`. */
  constructor(readonly protocol: string) {
    super(
      `protocol "${protocol}" is not supported yet (supported: ${
        SUPPORTED_PROTOCOLS.join(", ")
      }); set the provider's "protocol" to one of them`,
    );
    this.name = "UnsupportedProtocolError";
  }
}

/** The protocols this build can speak. */
export const SUPPORTED_PROTOCOLS: readonly WireProtocol[] = [
  "openai_chat_completions",
  "openai_responses",
  "anthropic",
];

function attemptFor(protocol: WireProtocol): ProtocolAttempt {
  switch (protocol) {
    case "openai_chat_completions":
      return streamChatCompletions;
    case "openai_responses":
      return streamResponses;
    case "anthropic":
      return streamAnthropic;
    default: {
      const unknownProtocol: never = protocol;
      throw new UnsupportedProtocolError(String(unknownProtocol));
    }
  }
}

/**
 * A client for one model that streams each request with retries. Its key
 * and credential headers are remembered into `secrets` (the run's), and
 * every failure and retry notice it streams is masked with them.
 *
 * @throws {UnsupportedProtocolError} when the protocol has no implementation
 */
export function createModelClient(options: ModelClientOptions, secrets: SecretSet): ModelClient {
  const attempt = options.protocol === "openai_responses"
    ? responsesWithHint(options.ref.split("/")[0] ?? options.ref)
    : attemptFor(options.protocol);
  secrets.remember(options.apiKey);
  for (const [name, value] of Object.entries(options.headers)) {
    if (isCredentialHeader(name)) secrets.remember(value);
  }
  return {
    ref: options.ref,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      const events = retryingStream(() => attempt(options, request, signal), {
        signal,
        ...options.retry,
        ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
      });
      return maskedFailures(events, secrets);
    },
  };
}

/**
 * `events` with every secret masked in their failures: a retry notice's
 * error and a thrown {@link ProviderError}'s message (providers echo keys in
 * a 401 body or an error event).
 */
async function* maskedFailures(
  events: AsyncIterable<ModelEvent>,
  secrets: SecretSet,
): AsyncGenerator<ModelEvent> {
  try {
    for await (const event of events) {
      yield event.type === "retry" ? { ...event, error: secrets.mask(event.error) } : event;
    }
  } catch (error) {
    if (error instanceof ProviderError) error.message = secrets.mask(error.message);
    throw error;
  }
}

/**
 * The Responses API, whose 404 from a server that is not OpenAI's says what
 * most likely went wrong: the server (a gateway, a local server) only speaks
 * chat completions.
 */
function responsesWithHint(provider: string): ProtocolAttempt {
  return async function* (options, request, signal) {
    try {
      yield* streamResponses(options, request, signal);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.status !== 404 || isOpenAi(options.baseUrl)) {
        throw error;
      }
      throw new ProviderError(
        error.kind,
        `${error.message}: this server may only speak chat completions: set protocol: openai_chat_completions for provider ${provider}`,
        { status: 404, cause: error },
      );
    }
  };
}

function isOpenAi(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}
