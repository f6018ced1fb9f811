/**
 * Reading a body without ever holding more than a cap of it: the built-in
 * `http` tool, `ctx.http.fetch` and the error bodies of model providers share it.
 *
 * A leaf module: it imports nothing, and every folder may import it.
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
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, maxBytes + 1 - size);
      chunks.push(part);
      size += part.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
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
