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
  htmlAnswerError,
  isHtmlResponse,
  networkError,
  ProviderError,
  retryAfterMsFrom,
} from "./http_errors.ts";
import { readSse, SseLimitError, type SseLimits, type SseMessage } from "./sse.ts";
import { VERSION } from "../version.ts";

/** One streamed request, ready to send. */
export interface SseRequest {
  readonly url: string;
  readonly headers: Headers;
  /** Sent as JSON. */
  readonly body: unknown;
  /** The fetch to use; the global one by default (tests inject a fake). */
  readonly fetch?: typeof fetch;
  /** Limits of the event stream (tests lower them). */
  readonly limits?: SseLimits;
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

/** The most bytes of an error body (or of a JSON answer) rienda reads. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The start of a body as text: at most `maxBytes` are read, then the body is
 * cancelled, so an endless error page never fills memory. A body that breaks
 * off gives what arrived.
 */
async function bodyStart(response: Response, signal: AbortSignal, maxBytes: number) {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, maxBytes - size);
      size += part.length;
      text += decoder.decode(part, { stream: true });
    }
  } catch {
    signal.throwIfAborted();
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text + decoder.decode();
}

/** The error for a 2xx answer that is JSON instead of an event stream. */
async function jsonAnswerError(response: Response, signal: AbortSignal): Promise<ProviderError> {
  const text = await bodyStart(response, signal, MAX_ERROR_BODY_BYTES);
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
 * `retry-after`), an HTML page, a body that breaks off or passes the limits
 * of `sse.ts`; the signal's reason on abort
 */
export async function* postSse(
  request: SseRequest,
  signal: AbortSignal,
): AsyncGenerator<SseMessage> {
  signal.throwIfAborted();
  const response = await send(request, signal);
  const contentType = response.headers.get("content-type");
  if (!response.ok) {
    const retryAfterMs = retryAfterMsFrom(response.headers);
    throw errorFromResponse({
      status: response.status,
      statusText: response.statusText,
      url: request.url,
      contentType,
      body: await bodyStart(response, signal, MAX_ERROR_BODY_BYTES),
      retryAfterMs,
    });
  }
  if (isHtmlResponse(contentType)) {
    await response.body?.cancel().catch(() => {});
    throw htmlAnswerError(response.status, request.url);
  }
  if (contentType?.includes("application/json")) {
    throw await jsonAnswerError(response, signal);
  }
  if (response.body === null) throw cutStreamError();
  try {
    yield* readSse(response.body, signal, request.limits ?? {});
  } catch (cause) {
    signal.throwIfAborted();
    if (cause instanceof ProviderError) throw cause;
    if (cause instanceof SseLimitError) {
      throw new ProviderError("too_large", cause.message, { cause });
    }
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
