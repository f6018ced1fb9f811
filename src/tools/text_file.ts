/**
 * What the built-in file tools share about files: telling text from binary,
 * counting lines, cutting long lines for the model, and replacing a file
 * atomically (a temporary file in the same folder, renamed over it).
 *
 * @module
 */

import { basename, dirname, join } from "node:path";

/** How many leading bytes decide whether a file is binary. */
export const SAMPLE_BYTES = 8192;

const sampleDecoder = new TextDecoder("utf-8", { fatal: false });

/**
 * Whether a file's first bytes look binary: a NUL byte, or invalid UTF-8 at
 * large (more than three characters in ten undecodable; text in a legacy
 * encoding such as Latin-1 has far fewer).
 */
export function looksBinary(sample: Uint8Array): boolean {
  const head = sample.subarray(0, SAMPLE_BYTES);
  if (head.includes(0)) return true;
  // `stream: true` keeps a character cut at the end of the sample from counting as invalid.
  const text = sampleDecoder.decode(head, { stream: true });
  sampleDecoder.decode();
  let invalid = 0;
  for (let at = text.indexOf("\uFFFD"); at !== -1; at = text.indexOf("\uFFFD", at + 1)) invalid++;
  return invalid * 10 > text.length * 3;
}

/** `pieces` (of `length` bytes in all) as one array; a single piece as it is. */
export function concatBytes(pieces: readonly Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1 && pieces[0] !== undefined) return pieces[0];
  const all = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.length;
  }
  return all;
}

/** The size of the pieces a file is read in, with the signal checked between two. */
export const CHUNK_BYTES = 256 * 1024;

/**
 * The number of lines of the file `path` holds now (its line feeds, plus one
 * for a last line without one), or null when there is none; streamed in {@link CHUNK_BYTES}
 * pieces, so any size costs one pass and an interrupt stops it.
 */
export async function countFileLines(path: string, signal: AbortSignal): Promise<number | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  try {
    const buffer = new Uint8Array(CHUNK_BYTES);
    let lines = 0;
    let last = 10;
    for (;;) {
      signal.throwIfAborted();
      const count = await file.read(buffer);
      if (count === null) break;
      const chunk = buffer.subarray(0, count);
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      last = chunk[count - 1] ?? last;
    }
    return last === 10 ? lines : lines + 1;
  } finally {
    file.close();
  }
}

/** The number of lines of `text`, counted as {@link countFileLines} does. */
export function countTextLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return text.length > 0 && !text.endsWith("\n") ? lines + 1 : lines;
}

/** `1 line`, `2 lines`. */
export function lineCount(count: number): string {
  return `${count} line${count === 1 ? "" : "s"}`;
}

/** `line` cut to `maxChars` characters with a mark saying how long it was, when it is longer. */
export function cutLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars)}… [line cut at ${maxChars} of ${line.length} characters]`;
}

/** The error text for a path that is neither a regular file nor a folder (a pipe, socket or device). */
export function notRegularFile(shown: string): string {
  return `${shown} is not a regular file (a pipe, socket or device): give the path of a file`;
}

/** The permission bits of an existing file, or null when it does not exist. */
export async function fileMode(path: string): Promise<number | null> {
  try {
    const mode = (await Deno.stat(path)).mode;
    return mode === null ? null : mode & 0o7777;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * Whether the file opened as `file` is the one `temp` names now, in the real
 * folder `folder`: the name resolves to itself (no link on the way), then
 * names the same file (device and inode).
 */
async function stillInPlace(file: Deno.FsFile, temp: string, folder: string): Promise<boolean> {
  const real = await Deno.realPath(temp).catch(() => null);
  if (real !== join(folder, basename(temp))) return false;
  const named = await Deno.lstat(real).catch(() => null);
  const opened = await file.stat();
  return named !== null && (opened.ino === null ||
    (opened.dev === named.dev && opened.ino === named.ino));
}

/** Why a write stopped when its folder changed under it. */
export const FOLDER_CHANGED =
  "a folder of the path changed while the file was written (another process replaced it, " +
  "perhaps by a symbolic link): nothing was written there; try again";

/**
 * Replaces (or creates) `path` with `data` so that readers see the old file
 * or the new one, never half of one: the data goes to a temporary file in the
 * same folder, which is renamed over `path`. The old file's mode is kept.
 *
 * `path` must be a real path (`resolveWriteTarget`: no symbolic link in it).
 * The temporary file is checked after it is created and again just before
 * the rename (its folder still resolves to itself, the name still names the
 * file opened), so a folder swapped for a link by another process meanwhile
 * cannot carry the data elsewhere ({@link FOLDER_CHANGED}). A failed write
 * empties its temporary file through the handle, wherever it ended up: at
 * worst an empty file stays where a swapped link pointed.
 */
export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  const folder = dirname(path);
  const mode = await fileMode(path);
  const temp = join(folder, `.${basename(path)}.rienda-${crypto.randomUUID()}.tmp`);
  const file = await Deno.open(temp, {
    write: true,
    createNew: true,
    ...(mode === null ? {} : { mode }),
  });
  try {
    if (!(await stillInPlace(file, temp, folder))) throw new Error(FOLDER_CHANGED);
    if (mode !== null && Deno.build.os !== "windows") await Deno.chmod(temp, mode);
    for (let done = 0; done < data.length;) done += await file.write(data.subarray(done));
    if (!(await stillInPlace(file, temp, folder))) throw new Error(FOLDER_CHANGED);
    await Deno.rename(temp, path);
  } catch (error) {
    await file.truncate(0).catch(() => undefined);
    // Removed only while the name is still the file opened: never another one.
    if (await stillInPlace(file, temp, folder)) await Deno.remove(temp).catch(() => undefined);
    throw error;
  } finally {
    file.close();
  }
}
