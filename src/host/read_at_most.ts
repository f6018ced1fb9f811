/**
 * Reading a body without ever holding more than a cap of it: the built-in
 * `http` tool, `ctx.http.fetch`, the error bodies of model providers and the
 * standard input of `rienda run` share it.
 *
 * @module
 */

/** What {@link readAtMost} read. */
export interface ReadPart {
  /** At most the cap's bytes, from the start. */
  readonly bytes: Uint8Array;
  /** True when the body ended within the cap (nothing was left out). */
  readonly complete: boolean;
}

/**
 * The first `maxBytes` bytes of `body` (none for null), and whether it ended
 * within them; reads one byte past the cap at most, then cancels the rest.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<ReadPart> {
  if (body === null) return { bytes: new Uint8Array(0), complete: true };
  const reader = body.getReader();
  try {
    return await readRest(reader, maxBytes, [], 0, undefined);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** How {@link readWhileProducing} waits. */
export interface WaitOptions {
  /**
   * How long the first bytes (or the end) may take; past it the body is left
   * unread. Absent: as long as they take.
   */
  readonly firstBytesWithinMs?: number | undefined;
  /** Stops the reading at once: the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * {@link readAtMost} that can be stopped, and that waits only while the body
 * produces: when neither a byte nor the end arrives within
 * `firstBytesWithinMs`, it resolves to null and the body is cancelled unread.
 * Once bytes came, it reads to the end (or the cap).
 */
export async function readWhileProducing(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  options: WaitOptions,
): Promise<ReadPart | null> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled = false;
  try {
    const silence = new Promise<null>((resolve) => {
      if (options.firstBytesWithinMs !== undefined) {
        timer = setTimeout(() => resolve(null), options.firstBytesWithinMs);
      }
    });
    const first = await abortable(Promise.race([reader.read(), silence]), options.signal);
    if (first === null) return null;
    settled = true;
    if (first.done) return { bytes: new Uint8Array(0), complete: true };
    const part = first.value.subarray(0, maxBytes + 1);
    return await readRest(reader, maxBytes, [part], part.length, options.signal);
  } finally {
    clearTimeout(timer);
    // A read still pending on a silent body (a pipe nobody writes) may never settle: not awaited.
    const cancelled = reader.cancel().catch(() => {});
    if (settled && options.signal?.aborted !== true) await cancelled;
  }
}

async function readRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  chunks: Uint8Array[],
  size: number,
  signal: AbortSignal | undefined,
): Promise<ReadPart> {
  while (size <= maxBytes) {
    const { done, value } = await abortable(reader.read(), signal);
    if (done) break;
    const part = value.subarray(0, maxBytes + 1 - size);
    chunks.push(part);
    size += part.length;
  }
  const bytes = new Uint8Array(Math.min(size, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
  }
  return { bytes, complete: size <= maxBytes };
}

/** `promise`, or a rejection with the reason of `signal` as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

/** What {@link readTextFileAtMost} read. */
export interface TextPart {
  /** The text of at most the cap's bytes (a multi-byte character cut at the cap is dropped). */
  readonly text: string;
  /** True when the file ended within the cap. */
  readonly complete: boolean;
}

/**
 * The text of the file at `path`, reading at most `maxBytes` (and one more)
 * bytes of it, so a huge file or a device such as `/dev/zero` costs no more.
 *
 * @throws what `Deno.open` throws (`Deno.errors.NotFound`, …)
 */
export async function readTextFileAtMost(path: string, maxBytes: number): Promise<TextPart> {
  const file = await Deno.open(path);
  const { bytes, complete } = await readAtMost(file.readable, maxBytes);
  return { text: new TextDecoder().decode(bytes, { stream: !complete }), complete };
}
