import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  cutStreamError,
  errorFromResponse,
  errorFromStreamPayload,
  networkError,
  type ProviderErrorKind,
  retryAfterMsFrom,
} from "./http_errors.ts";

interface Row {
  readonly status: number;
  readonly body: string;
  readonly contentType?: string;
  readonly message: string;
  readonly kind: ProviderErrorKind;
  readonly retryable: boolean;
}

const OPENAI_BAD_KEY = JSON.stringify({
  error: {
    message: "Incorrect API key provided",
    type: "invalid_request_error",
    code: "invalid_api_key",
  },
});
const OPENAI_CONTEXT = JSON.stringify({
  error: {
    message: "This model's maximum context length is 128000 tokens.",
    type: "invalid_request_error",
    code: "context_length_exceeded",
  },
});
const ANTHROPIC_OVERLOADED = JSON.stringify({
  type: "error",
  error: { type: "overloaded_error", message: "Overloaded" },
});
const ANTHROPIC_TOO_LONG = JSON.stringify({
  type: "error",
  error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000" },
});

const TABLE: readonly Row[] = [
  {
    status: 401,
    body: OPENAI_BAD_KEY,
    message: "Incorrect API key provided (status 401)",
    kind: "auth",
    retryable: false,
  },
  { status: 403, body: "", message: "status 403 Forbidden", kind: "auth", retryable: false },
  {
    status: 404,
    body: '{"error":"model \\"qwen\\" not found"}',
    message: 'model "qwen" not found (status 404)',
    kind: "not_found",
    retryable: false,
  },
  {
    status: 400,
    body: OPENAI_CONTEXT,
    message: "This model's maximum context length is 128000 tokens. (status 400)",
    kind: "context_length",
    retryable: false,
  },
  {
    status: 400,
    body: ANTHROPIC_TOO_LONG,
    message: "prompt is too long: 210000 tokens > 200000 (status 400)",
    kind: "context_length",
    retryable: false,
  },
  {
    status: 400,
    body: '{"error":{"message":"bad tools"}}',
    message: "bad tools (status 400)",
    kind: "bad_request",
    retryable: false,
  },
  {
    status: 408,
    body: "",
    message: "status 408 Request Timeout",
    kind: "server",
    retryable: true,
  },
  { status: 409, body: "", message: "status 409 Conflict", kind: "server", retryable: true },
  {
    status: 429,
    body: '{"error":{"message":"Rate limit reached","type":"requests"}}',
    message: "Rate limit reached (status 429)",
    kind: "rate_limit",
    retryable: true,
  },
  {
    status: 500,
    body: "  upstream exploded\n",
    message: "upstream exploded (status 500)",
    kind: "server",
    retryable: true,
  },
  {
    status: 503,
    body: "",
    message: "status 503 Service Unavailable",
    kind: "overloaded",
    retryable: true,
  },
  {
    status: 529,
    body: ANTHROPIC_OVERLOADED,
    message: "Overloaded (status 529)",
    kind: "overloaded",
    retryable: true,
  },
  {
    status: 502,
    body: '[{"error":{"code":502,"message":"Bad gateway","status":"UNAVAILABLE"}}]',
    message: "Bad gateway (status 502)",
    kind: "server",
    retryable: true,
  },
  { status: 422, body: "{}", message: "{} (status 422)", kind: "bad_request", retryable: false },
  {
    status: 429,
    body: '{"error":{"message":"Too many tokens, please wait before trying again."}}',
    message: "Too many tokens, please wait before trying again. (status 429)",
    kind: "rate_limit",
    retryable: true,
  },
  {
    status: 429,
    body: '{"error":{"message":"You exceeded your current quota","type":"insufficient_quota"}}',
    message: "You exceeded your current quota (status 429)",
    kind: "quota",
    retryable: false,
  },
  {
    status: 413,
    body:
      '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}',
    message: "Request exceeds the maximum size (status 413)",
    kind: "bad_request",
    retryable: false,
  },
  {
    status: 500,
    body: '{"error":{"message":"the context window is full of bugs","type":"server_error"}}',
    message: "the context window is full of bugs (status 500)",
    kind: "server",
    retryable: true,
  },
  {
    status: 501,
    body: "",
    message: "status 501 Not Implemented",
    kind: "bad_request",
    retryable: false,
  },
  {
    status: 502,
    body:
      "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body>…</body></html>",
    message: "HTTP 502 from https://api.example.com/v1/chat/completions " +
      "(an HTML page, not an API response)",
    kind: "server",
    retryable: true,
  },
  {
    status: 400,
    body: "<h1>Bad Request</h1>",
    contentType: "text/html; charset=utf-8",
    message: "HTTP 400 from https://api.example.com/v1/chat/completions " +
      "(an HTML page, not an API response)",
    kind: "bad_request",
    retryable: false,
  },
  {
    status: 504,
    body: "upstream\n  timed\tout\n",
    message: "upstream timed out (status 504)",
    kind: "server",
    retryable: true,
  },
];

const STATUS_TEXT: Readonly<Record<number, string>> = {
  403: "Forbidden",
  408: "Request Timeout",
  409: "Conflict",
  501: "Not Implemented",
  503: "Service Unavailable",
};

const URL_OF_TABLE = "https://user:pw@api.example.com/v1/chat/completions?key=secret";

function response(status: number, body: string, contentType: string | null = null) {
  return {
    status,
    statusText: STATUS_TEXT[status] ?? "",
    url: URL_OF_TABLE,
    contentType,
    body,
  };
}

Deno.test("errorFromResponse() maps statuses and bodies to kind, message and retryable", () => {
  for (const row of TABLE) {
    const error = errorFromResponse(response(row.status, row.body, row.contentType));
    assertEquals(
      {
        message: error.message,
        kind: error.kind,
        retryable: error.retryable,
        status: error.status,
      },
      { message: row.message, kind: row.kind, retryable: row.retryable, status: row.status },
      `status ${row.status} ${row.body}`,
    );
  }
});

Deno.test("errorFromResponse() caps a long body at 500 characters and keeps retry-after", () => {
  const error = errorFromResponse({ ...response(500, "x".repeat(2000)), retryAfterMs: 1500 });
  assertEquals(error.message, `${"x".repeat(500)}… (status 500)`);
  assertEquals(error.retryAfterMs, 1500);
});

Deno.test("errorFromResponse() says only the status when there is no body and no status text", () => {
  assertEquals(errorFromResponse(response(500, "")).message, "status 500");
});

const STREAM_TABLE: readonly {
  readonly payload: unknown;
  readonly kind: ProviderErrorKind;
  readonly retryable: boolean;
}[] = [
  {
    payload: {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
    },
    kind: "auth",
    retryable: false,
  },
  {
    payload: { type: "error", error: { type: "invalid_request_error", message: "bad tools" } },
    kind: "bad_request",
    retryable: false,
  },
  {
    payload: {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long" },
    },
    kind: "context_length",
    retryable: false,
  },
  {
    payload: { type: "error", code: "rate_limit_exceeded", message: "slow" },
    kind: "rate_limit",
    retryable: true,
  },
  {
    payload: { error: { message: "Too many tokens, please wait" } },
    kind: "server",
    retryable: true,
  },
  {
    payload: { error: { code: 429, message: "Too many tokens, please wait" } },
    kind: "rate_limit",
    retryable: true,
  },
  {
    payload: { error: { type: "api_error", message: "Internal server error" } },
    kind: "server",
    retryable: true,
  },
  {
    payload: { error: { type: "overloaded_error", message: "Overloaded" } },
    kind: "overloaded",
    retryable: true,
  },
];

Deno.test("errorFromStreamPayload() classifies by type first, then status, then message", () => {
  for (const row of STREAM_TABLE) {
    const error = errorFromStreamPayload(row.payload);
    assertEquals(
      [error.kind, error.retryable],
      [row.kind, row.retryable],
      JSON.stringify(row.payload),
    );
  }
});

Deno.test("errorFromStreamPayload() reads an in-stream error with or without a status code", () => {
  const plain = errorFromStreamPayload({
    error: { message: "model crashed", type: "server_error" },
  });
  assertEquals([plain.message, plain.kind, plain.retryable], ["model crashed", "server", true]);
  const gateway = errorFromStreamPayload({ error: { code: 429, message: "slow down" } });
  assertEquals([gateway.message, gateway.kind, gateway.status], [
    "slow down (status 429)",
    "rate_limit",
    429,
  ]);
  const context = errorFromStreamPayload({
    error: { message: "x", code: "context_length_exceeded" },
  });
  assertEquals([context.kind, context.retryable], ["context_length", false]);
  const anthropic = errorFromStreamPayload(JSON.parse(ANTHROPIC_OVERLOADED));
  assertEquals([anthropic.message, anthropic.kind], ["Overloaded", "overloaded"]);
});

Deno.test("networkError() names the origin and the innermost reason, never the path", () => {
  const cause = new TypeError("fetch failed", {
    cause: new Error(
      "error sending request for url (http://127.0.0.1:9999/v1/chat/completions): client error (Connect): tcp connect error: Connection refused (os error 111)",
    ),
  });
  const error = networkError(cause, "http://127.0.0.1:9999/v1/chat/completions");
  assertEquals(
    error.message,
    "cannot reach http://127.0.0.1:9999: tcp connect error: Connection refused (os error 111)",
  );
  assertEquals([error.kind, error.retryable, error.cause], ["network", true, cause]);
});

Deno.test("cutStreamError() is a retryable cut_stream with the reason when given", () => {
  const plain = cutStreamError();
  assertEquals(
    [plain.message, plain.kind, plain.retryable],
    ["the stream ended before the response was complete", "cut_stream", true],
  );
  assertEquals(
    cutStreamError(new TypeError("error reading a body from connection")).message,
    "the stream ended before the response was complete: error reading a body from connection",
  );
});

Deno.test("retryAfterMsFrom() reads retry-after-ms, seconds and HTTP dates", () => {
  assertEquals(retryAfterMsFrom(new Headers({ "retry-after-ms": "250" })), 250);
  assertEquals(retryAfterMsFrom(new Headers({ "retry-after": "2" })), 2000);
  assertEquals(retryAfterMsFrom(new Headers({ "retry-after": "1.5" })), 1500);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assertEquals(
    retryAfterMsFrom(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now),
    3000,
  );
  assertEquals(retryAfterMsFrom(new Headers({ "retry-after": "soon" })), undefined);
  assertEquals(retryAfterMsFrom(new Headers()), undefined);
});
