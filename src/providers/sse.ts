/**
 * Server-sent events: text → {@link SseMessage}s, following the WHATWG
 * "event stream interpretation" rules.
 *
 * - Lines end in `\r\n`, `\n` or `\r`; a chunk may end anywhere, even between
 *   the `\r` and the `\n` of one line end.
 * - A blank line dispatches the message; `data` lines join with `\n`; lines
 *   starting with `:` are comments; a leading byte-order mark is dropped.
 * - A message not closed by a blank line when the stream ends is discarded,
 *   as the spec says (it may be the torn tail of a cut stream).
 * - Linear in the text, and bounded: one event holds at most
 *   {@link MAX_SSE_EVENT_CHARS} characters, one stream at most
 *   {@link MAX_SSE_STREAM_CHARS} (docs/providers.md, Limits).
 *
 * @module
 */

/** One dispatched server-sent event. */
export interface SseMessage {
  /** The `event` field, absent when the message named none (type "message"). */
  readonly event?: string;
  readonly data: string;
  /** The last event id seen on the stream, absent when none was set. */
  readonly id?: string;
}

const LINE_END_REGEXP = /[\r\n]/g;

/** The most text one event may hold (its data lines and the line being read), in characters. */
export const MAX_SSE_EVENT_CHARS = 32 * 1024 * 1024;

/** The most text one response stream may hold, in characters. */
export const MAX_SSE_STREAM_CHARS = 64 * 1024 * 1024;

/** Limits of one {@link SseParseStream}; tests lower them. */
export interface SseLimits {
  /** @default {MAX_SSE_EVENT_CHARS} */
  readonly maxEventChars?: number;
  /** @default {MAX_SSE_STREAM_CHARS} */
  readonly maxStreamChars?: number;
}

/** Thrown when a stream or one of its events is longer than its limit. */
export class SseLimitError extends RangeError {
  /** Creates the error for the limit that was passed. */
  constructor(what: "event" | "stream", limit: number) {
    super(
      what === "event"
        ? `the provider sent one server-sent event longer than ${sizeWords(limit)}, ` +
          `the most rienda reads: check that base_url points at the model API`
        : `the response is longer than ${sizeWords(limit)}, the most rienda reads of one answer: ` +
          `ask for a shorter answer or lower the model's max_tokens`,
    );
    this.name = "SseLimitError";
  }
}

function sizeWords(chars: number): string {
  const mebi = chars / (1024 * 1024);
  return Number.isInteger(mebi) ? `${mebi} MiB` : `${chars} characters`;
}

/**
 * A `TransformStream` turning decoded SSE text into messages, in time linear
 * in the text: each chunk is scanned once and a line cut by a chunk boundary
 * is kept as a pending piece, never rescanned.
 *
 * @throws {SseLimitError} when one event or the whole stream passes its limit
 */
export class SseParseStream extends TransformStream<string, SseMessage> {
  /** Creates a parser with empty state. */
  constructor(limits: SseLimits = {}) {
    const { maxEventChars = MAX_SSE_EVENT_CHARS, maxStreamChars = MAX_SSE_STREAM_CHARS } = limits;
    let pending = "";
    let skipLineFeed = false;
    let started = false;
    let received = 0;
    let eventType = "";
    let data: string[] = [];
    let dataChars = 0;
    let lastId = "";

    function dispatch(controller: TransformStreamDefaultController<SseMessage>): void {
      if (data.length > 0) {
        controller.enqueue({
          ...(eventType === "" ? {} : { event: eventType }),
          data: data.join("\n"),
          ...(lastId === "" ? {} : { id: lastId }),
        });
      }
      eventType = "";
      data = [];
      dataChars = 0;
    }

    function processLine(
      line: string,
      controller: TransformStreamDefaultController<SseMessage>,
    ): void {
      if (line === "") return dispatch(controller);
      if (line.startsWith(":")) return;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      switch (field) {
        case "event":
          eventType = value;
          break;
        case "data":
          data.push(value);
          dataChars += value.length + 1;
          break;
        case "id":
          // WHATWG: an id containing NUL is ignored.
          if (!value.includes("\0")) lastId = value;
          break;
        default:
          // `retry` and unknown fields do not concern a one-shot request.
          break;
      }
    }

    super({
      transform(chunk, controller) {
        let text = chunk;
        if (!started && text.length > 0) {
          started = true;
          if (text.startsWith("\uFEFF")) text = text.slice(1);
        }
        if (skipLineFeed && text.length > 0) {
          skipLineFeed = false;
          if (text.startsWith("\n")) text = text.slice(1);
        }
        received += text.length;
        if (received > maxStreamChars) throw new SseLimitError("stream", maxStreamChars);
        let start = 0;
        LINE_END_REGEXP.lastIndex = 0;
        for (let match = LINE_END_REGEXP.exec(text); match; match = LINE_END_REGEXP.exec(text)) {
          const end = match.index;
          let next = end + 1;
          if (text[end] === "\r") {
            if (next === text.length) skipLineFeed = true;
            else if (text[next] === "\n") next += 1;
          }
          const piece = text.slice(start, end);
          const line = pending === "" ? piece : pending + piece;
          pending = "";
          if (dataChars + line.length > maxEventChars) {
            throw new SseLimitError("event", maxEventChars);
          }
          processLine(line, controller);
          start = next;
          LINE_END_REGEXP.lastIndex = next;
        }
        if (start < text.length) pending += text.slice(start);
        if (dataChars + pending.length > maxEventChars) {
          throw new SseLimitError("event", maxEventChars);
        }
      },
    });
  }
}

/**
 * Reads the SSE messages of a response body, stopping with the signal's
 * reason on abort and cancelling the body when the caller stops early.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  limits: SseLimits = {},
): AsyncGenerator<SseMessage> {
  signal.throwIfAborted();
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new SseParseStream(limits))
    .getReader();
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  try {
    while (true) {
      const next = await reader.read();
      signal.throwIfAborted();
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Closes the connection when the consumer stops before the end.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
