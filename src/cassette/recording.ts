/**
 * `--record FILE`: the run talks to its provider as usual, and every HTTP
 * exchange is copied into the cassette as it went over the wire — the
 * request body rienda sent, the status, the headers it reads and the body
 * chunk by chunk, or the failure (docs/testing.md).
 *
 * - Nothing secret is written: credential headers (`isCredentialHeader`) are
 *   left out, the values of config.yaml's `headers` are masked, the URL
 *   keeps only its origin and path, and every line is masked with the
 *   run's secrets, the values of `headers` added.
 * - The exchanges of a turn are written when the turn ends, in order; an
 *   attempt cut by an interrupt is left out (it has no answer to replay).
 *
 * @module
 */

import type { ModelClient, ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { createModelClient, type ModelClientOptions } from "../providers/client.ts";
import { ProviderError, shownUrl } from "../providers/http_errors.ts";
import { isCredentialHeader } from "../secrets/secret_names.ts";
import { MIN_SECRET_CHARS, type SecretSet } from "../secrets/secrets.ts";
import { errorMessage } from "../base/unknown.ts";
import { VERSION } from "../base/version.ts";
import {
  type BodyEnd,
  type Exchange,
  exchangeLine,
  headerLine,
  type RecordedRequest,
  type RecordedResponse,
} from "./cassette_format.ts";
import { type CassetteTap, recordedError } from "./tap.ts";

/** The response headers rienda reads, and so the ones a cassette keeps. */
const KEPT_RESPONSE_HEADERS = ["content-type", "retry-after", "retry-after-ms", "location"];

/** The mask of a configured header's value. */
const MASKED = "[redacted]";

/** A response being recorded: its body's end is unknown until it ends. */
type OpenResponse =
  | Extract<RecordedResponse, { kind: "failed" }>
  | (Omit<Extract<RecordedResponse, { kind: "http" }>, "end" | "chunks"> & {
    readonly chunks: string[];
    end: BodyEnd | undefined;
  });

/** One exchange of the turn being recorded. */
interface OpenExchange {
  readonly attempt: number;
  readonly waitMs: number | undefined;
  readonly request: RecordedRequest;
  response: OpenResponse | undefined;
  /** Set when the user's interrupt cut it: it is not written. */
  interrupted: boolean;
}

/** The state of the turn in flight. */
interface OpenTurn {
  readonly number: number;
  attempt: number;
  waitMs: number | undefined;
  readonly exchanges: OpenExchange[];
}

/**
 * A tap writing `path` (created or truncated at the first request, the
 * header first); a failed write fails the run, naming the file.
 */
export function createRecorder(path: string): CassetteTap {
  let started: Promise<void> | undefined;
  let written: Promise<void> = Promise.resolve();
  let turns = 0;
  const failure = (error: unknown) =>
    new Error(`--record ${path}: cannot write the cassette: ${errorMessage(error)}`);
  const append = (text: string) => {
    written = written.then(() => Deno.writeTextFile(path, text, { append: true }));
    return written.catch((error: unknown) => Promise.reject(failure(error)));
  };
  return {
    client(options: ModelClientOptions, agent: string, secrets: SecretSet): ModelClient {
      let turn: OpenTurn | undefined;
      const inner = createModelClient({
        ...options,
        fetch: recordingFetch(options, () => turn),
      }, secrets);
      const redact = lineRedactor(options.headers, secrets);
      const toLine = (open: OpenTurn, exchange: OpenExchange, response: OpenResponse) =>
        redact(exchangeLine(exchangeOf(options, open, exchange, keyWhole(response, redact))));
      return {
        ref: options.ref,
        async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
          started ??= Deno.writeTextFile(path, headerLine({ rienda: VERSION, agent }))
            .catch((error: unknown) => Promise.reject(failure(error)));
          await started;
          const open: OpenTurn = { number: ++turns, attempt: 1, waitMs: undefined, exchanges: [] };
          turn = open;
          try {
            for await (const event of inner.stream(request, signal)) {
              if (event.type === "retry") {
                open.attempt += 1;
                open.waitMs = event.delayMs;
              }
              yield event;
            }
          } finally {
            turn = undefined;
            const lines = open.exchanges.flatMap((exchange) =>
              exchange.interrupted || exchange.response === undefined
                ? []
                : [toLine(open, exchange, exchange.response)]
            );
            if (lines.length > 0) await append(lines.join(""));
          }
        },
      };
    },
  };
}

function exchangeOf(
  options: ModelClientOptions,
  turn: OpenTurn,
  exchange: OpenExchange,
  response: OpenResponse,
): Exchange {
  // A body nobody finished nor cancelled was dropped by rienda: it read no more of it.
  const ended: RecordedResponse = response.kind === "failed"
    ? response
    : { ...response, end: response.end ?? { kind: "cancelled" } };
  return {
    type: "exchange",
    turn: turn.number,
    attempt: exchange.attempt,
    ...(exchange.waitMs === undefined ? {} : { waitMs: exchange.waitMs }),
    protocol: options.protocol,
    provider: options.ref.split("/")[0] ?? options.ref,
    model: options.ref,
    request: exchange.request,
    response: ended,
  };
}

/** A fetch that copies each exchange into the open turn as it passes. */
function recordingFetch(
  options: ModelClientOptions,
  openTurn: () => OpenTurn | undefined,
): typeof fetch {
  const send = options.fetch ?? fetch;
  const configured = new Set(Object.keys(options.headers).map((name) => name.toLowerCase()));
  return async (input, init) => {
    const turn = openTurn();
    const signal = init?.signal ?? undefined;
    const exchange: OpenExchange = {
      attempt: turn?.attempt ?? 1,
      waitMs: turn?.attempt === 1 ? undefined : turn?.waitMs,
      request: requestOf(input, init, configured),
      response: undefined,
      interrupted: false,
    };
    turn?.exchanges.push(exchange);
    let response: Response;
    try {
      response = await send(input, init);
    } catch (cause) {
      if (cutByUser(signal)) exchange.interrupted = true;
      else exchange.response = { kind: "failed", error: recordedError(failureOf(cause, signal)) };
      throw cause;
    }
    const recorded: Extract<OpenResponse, { kind: "http" }> = {
      kind: "http",
      status: response.status,
      headers: keptHeaders(response.headers),
      chunks: [],
      end: undefined,
    };
    exchange.response = recorded;
    if (response.body === null) {
      recorded.end = { kind: "complete" };
      return response;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (cause) {
          if (cutByUser(signal)) exchange.interrupted = true;
          else recorded.end = { kind: "error", error: recordedError(failureOf(cause, signal)) };
          controller.error(cause);
          return;
        }
        if (next.done) {
          const tail = decoder.decode();
          if (tail !== "") recorded.chunks.push(tail);
          recorded.end = { kind: "complete" };
          controller.close();
          return;
        }
        const text = decoder.decode(next.value, { stream: true });
        if (text !== "") recorded.chunks.push(text);
        controller.enqueue(next.value);
      },
      cancel(reason) {
        recorded.end ??= { kind: "cancelled" };
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Whether the request was aborted by the user's interrupt (a timeout aborts with a ProviderError). */
function cutByUser(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && !(signal.reason instanceof ProviderError);
}

/** What the client will make of a failure: a timeout is the signal's reason, not fetch's error. */
function failureOf(cause: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted === true ? signal.reason : cause;
}

function requestOf(
  input: string | URL | Request,
  init: RequestInit | undefined,
  configured: ReadonlySet<string>,
): RecordedRequest {
  const url = input instanceof Request ? input.url : String(input);
  const headers: Record<string, string> = {};
  for (const [name, value] of new Headers(init?.headers)) {
    if (isCredentialHeader(name)) continue;
    headers[name] = configured.has(name) ? MASKED : value;
  }
  let body: unknown = typeof init?.body === "string" ? init.body : null;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      // Kept as the text that was sent.
    }
  }
  return { method: init?.method ?? "GET", url: shownUrl(url), headers, body };
}

function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    kept[name] = name === "location" ? shownLocation(value) : value;
  }
  return kept;
}

/** A redirect's target without a query (it may carry a token); relative targets stay relative. */
function shownLocation(location: string): string {
  return location.replace(/[?#].*$/s, "");
}

/**
 * The response with its chunks merged into one when a secret spans two of
 * them (the line's redaction sees each chunk's string apart); chunk
 * boundaries only decide how finely the replay streams.
 */
function keyWhole(response: OpenResponse, redact: (text: string) => string): OpenResponse {
  if (response.kind === "failed" || response.chunks.length < 2) return response;
  const whole = response.chunks.join("");
  const redacted = redact(whole);
  if (redacted === whole || response.chunks.map(redact).join("") === redacted) return response;
  return { ...response, chunks: [whole] };
}

/** `secrets.mask`, and the values of the provider's configured headers masked too. */
function lineRedactor(
  headers: Readonly<Record<string, string>>,
  secrets: SecretSet,
): (line: string) => string {
  const values = Object.values(headers)
    .filter((value) => value.trim().length >= MIN_SECRET_CHARS)
    .flatMap((value) => [value, JSON.stringify(value).slice(1, -1)])
    .sort((a, b) => b.length - a.length);
  return (line) =>
    values.reduce((text, value) => text.replaceAll(value, MASKED), secrets.mask(line));
}
