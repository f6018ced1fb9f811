/**
 * Provider failures as one error type: HTTP statuses, error bodies, error
 * chunks in a stream and network failures become a {@link ProviderError}
 * whose `kind` says what happened and whose `retryable` follows from the kind.
 *
 * Messages carry the provider's own words, never a key (the model client
 * masks them with the run's secrets, `client.ts`):
 * `Incorrect API key provided (status 401)`, `status 503 Service Unavailable`,
 * `cannot reach http://127.0.0.1:11434: tcp connect error: Connection refused`.
 *
 * @module
 */

import {
  classifyError,
  type ErrorDetails,
  isRetryableKind,
  kindFromStatus,
  type ProviderErrorKind,
} from "./error_kind.ts";
import { isRecord, numberAt, recordAt, stringAt } from "./wire_json.ts";

export { isRetryableKind, type ProviderErrorKind } from "./error_kind.ts";

/** Options of a {@link ProviderError}. */
export interface ProviderErrorOptions {
  /** The HTTP status, when the failure came with one. */
  readonly status?: number;
  /** The wait the provider asked for (`retry-after`), in milliseconds. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

/** A failed model request; `retryable` is derived from `kind`. */
export class ProviderError extends Error {
  /** What went wrong. */
  readonly kind: ProviderErrorKind;
  /** The HTTP status, when there was one. */
  readonly status?: number;
  /** Whether sending the same request again may succeed. */
  readonly retryable: boolean;
  /** The wait the provider asked for before a retry, in milliseconds. */
  readonly retryAfterMs?: number;

  /** Creates an error of the given kind. */
  constructor(kind: ProviderErrorKind, message: string, options: ProviderErrorOptions = {}) {
    // Providers echo keys (a 401 body, an error event): the model client masks the
    // message with the run's secrets before it leaves the client (`client.ts`).
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.kind = kind;
    this.retryable = isRetryableKind(kind);
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

const MAX_BODY_CHARS = 500;

/**
 * Reads `{error: {message, type, code}}` (OpenAI), `{type: "error", error:
 * {type, message}}` (Anthropic), `{error: "text"}` (ollama), `{message}` and a
 * one-element array of these; a numeric `code` (some gateways put the HTTP
 * status there) is returned as `statusCode`.
 */
function errorDetails(payload: unknown): ErrorDetails & { readonly statusCode?: number } {
  const value = Array.isArray(payload) ? payload[0] : payload;
  if (!isRecord(value)) return {};
  const inner = recordAt(value, "error");
  const source = inner ?? value;
  const message = stringAt(source, "message") ??
    (typeof value.error === "string" ? value.error : undefined);
  const code = stringAt(source, "code");
  const type = stringAt(source, "type") ?? (inner ? undefined : stringAt(value, "type"));
  const statusCode = numberAt(source, "code");
  return {
    ...(message?.trim() ? { message: oneLine(message) } : {}),
    ...(code === undefined ? {} : { code }),
    ...(type === undefined || type === "error" ? {} : { type }),
    ...(statusCode === undefined ? {} : { statusCode }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The text on one line (runs of white space become one space), capped. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_BODY_CHARS ? `${line.slice(0, MAX_BODY_CHARS)}…` : line;
}

const HTML_TYPE_REGEXP = /^\s*(text\/html|application\/xhtml\+xml)\b/i;
const HTML_BODY_REGEXP = /^\s*<(!doctype\s+html|html|head|body|title)[\s>]/i;

/** Whether a response is an HTML page, by its content type or by how its body starts. */
export function isHtmlResponse(contentType: string | null, body = ""): boolean {
  return HTML_TYPE_REGEXP.test(contentType ?? "") || HTML_BODY_REGEXP.test(body);
}

/** A URL as messages show it: origin and path, never user info or a query (which may hold a key). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "the provider";
  }
}

/** The one line that stands for an HTML page: `HTTP 502 from https://host/path (an HTML page, …)`. */
function htmlPageMessage(status: number, url: string): string {
  return `HTTP ${status} from ${shownUrl(url)} (an HTML page, not an API response)`;
}

/** What {@link errorFromResponse} needs of a non-2xx response. */
export interface ErrorResponse {
  readonly status: number;
  readonly statusText: string;
  /** The URL that answered (after redirects). */
  readonly url: string;
  readonly contentType: string | null;
  /** The start of the body (error bodies are read only so far). */
  readonly body: string;
  /** The wait the provider asked for (`retry-after`), in milliseconds. */
  readonly retryAfterMs?: number | undefined;
}

/**
 * The error for a non-2xx response: the provider's message (or the body on
 * one line, or the status text) followed by the status; an HTML page is one
 * line naming the URL instead of its markup.
 *
 * @example
 * ```ts
 * const error = errorFromResponse({
 *   status: 401, statusText: "Unauthorized", url: "https://api.example.com/v1/messages",
 *   contentType: "application/json", body: '{"error":{"message":"bad key"}}',
 * });
 * // error.message === "bad key (status 401)", error.kind === "auth"
 * ```
 */
export function errorFromResponse(response: ErrorResponse): ProviderError {
  const { status, statusText, body } = response;
  const options = {
    status,
    ...(response.retryAfterMs === undefined ? {} : { retryAfterMs: response.retryAfterMs }),
  };
  if (isHtmlResponse(response.contentType, body)) {
    return new ProviderError(
      kindFromStatus(status),
      htmlPageMessage(status, response.url),
      options,
    );
  }
  const details = errorDetails(parseJson(body));
  const text = details.message ?? oneLine(body);
  const message = text === ""
    ? `status ${status} ${statusText}`.trim()
    : `${text} (status ${status})`;
  return new ProviderError(classifyError(details, status, "server"), message, options);
}

/**
 * The error for a 2xx answer that is an HTML page (a captive portal or a
 * proxy's login page): not retried, as the same page would come back.
 */
export function htmlAnswerError(status: number, url: string): ProviderError {
  return new ProviderError(
    "not_api",
    `${htmlPageMessage(status, url)}: check base_url, or sign in to the network ` +
      `(a captive portal answers like this)`,
    { status },
  );
}

/**
 * The error for an error object sent inside a stream (an `{"error": …}` chunk
 * or an Anthropic `error` event), classified like an HTTP error; an unnamed
 * error without a status is taken as a retryable server error.
 */
export function errorFromStreamPayload(payload: unknown): ProviderError {
  const details = errorDetails(payload);
  const status = details.statusCode !== undefined && details.statusCode >= 400 &&
      details.statusCode < 600
    ? details.statusCode
    : undefined;
  const text = details.message ?? "the provider reported an error in the stream";
  const message = status === undefined ? text : `${text} (status ${status})`;
  const kind = classifyError(details, status, "server");
  return new ProviderError(kind, message, status === undefined ? {} : { status });
}

const REQUEST_PREFIX_REGEXP =
  /^error sending request for url \([^)]*\): (client error \([^)]*\): )?/;

/** The message of the innermost cause of a thrown value, without fetch's `error sending request for url (…)` prefix. */
export function innermostMessage(cause: unknown): string {
  let current = cause;
  let message = "";
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message.replace(REQUEST_PREFIX_REGEXP, "") || String(cause);
}

/** The error for a request that never got a response: `cannot reach <origin>: <reason>`. */
export function networkError(cause: unknown, url: string): ProviderError {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // Keep the text as given: the reason below says what is wrong with it.
  }
  return new ProviderError("network", `cannot reach ${origin}: ${innermostMessage(cause)}`, {
    cause,
  });
}

/** The error for a stream that stopped before the response was complete. */
export function cutStreamError(cause?: unknown): ProviderError {
  const reason = cause === undefined ? "" : `: ${innermostMessage(cause)}`;
  return new ProviderError(
    "cut_stream",
    `the stream ended before the response was complete${reason}`,
    cause === undefined ? {} : { cause },
  );
}

const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
const SECONDS_REGEXP = /^\d+(\.\d+)?$/;

/**
 * The wait a response asks for, from `retry-after-ms` or `retry-after`
 * (seconds or an HTTP date); undefined when absent or unreadable.
 */
export function retryAfterMsFrom(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) {
    return Math.min(Math.round(milliseconds), MAX_RETRY_AFTER_MS);
  }
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (SECONDS_REGEXP.test(value)) {
    return Math.min(Math.round(Number.parseFloat(value) * 1000), MAX_RETRY_AFTER_MS);
  }
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}
