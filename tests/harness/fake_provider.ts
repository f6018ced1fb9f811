/**
 * A scripted model provider for black-box tests: a real HTTP server on
 * 127.0.0.1 that answers the three wire protocols by path and records every
 * request.
 *
 * - Every request to a protocol route consumes the next {@link Turn}, whatever
 *   the route (the next one whose `when` it matches); an empty script
 *   answers 500 `the script ran out of turns`.
 * - Requests are recorded on arrival, before any delay, so a test can wait for
 *   one and then interrupt the client mid-stream.
 * - It never imports `src/`: the codecs reproduce the vendors' SSE themselves.
 *
 * ```ts
 * await using provider = await startFakeProvider([{ text: "hi", chunks: 2 }]);
 * // base_url: provider.url  →  http://127.0.0.1:<port>/v1
 * ```
 *
 * @module
 */

import { anthropicCodec } from "./codec_anthropic.ts";
import { openAiChatCodec } from "./codec_openai_chat.ts";
import { openAiResponsesCodec } from "./codec_openai_responses.ts";
import { type Codec, encodeSse, type SseEvent } from "./codec.ts";
import { isRecord, parseJsonOrNull } from "./json.ts";
import { argumentTextOf, resolveUsage, type Turn } from "./turn.ts";
import { waitUntil } from "./wait_until.ts";

export type { ScriptedToolCall, ScriptedUsage, Turn } from "./turn.ts";

/** One request the fake provider received. */
export interface RecordedRequest {
  readonly method: string;
  /** The URL path, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, or `null` when it is not JSON. */
  readonly body: unknown;
  readonly rawBody: string;
}

/** A running fake provider. */
export interface FakeProvider extends AsyncDisposable {
  /** The base URL to configure, ending in `/v1`. */
  readonly url: string;
  /** Every request received so far, in order of arrival. */
  readonly requests: readonly RecordedRequest[];
  /** Appends turns to the script. */
  push(...turns: Turn[]): void;
  /** Resolves with the first `n` requests once they have arrived; rejects after the timeout. */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Ends every stream in flight and stops the server. */
  close(): Promise<void>;
}

/** How long a `holdUntilRequests` turn waits for the others. */
const HOLD_TIMEOUT_MS = 20_000;

/** The message of the 500 answered when the script is empty. */
export const OUT_OF_TURNS_MESSAGE = "the script ran out of turns";

/** The message of a `status` turn without `errorMessage`. */
export const DEFAULT_ERROR_MESSAGE = "the fake provider failed on purpose";

const CODECS: readonly Codec[] = [openAiChatCodec, openAiResponsesCodec, anthropicCodec];

/** Starts a fake provider on 127.0.0.1 (a free port) playing `turns`. */
export function startFakeProvider(turns: readonly Turn[] = []): Promise<FakeProvider> {
  const script: Turn[] = [...turns];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const closing = new AbortController();
  let turnNumber = 0;
  let callNumber = 0;

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const rawBody = await request.text();
    const body = parseJsonOrNull(rawBody);
    const headers = Object.fromEntries(request.headers);
    requests.push({ method: request.method, path, headers, body, rawBody });
    for (const waiter of [...waiters]) waiter();
    const codec = CODECS.find((candidate) => candidate.path === path);
    if (codec === undefined || request.method !== "POST") {
      const message = `the fake provider has no route for ${request.method} ${path}`;
      return Response.json({ error: { message } }, { status: 404 });
    }
    const index = script.findIndex((turn) =>
      turn.when === undefined || rawBody.includes(turn.when)
    );
    const [turn] = index === -1 ? [] : script.splice(index, 1);
    if (turn === undefined) return errorResponse(codec, 500, OUT_OF_TURNS_MESSAGE);
    turnNumber += 1;
    if (turn.holdUntilRequests !== undefined) {
      const wanted = turn.holdUntilRequests;
      const came = await waitUntil(() => requests.length >= wanted, waiters, {
        timeoutMs: HOLD_TIMEOUT_MS,
        onTimeout: () => new Error(`held for ${wanted} requests, ${requests.length} came`),
      }).then(() => null, (error: Error) => error.message);
      if (came !== null) return errorResponse(codec, 500, came);
    }
    // Not request.signal: Deno aborts it once a response is delivered (legacy behaviour).
    const signal = closing.signal;
    if (turn.firstByteDelayMs) await delay(turn.firstByteDelayMs, signal);
    if (turn.status !== undefined) {
      const message = turn.errorMessage ?? DEFAULT_ERROR_MESSAGE;
      return errorResponse(codec, turn.status, message, turn.errorBody, turn.headers);
    }
    if (turn.rawStream !== undefined) {
      const { chunks, repeat = 1 } = turn.rawStream;
      const texts = Array.from({ length: repeat }, () => chunks).flat();
      return streamResponse(texts, turn.chunkDelayMs ?? 0, turn.headers ?? {}, signal);
    }
    const requestModel = isRecord(body) && typeof body.model === "string" ? body.model : null;
    const events = codec.events(turn, {
      turnNumber,
      model: turn.model ?? requestModel ?? "fake-model",
      calls: (turn.toolCalls ?? []).map((call) => ({
        id: call.id ?? `call_${++callNumber}`,
        name: call.name,
        argumentText: argumentTextOf(call),
        fragments: call.fragments ?? 1,
      })),
      usage: resolveUsage(turn.usage),
    });
    const sent = turn.cut ? cutEvents(events) : events;
    return streamResponse(sent.map(encodeSse), turn.chunkDelayMs ?? 0, turn.headers ?? {}, signal);
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  let closed: Promise<void> | null = null;
  function close(): Promise<void> {
    closed ??= (async () => {
      closing.abort();
      await server.shutdown();
    })();
    return closed;
  }

  return Promise.resolve({
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    push(...more) {
      script.push(...more);
    },
    async waitForRequests(n, timeoutMs = 10_000) {
      await waitUntil(() => requests.length >= n, waiters, {
        timeoutMs,
        onTimeout: () =>
          new Error(`the fake provider got ${requests.length} of ${n} requests in ${timeoutMs}ms`),
      });
      return requests.slice(0, n);
    },
    close,
    [Symbol.asyncDispose]: close,
  });
}

/** The first half of the events, never one that finishes the response. */
function cutEvents(events: readonly SseEvent[]): SseEvent[] {
  const open = events.filter((event) => !event.final).length;
  return events.slice(0, Math.min(Math.floor(events.length / 2), open));
}

function errorResponse(
  codec: Codec,
  status: number,
  message: string,
  rawBody?: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const body = rawBody ?? JSON.stringify(codec.errorBody(status, message));
  return new Response(body, {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function streamResponse(
  texts: readonly string[],
  delayMs: number,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Response {
  const encoder = new TextEncoder();
  async function* bytes(): AsyncGenerator<Uint8Array> {
    for (const [index, text] of texts.entries()) {
      if (index > 0 && delayMs > 0) await delay(delayMs, signal);
      if (signal.aborted) return;
      yield encoder.encode(text);
    }
  }
  return new Response(ReadableStream.from(bytes()), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      ...headers,
    },
  });
}

/** Waits `ms`, or less when the signal aborts (never rejects). */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
