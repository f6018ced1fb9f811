/**
 * Provider failures as one error type: HTTP statuses, error bodies, error
 * chunks in a stream and network failures become a {@link ProviderError}
 * whose `kind` says what happened and whose `retryable` follows from the kind.
 *
 * Messages carry the provider's own words, never a key:
 * `Incorrect API key provided (status 401)`, `status 503 Service Unavailable`,
 * `cannot reach http://127.0.0.1:11434: tcp connect error: Connection refused`.
 *
 * @module
 */

import { isRecord, numberAt, recordAt, stringAt } from "./wire_json.ts";

/** What went wrong, normalised across providers. */
export type ProviderErrorKind =
  | "auth"
  | "rate_limit"
  | "overloaded"
  | "server"
  | "bad_request"
  | "context_length"
  | "network"
  | "cut_stream"
  | "empty"
  | "not_found";

/** Whether a failure of this kind may succeed when sent again (docs/providers.md: Retries). */
export function isRetryableKind(kind: ProviderErrorKind): boolean {
  switch (kind) {
    case "rate_limit":
    case "overloaded":
    case "server":
    case "network":
    case "cut_stream":
    case "empty":
      return true;
    case "auth":
    case "bad_request":
    case "context_length":
    case "not_found":
      return false;
    default: {
      const unknownKind: never = kind;
      throw new TypeError(`unknown provider error kind "${String(unknownKind)}"`);
    }
  }
}

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
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.kind = kind;
    this.retryable = isRetryableKind(kind);
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

const MAX_BODY_CHARS = 500;
const CONTEXT_LENGTH_CODE_REGEXP = /context_length|context_window|too_long|max_tokens_exceeded/i;
const CONTEXT_LENGTH_MESSAGE_REGEXP =
  /context[ _-]?(length|window)|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds? the (model's )?(maximum )?(context|token limit)/i;

/** The kind an HTTP error status stands for. */
export function kindFromStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limit";
  // 529 is Anthropic's "overloaded"; 503 is the generic form of the same.
  if (status === 529 || status === 503) return "overloaded";
  if (status === 408 || status === 409 || status >= 500) return "server";
  return "bad_request";
}

/** What an error payload says, whichever provider shaped it. */
interface ErrorDetails {
  readonly message?: string;
  readonly code?: string;
  readonly type?: string;
  /** A numeric `code` some gateways put in stream error chunks (an HTTP status). */
  readonly statusCode?: number;
}

/**
 * Reads `{error: {message, type, code}}` (OpenAI), `{type: "error", error:
 * {type, message}}` (Anthropic), `{error: "text"}` (ollama), `{message}` and a
 * one-element array of these.
 */
function errorDetails(payload: unknown): ErrorDetails {
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
    ...(message?.trim() ? { message: message.trim() } : {}),
    ...(code === undefined ? {} : { code }),
    ...(type === undefined || type === "error" ? {} : { type }),
    ...(statusCode === undefined ? {} : { statusCode }),
  };
}

function isContextLength(details: ErrorDetails): boolean {
  const codes = [details.code, details.type].filter((text) => text !== undefined);
  if (codes.some((text) => CONTEXT_LENGTH_CODE_REGEXP.test(text))) return true;
  return details.message !== undefined && CONTEXT_LENGTH_MESSAGE_REGEXP.test(details.message);
}

function kindFromDetails(details: ErrorDetails, fallback: ProviderErrorKind): ProviderErrorKind {
  if (isContextLength(details)) return "context_length";
  if (details.type === "overloaded_error") return "overloaded";
  if (details.type === "rate_limit_error") return "rate_limit";
  return fallback;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function capped(text: string): string {
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}…` : text;
}

/**
 * The error for a non-2xx response: the provider's message (or the trimmed
 * body, or the status text) followed by the status.
 *
 * @example
 * ```ts
 * const error = errorFromResponse(401, "Unauthorized", '{"error":{"message":"bad key"}}');
 * // error.message === "bad key (status 401)", error.kind === "auth"
 * ```
 */
export function errorFromResponse(
  status: number,
  statusText: string,
  bodyText: string,
  options: { readonly retryAfterMs?: number } = {},
): ProviderError {
  const details = errorDetails(parseJson(bodyText));
  const text = details.message ?? bodyText.trim();
  const message = text === ""
    ? `status ${status} ${statusText}`.trim()
    : `${capped(text)} (status ${status})`;
  return new ProviderError(kindFromDetails(details, kindFromStatus(status)), message, {
    status,
    ...options,
  });
}

/**
 * The error for an error object sent inside a stream (an `{"error": …}` chunk
 * or an Anthropic `error` event); retryable unless it names a client error.
 */
export function errorFromStreamPayload(payload: unknown): ProviderError {
  const details = errorDetails(payload);
  const status = details.statusCode !== undefined && details.statusCode >= 400 &&
      details.statusCode < 600
    ? details.statusCode
    : undefined;
  const text = capped(details.message ?? "the provider reported an error in the stream");
  const message = status === undefined ? text : `${text} (status ${status})`;
  const kind = kindFromDetails(details, status === undefined ? "server" : kindFromStatus(status));
  return new ProviderError(kind, message, status === undefined ? {} : { status });
}

const REQUEST_PREFIX_REGEXP =
  /^error sending request for url \([^)]*\): (client error \([^)]*\): )?/;

function innermostMessage(cause: unknown): string {
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
