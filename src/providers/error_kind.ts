/**
 * What a provider failure is, and whether sending the request again may help
 * (docs/providers.md, Errors and retries).
 *
 * A failure is classified by the most specific thing the provider said:
 *
 * 1. its error `code` or `type`, when it names the failure
 *    (`invalid_api_key`, `authentication_error`, `overloaded_error`,
 *    `rate_limit_exceeded`, `insufficient_quota`, …);
 * 2. else the HTTP status (429 rate limit, 503/529 overloaded, other 5xx
 *    server, 501 and 505 not retried, 401/403 auth, …);
 * 3. else, for an error inside a stream (no status), a category type
 *    (`invalid_request_error`, `api_error`, `server_error`);
 * 4. and only for a client error (a 400, a 413, or an in-stream
 *    `invalid_request_error`), the message text as a last hint that the
 *    prompt was too long (`context_length`).
 *
 * So a 429 "Too many tokens, please wait" is a rate limit (retried), and an
 * in-stream `authentication_error` is not retried.
 *
 * @module
 */

/** Every kind of provider failure. */
export const PROVIDER_ERROR_KINDS = [
  "auth",
  "quota",
  "rate_limit",
  "overloaded",
  "server",
  "timeout",
  "bad_request",
  "context_length",
  "not_found",
  "not_api",
  "redirect",
  "too_large",
  "network",
  "cut_stream",
  "empty",
] as const;

/** What went wrong, normalised across providers. */
export type ProviderErrorKind = typeof PROVIDER_ERROR_KINDS[number];

/** Whether `value` names a {@link ProviderErrorKind}. */
export function isProviderErrorKind(value: unknown): value is ProviderErrorKind {
  return PROVIDER_ERROR_KINDS.some((kind) => kind === value);
}

/** Whether a failure of this kind may succeed when sent again. */
export function isRetryableKind(kind: ProviderErrorKind): boolean {
  switch (kind) {
    case "rate_limit":
    case "overloaded":
    case "server":
    case "timeout":
    case "network":
    case "cut_stream":
    case "empty":
      return true;
    case "auth":
    case "quota":
    case "bad_request":
    case "context_length":
    case "not_found":
    case "not_api":
    case "redirect":
    case "too_large":
      return false;
    default: {
      const unknownKind: never = kind;
      throw new TypeError(`unknown provider error kind "${String(unknownKind)}"`);
    }
  }
}

/** What an error payload says, whichever provider shaped it. */
export interface ErrorDetails {
  readonly message?: string;
  /** A string `code` (OpenAI: `invalid_api_key`, `context_length_exceeded`, …). */
  readonly code?: string;
  /** The error `type` (Anthropic: `overloaded_error`; OpenAI: `invalid_request_error`, …). */
  readonly type?: string;
}

/** Error codes and types that name a failure, by kind; codes are looked up before types. */
const KIND_OF_NAME: Readonly<Record<string, ProviderErrorKind>> = {
  "invalid_api_key": "auth",
  "authentication_error": "auth",
  "permission_error": "auth",
  "permission_denied": "auth",
  "unauthorized": "auth",
  "insufficient_quota": "quota",
  "billing_error": "quota",
  "billing_hard_limit_reached": "quota",
  "rate_limit_error": "rate_limit",
  "rate_limit_exceeded": "rate_limit",
  "overloaded_error": "overloaded",
  "server_is_overloaded": "overloaded",
  "timeout_error": "timeout",
  "not_found_error": "not_found",
  "model_not_found": "not_found",
  "context_length_exceeded": "context_length",
  "request_too_large": "bad_request",
};

/**
 * Category types that vendors put on many failures (OpenAI sends
 * `invalid_request_error` with a 401 and a 404): they decide only when there
 * is no status, inside a stream.
 */
const KIND_OF_CATEGORY: Readonly<Record<string, ProviderErrorKind>> = {
  "invalid_request_error": "bad_request",
  "api_error": "server",
  "server_error": "server",
  "internal_error": "server",
};

const CONTEXT_LENGTH_NAME_REGEXP = /context_length|context_window|too_long|max_tokens_exceeded/i;
const CONTEXT_LENGTH_MESSAGE_REGEXP =
  /context[ _-]?(length|window)|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds? the (model's )?(maximum )?(context|token limit)/i;

/** The kind an HTTP error status stands for. */
export function kindFromStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "quota";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limit";
  // 529 is Anthropic's "overloaded"; 503 is the generic form of the same.
  if (status === 529 || status === 503) return "overloaded";
  // 501 Not Implemented and 505 HTTP Version Not Supported answer the same every time.
  if (status === 501 || status === 505) return "bad_request";
  if (status === 408 || status === 409 || status >= 500) return "server";
  return "bad_request";
}

function kindFromName(
  details: ErrorDetails,
  table: Readonly<Record<string, ProviderErrorKind>>,
): ProviderErrorKind | undefined {
  for (const name of [details.code, details.type]) {
    if (name === undefined) continue;
    if (Object.hasOwn(table, name)) return table[name];
    if (table === KIND_OF_NAME && CONTEXT_LENGTH_NAME_REGEXP.test(name)) return "context_length";
  }
  return undefined;
}

/**
 * The kind of a failure: its code or type first, then its status, then its
 * category, then (for a client error only) a hint in its message.
 * `fallback` is the kind when none of these says anything (an unnamed
 * in-stream error).
 *
 * @example
 * ```ts
 * classifyError({ message: "Too many tokens, please wait" }, 429, "server"); // "rate_limit"
 * classifyError({ type: "authentication_error" }, undefined, "server"); // "auth"
 * ```
 */
export function classifyError(
  details: ErrorDetails,
  status: number | undefined,
  fallback: ProviderErrorKind,
): ProviderErrorKind {
  const kind = kindFromName(details, KIND_OF_NAME) ??
    (status === undefined
      ? kindFromName(details, KIND_OF_CATEGORY) ?? fallback
      : kindFromStatus(status));
  const clientError = status === undefined || status === 400 || status === 413;
  if (
    kind === "bad_request" && clientError && details.message !== undefined &&
    CONTEXT_LENGTH_MESSAGE_REGEXP.test(details.message)
  ) {
    return "context_length";
  }
  return kind;
}
