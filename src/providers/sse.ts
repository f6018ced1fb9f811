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

/** A `TransformStream` turning decoded SSE text into messages. */
export class SseParseStream extends TransformStream<string, SseMessage> {
  /** Creates a parser with empty state. */
  constructor() {
    let buffer = "";
    let skipLineFeed = false;
    let started = false;
    let eventType = "";
    let data: string[] = [];
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
        buffer += text;
        let start = 0;
        LINE_END_REGEXP.lastIndex = 0;
        for (
          let match = LINE_END_REGEXP.exec(buffer);
          match;
          match = LINE_END_REGEXP.exec(buffer)
        ) {
          const end = match.index;
          let next = end + 1;
          if (buffer[end] === "\r") {
            if (next === buffer.length) skipLineFeed = true;
            else if (buffer[next] === "\n") next += 1;
          }
          processLine(buffer.slice(start, end), controller);
          start = next;
          LINE_END_REGEXP.lastIndex = next;
        }
        buffer = buffer.slice(start);
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
): AsyncGenerator<SseMessage> {
  signal.throwIfAborted();
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new SseParseStream())
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
