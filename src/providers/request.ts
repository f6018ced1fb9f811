/**
 * The HTTP part every wire protocol shares: one JSON `POST`, its status
 * checked, its body read as server-sent events. Failures leave here as
 * {@link ProviderError}s, or as the signal's reason once it is aborted.
 *
 * - Redirects are followed within the provider's origin only; one to another
 *   origin is refused (`host/redirects.ts`), so neither the key nor the
 *   conversation goes anywhere else.
 * - Two timeouts, each a retryable `timeout` error: the response must start
 *   within `timeoutMs` ({@link DEFAULT_TIMEOUT_MS}), and the stream may not
 *   fall silent for `streamIdleTimeoutMs` ({@link DEFAULT_STREAM_IDLE_TIMEOUT_MS}).
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
  shownUrl,
} from "./http_errors.ts";
import {
  fetchFollowingRedirects,
  type RedirectedResponse,
  RedirectError,
} from "../host/redirects.ts";
import { readAtMost } from "../host/read_at_most.ts";
import { readSse, SseLimitError, type SseLimits, type SseMessage } from "./sse.ts";
import { VERSION } from "../base/version.ts";

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
  /** @default {DEFAULT_TIMEOUT_MS} */
  readonly timeoutMs?: number | undefined;
  /** @default {DEFAULT_STREAM_IDLE_TIMEOUT_MS} */
  readonly streamIdleTimeoutMs?: number | undefined;
}

/** How long the response may take to start (headers, redirects included), in ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** How long a streamed response may stay silent, in ms. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

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

async function send(request: SseRequest, signal: AbortSignal): Promise<RedirectedResponse> {
  try {
    return await fetchFollowingRedirects(new URL(request.url), {
      method: "POST",
      headers: request.headers,
      body: JSON.stringify(request.body),
      signal,
    }, { crossOrigin: { kind: "refuse" }, ...(request.fetch ? { fetch: request.fetch } : {}) });
  } catch (cause) {
    signal.throwIfAborted();
    if (cause instanceof RedirectError) throw redirectError(cause);
    // A fetch failing with a ProviderError (a replayed timeout, docs/testing.md) has said what happened.
    if (cause instanceof ProviderError) throw cause;
    throw networkError(cause, request.url);
  }
}

/** The error for a redirect that is not followed. */
function redirectError(cause: RedirectError): ProviderError {
  if (cause.to === null || cause.to.origin === cause.from.origin) {
    return new ProviderError("redirect", `the provider ${cause.message}`, { cause });
  }
  return new ProviderError(
    "redirect",
    `the provider redirected ${shownUrl(cause.from.href)} to ${shownUrl(cause.to.href)}, ` +
      `another origin: rienda sends neither the key nor the conversation there ` +
      `(set base_url to the new address if it is right)`,
    { cause },
  );
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Passes the body through, calling `onIdle` once no chunk has come for `ms`;
 * `stop` ends the watch.
 */
function idleWatch(ms: number, onIdle: () => void) {
  let timer = setTimeout(onIdle, ms);
  const stop = () => clearTimeout(timer);
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      clearTimeout(timer);
      timer = setTimeout(onIdle, ms);
      controller.enqueue(chunk);
    },
    flush: stop,
  });
  return { stream, stop };
}

/** The most bytes of an error body (or of a JSON answer) rienda reads. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The start of a body as text: at most `maxBytes` are read (`host/read_at_most.ts`),
 * so an endless error page never fills memory. A body that breaks off reads as
 * empty.
 */
async function bodyStart(response: Response, signal: AbortSignal, maxBytes: number) {
  try {
    const { bytes } = await readAtMost(response.body, maxBytes);
    return new TextDecoder().decode(bytes);
  } catch {
    signal.throwIfAborted();
    return "";
  }
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
 * @throws {ProviderError} for a network failure, a refused redirect, a
 * timeout, a non-2xx status (with its `retry-after`), an HTML page, a body
 * that breaks off or passes the limits of `sse.ts`; the signal's reason on abort
 */
export async function* postSse(
  request: SseRequest,
  signal: AbortSignal,
): AsyncGenerator<SseMessage> {
  signal.throwIfAborted();
  // Aborted by a timeout with its ProviderError as the reason; the caller's signal still counts.
  const attempt = new AbortController();
  const attemptSignal = AbortSignal.any([signal, attempt.signal]);
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const idleMs = request.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  const startTimer = setTimeout(() => {
    const message = `no response from ${shownUrl(request.url)} within ${duration(timeoutMs)} ` +
      `(the provider's timeout_ms)`;
    attempt.abort(new ProviderError("timeout", message));
  }, timeoutMs);
  let stopIdleWatch = () => {};
  try {
    const { response, url } = await send(request, attemptSignal);
    const contentType = response.headers.get("content-type");
    if (!response.ok) {
      const retryAfterMs = retryAfterMsFrom(response.headers);
      throw errorFromResponse({
        status: response.status,
        statusText: response.statusText,
        url: url.href,
        contentType,
        body: await bodyStart(response, attemptSignal, MAX_ERROR_BODY_BYTES),
        retryAfterMs,
      });
    }
    if (isHtmlResponse(contentType)) {
      await response.body?.cancel().catch(() => {});
      throw htmlAnswerError(response.status, url.href);
    }
    if (contentType?.includes("application/json")) {
      throw await jsonAnswerError(response, attemptSignal);
    }
    clearTimeout(startTimer);
    if (response.body === null) throw cutStreamError();
    const watch = idleWatch(idleMs, () => {
      const message = `the stream stalled: no data for ${duration(idleMs)} ` +
        `(the provider's stream_idle_timeout_ms)`;
      attempt.abort(new ProviderError("timeout", message));
    });
    stopIdleWatch = watch.stop;
    yield* readSse(response.body.pipeThrough(watch.stream), attemptSignal, request.limits ?? {});
  } catch (cause) {
    signal.throwIfAborted();
    if (attempt.signal.aborted) throw attempt.signal.reason;
    if (cause instanceof ProviderError) throw cause;
    if (cause instanceof SseLimitError) {
      throw new ProviderError("too_large", cause.message, { cause });
    }
    throw cutStreamError(cause);
  } finally {
    clearTimeout(startTimer);
    stopIdleWatch();
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

/** Where a protocol sends its request, and how long it waits. */
export interface Endpoint {
  readonly baseUrl: string;
  readonly timeoutMs?: number;
  readonly streamIdleTimeoutMs?: number;
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
    timeoutMs: endpoint.timeoutMs,
    streamIdleTimeoutMs: endpoint.streamIdleTimeoutMs,
    ...(endpoint.fetch === undefined ? {} : { fetch: endpoint.fetch }),
  }, signal);
  for await (const message of messages) {
    const data = message.data.trim();
    if (data === "") continue;
    yield data === "[DONE]" ? SSE_DONE : parseSseJson(data);
  }
}
