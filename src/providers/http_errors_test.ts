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
];

const STATUS_TEXT: Readonly<Record<number, string>> = {
  403: "Forbidden",
  408: "Request Timeout",
  409: "Conflict",
  503: "Service Unavailable",
};

Deno.test("errorFromResponse() maps statuses and bodies to kind, message and retryable", () => {
  for (const row of TABLE) {
    const error = errorFromResponse(row.status, STATUS_TEXT[row.status] ?? "", row.body);
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
  const error = errorFromResponse(500, "", "x".repeat(2000), { retryAfterMs: 1500 });
  assertEquals(error.message, `${"x".repeat(500)}… (status 500)`);
  assertEquals(error.retryAfterMs, 1500);
});

Deno.test("errorFromResponse() says only the status when there is no body and no status text", () => {
  assertEquals(errorFromResponse(500, "", "").message, "status 500");
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
