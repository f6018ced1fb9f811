/**
 * The built-in `http` tool: one HTTP request, its status line, content type
 * and body as text (docs/tools.md).
 *
 * Result text, for any status (the model decides what a 404 means):
 *
 * ```
 * HTTP 200 OK
 * content-type: application/json
 *
 * {"ok":true}
 * ```
 *
 * Network failures, timeouts and bad URLs are error results. The body is read
 * no further than the cap, so a huge download never fills memory.
 *
 * @module
 */

import { readAtMost } from "../host/read_at_most.ts";
import { VERSION } from "../base/version.ts";
import { formatDuration } from "./format_duration.ts";
import { errorResult, textResult, type Tool, type ToolResult } from "./tool.ts";
import { cutUtf8, MAX_TOOL_RESULT_BYTES, TRUNCATION_MARKER, utf8ByteLength } from "./truncate.ts";
import { errorMessage } from "../base/unknown.ts";
import { fetchFollowingRedirects } from "../host/redirects.ts";
import { isCredentialHeader } from "../secrets/secret_names.ts";

/** The timeout of a request that sets no `timeout_ms`. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/** The longest `timeout_ms` a call may ask for. */
export const MAX_HTTP_TIMEOUT_MS = 600_000;

const DESCRIPTION = `Sends one HTTP request and returns the response.

- \`url\` must be an absolute http:// or https:// URL. Redirects are followed; credential headers (Authorization, Cookie, API keys) are not sent to another origin.
- The result is the status line (\`HTTP 200 OK\`), the content type, a blank line, then the body as text. Any status is returned as it is: a 404 or 500 is not an error of this tool.
- \`headers\` is a map of header names to string values; \`body\` is sent as-is (set \`content-type\` yourself, e.g. \`application/json\`).
- Bodies longer than ${MAX_TOOL_RESULT_BYTES / 1024} KiB are cut.
- The request fails after \`timeout_ms\` (default ${DEFAULT_HTTP_TIMEOUT_MS} ms).`;

const PARAMETERS = {
  type: "object",
  properties: {
    url: { type: "string", description: "Absolute http:// or https:// URL." },
    method: { type: "string", description: "HTTP method such as GET, POST, PUT. Default GET." },
    headers: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Request headers, name to value.",
    },
    body: { type: "string", description: "Request body, sent as-is." },
    "timeout_ms": {
      type: "integer",
      minimum: 1,
      maximum: MAX_HTTP_TIMEOUT_MS,
      description:
        `Fails the request after this many milliseconds. Default ${DEFAULT_HTTP_TIMEOUT_MS}, at most ${MAX_HTTP_TIMEOUT_MS}.`,
    },
  },
  required: ["url"],
  additionalProperties: false,
} as const;

const METHOD_REGEXP = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

interface HttpRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly timeoutMs: number;
}

/** Reads validated arguments into a request, or the message saying what is wrong. */
function readRequest(args: Record<string, unknown>): HttpRequest | string {
  const { url, method = "GET", headers = {}, body, "timeout_ms": timeoutMs } = args;
  if (typeof url !== "string") return `"url" must be a string`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url "${url}" is not a valid URL: use an absolute http:// or https:// URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `url "${url}" is not supported: use an http:// or https:// URL`;
  }
  if (typeof method !== "string" || !METHOD_REGEXP.test(method)) {
    return `method ${JSON.stringify(method)} is not a valid HTTP method: use GET, POST, PUT, …`;
  }
  const upper = method.toUpperCase();
  if (body !== undefined && typeof body !== "string") return `"body" must be a string`;
  if (body !== undefined && (upper === "GET" || upper === "HEAD")) {
    return `a ${upper} request cannot have a body: use POST or PUT, or leave out "body"`;
  }
  if (timeoutMs !== undefined && typeof timeoutMs !== "number") {
    return `"timeout_ms" must be an integer`;
  }
  const built = buildHeaders(headers);
  if (typeof built === "string") return built;
  return {
    url: parsed,
    method: upper,
    headers: built,
    body,
    timeoutMs: timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
  };
}

/** The request headers, with rienda's User-Agent unless the call sets one. */
function buildHeaders(headers: unknown): Headers | string {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    return `"headers" must be an object of header names to string values`;
  }
  const built = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") return `header "${name}" must have a string value`;
    try {
      built.set(name, value);
    } catch (error) {
      return `header "${name}" is invalid: ${errorMessage(error)}`;
    }
  }
  if (!built.has("user-agent")) built.set("user-agent", `rienda/${VERSION}`);
  return built;
}

/** The head lines the model reads before the body. */
function headOf(response: Response, requested: URL, final: URL): string {
  const lines = [`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`];
  if (final.href !== requested.href) lines.push(`url: ${final.href}`);
  const type = response.headers.get("content-type");
  if (type !== null) lines.push(`content-type: ${type}`);
  return lines.join("\n");
}

/** Sends `request`; failures come back as error results in the model's words. */
async function send(request: HttpRequest, signal: AbortSignal): Promise<ToolResult> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  try {
    const { response, url } = await fetchFollowingRedirects(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.any([signal, timeout.signal]),
    }, { crossOrigin: { kind: "drop_credentials", isCredential: isCredentialHeader } });
    const head = headOf(response, request.url, url);
    const budget = MAX_TOOL_RESULT_BYTES - utf8ByteLength(head) - 2;
    const body = await readAtMost(response.body, budget);
    let text = new TextDecoder().decode(body.bytes);
    if (!body.complete) {
      text = cutUtf8(text, budget - utf8ByteLength(TRUNCATION_MARKER)) + TRUNCATION_MARKER;
    }
    return textResult(`${head}\n\n${body.bytes.length === 0 ? "(empty body)" : text}`);
  } catch (error) {
    if (signal.aborted) return errorResult("request interrupted");
    if (timeout.signal.aborted) {
      return errorResult(`request timed out after ${formatDuration(request.timeoutMs)}`);
    }
    return errorResult(`${request.method} ${request.url.href} failed: ${errorMessage(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The built-in `http` tool. */
export function createHttpTool(): Tool {
  return {
    name: "http",
    description: DESCRIPTION,
    parameters: PARAMETERS,
    async execute(args, context) {
      const request = readRequest(args);
      if (typeof request === "string") return errorResult(request);
      return await send(request, context.signal);
    },
  };
}
