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

/** The number of lines of `bytes`: its line feeds, plus one for a last line without one. */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}

/** The number of lines of `text`, counted as {@link countLines} does. */
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
 * Replaces (or creates) `path` with `data` so that readers see the old file
 * or the new one, never half of one: the data goes to a temporary file in the
 * same folder, which is renamed over `path`. The old file's mode is kept.
 * `path` must not be a symbolic link (pass the link's target).
 */
export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  const mode = await fileMode(path);
  const temp = join(dirname(path), `.${basename(path)}.rienda-${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeFile(temp, data, { createNew: true, ...(mode === null ? {} : { mode }) });
    if (mode !== null && Deno.build.os !== "windows") await Deno.chmod(temp, mode);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => undefined);
    throw error;
  }
}
