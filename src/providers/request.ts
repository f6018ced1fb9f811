/**
 * The HTTP part every wire protocol shares: one JSON `POST`, its status
 * checked, its body read as server-sent events. Failures leave here as
 * {@link ProviderError}s, or as the signal's reason once it is aborted.
 *
 * @module
 */

import {
  cutStreamError,
  errorFromResponse,
  errorFromStreamPayload,
  networkError,
  ProviderError,
  retryAfterMsFrom,
} from "./http_errors.ts";
import { readSse, type SseMessage } from "./sse.ts";
import { VERSION } from "../version.ts";

/** One streamed request, ready to send. */
export interface SseRequest {
  readonly url: string;
  readonly headers: Headers;
  /** Sent as JSON. */
  readonly body: unknown;
  /** The fetch to use; the global one by default (tests inject a fake). */
  readonly fetch?: typeof fetch;
}

/** `{baseUrl}/{path}` with exactly one slash between them. */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/**
 * The headers of a streamed JSON request: `User-Agent`, `Content-Type` and
 * `Accept` first, then each layer in order (later names win, any case).
 */
export function requestHeaders(...layers: readonly Readonly<Record<string, string>>[]): Headers {
  const headers = new Headers({
    "user-agent": `rienda/${VERSION}`,
    "content-type": "application/json",
    "accept": "text/event-stream",
  });
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer)) headers.set(name, value);
  }
  return headers;
}

async function send(request: SseRequest, signal: AbortSignal): Promise<Response> {
  const fetchFunction = request.fetch ?? fetch;
  try {
    return await fetchFunction(request.url, {
      method: "POST",
      headers: request.headers,
      body: JSON.stringify(request.body),
      signal,
    });
  } catch (cause) {
    signal.throwIfAborted();
    throw networkError(cause, request.url);
  }
}

async function bodyText(response: Response, signal: AbortSignal): Promise<string> {
  try {
    return await response.text();
  } catch {
    signal.throwIfAborted();
    return "";
  }
}

/** The error for a 2xx answer that is JSON instead of an event stream. */
async function jsonAnswerError(response: Response, signal: AbortSignal): Promise<ProviderError> {
  const text = await bodyText(response, signal);
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    payload = undefined;
  }
  if (typeof payload === "object" && payload !== null && "error" in payload) {
    return errorFromStreamPayload(payload);
  }
  return new ProviderError(
    "bad_request",
    `the provider answered with JSON instead of an event stream (status ${response.status})`,
    { status: response.status },
  );
}

/**
 * Sends the request and yields the SSE messages of its body.
 *
 * @throws {ProviderError} for a network failure, a non-2xx status (with its
 * `retry-after`) or a body that breaks off; the signal's reason on abort
 */
export async function* postSse(
  request: SseRequest,
  signal: AbortSignal,
): AsyncGenerator<SseMessage> {
  signal.throwIfAborted();
  const response = await send(request, signal);
  if (!response.ok) {
    const text = await bodyText(response, signal);
    const retryAfterMs = retryAfterMsFrom(response.headers);
    throw errorFromResponse(
      response.status,
      response.statusText,
      text,
      retryAfterMs === undefined ? {} : { retryAfterMs },
    );
  }
  if (response.headers.get("content-type")?.includes("application/json")) {
    throw await jsonAnswerError(response, signal);
  }
  if (response.body === null) throw cutStreamError();
  try {
    yield* readSse(response.body, signal);
  } catch (cause) {
    signal.throwIfAborted();
    if (cause instanceof ProviderError) throw cause;
    throw cutStreamError(cause);
  }
}

const MAX_QUOTED_CHARS = 200;

/**
 * Parses the JSON `data` of one SSE message.
 *
 * @throws {ProviderError} kind `server` (retryable) when the data is not JSON
 */
export function parseSseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (cause) {
    const quoted = data.length > MAX_QUOTED_CHARS ? `${data.slice(0, MAX_QUOTED_CHARS)}…` : data;
    throw new ProviderError("server", `the provider sent an event that is not JSON: ${quoted}`, {
      cause,
    });
  }
}

/** The payload {@link postJsonEvents} yields for a `data: [DONE]` message. */
export const SSE_DONE: unique symbol = Symbol("[DONE]");

/** Where a protocol sends its request. */
export interface Endpoint {
  readonly baseUrl: string;
  readonly fetch?: typeof fetch;
}

/**
 * Posts `body` to `{baseUrl}/{path}` and yields the JSON payload of each SSE
 * message ({@link SSE_DONE} for `[DONE]`); messages with empty data are skipped.
 *
 * @throws {ProviderError} as {@link postSse}, and for data that is not JSON
 */
export async function* postJsonEvents(
  endpoint: Endpoint,
  path: string,
  request: { readonly headers: Headers; readonly body: unknown },
  signal: AbortSignal,
): AsyncGenerator<unknown> {
  const messages = postSse({
    url: endpointUrl(endpoint.baseUrl, path),
    headers: request.headers,
    body: request.body,
    ...(endpoint.fetch === undefined ? {} : { fetch: endpoint.fetch }),
  }, signal);
  for await (const message of messages) {
    const data = message.data.trim();
    if (data === "") continue;
    yield data === "[DONE]" ? SSE_DONE : parseSseJson(data);
  }
}
