/**
 * The built-in `read` tool: a text file's lines, numbered (docs/tools.md).
 *
 * ```
 *      1→import { join } from "node:path";
 *      2→
 * [lines 1–2000 of 5210; read on with offset 2001]
 * ```
 *
 * - At most {@link MAX_READ_LINES} lines and about 250 KiB per call; lines
 *   longer than {@link MAX_LINE_CHARS} characters are cut with a mark.
 * - The file is streamed: only the lines shown are kept, so a huge file
 *   costs one pass, never its size in memory.
 * - CRLF line ends and a UTF-8 byte-order mark are not shown; invalid UTF-8
 *   is shown as U+FFFD; a binary file is described, not shown.
 *
 * @module
 */

import { type Approval, checkGuarded } from "./approval.ts";
import { type EditorFiles, editorFilesFor } from "./editor_files.ts";
import { missingPathMessage } from "./missing_path.ts";
import { errorResult, textResult, type Tool, type ToolResult } from "./tool.ts";
import { displayPath, resolveToolPath } from "./tool_paths.ts";
import {
  concatBytes,
  cutLine,
  lineCount,
  looksBinary,
  notRegularFile,
  SAMPLE_BYTES,
} from "./text_file.ts";
import { MAX_TOOL_RESULT_BYTES, utf8ByteLength } from "./truncate.ts";
import { errorMessage } from "../base/unknown.ts";

/** The most lines one call returns. */
export const MAX_READ_LINES = 2000;

/** Lines longer than this many characters are cut. */
export const MAX_LINE_CHARS = 2000;

/** The text of one call stays under this many bytes, leaving room for the closing line. */
const MAX_TEXT_BYTES = MAX_TOOL_RESULT_BYTES - 6 * 1024;

/** Bytes kept of one line: enough for {@link MAX_LINE_CHARS} characters of any script. */
const MAX_KEPT_LINE_BYTES = MAX_LINE_CHARS * 4;

const CHUNK_BYTES = 256 * 1024;

const DESCRIPTION = `Reads a text file and returns its lines, numbered.

- Each line comes as \`    12→text\`: the number and the arrow are not part of the file.

- Use it to look at a file before you change it; use \`grep\` to find where something is, \`find\` or \`ls\` to find files.
- \`path\` is relative to the workspace (absolute paths work too).
- At most ${MAX_READ_LINES} lines per call; when a file is longer the result ends with \`[lines 1–2000 of 5210; read on with offset 2001]\`: call again with that \`offset\` to read on. Use \`offset\` and \`limit\` to read just the part you need.
- Lines longer than ${MAX_LINE_CHARS} characters are cut, with a mark.
- A directory is an error (use \`ls\`); a binary file is described, not shown.`;

const PARAMETERS = {
  type: "object",
  properties: {
    path: { type: "string", minLength: 1, description: "The file, relative to the workspace." },
    offset: {
      type: "integer",
      minimum: 1,
      description: "The first line to return (1-based). Default 1.",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: MAX_READ_LINES,
      description: `How many lines to return. Default and at most ${MAX_READ_LINES}.`,
    },
  },
  required: ["path"],
  additionalProperties: false,
} as const;

/** What one pass over the file found. */
interface Scan {
  readonly binary: boolean;
  readonly size: number;
  /** The lines of the file. */
  readonly total: number;
  /** The lines shown, from `offset` on, already numbered and cut. */
  readonly shown: string[];
}

// ignoreBOM: only the first line loses a BOM (`numbered`), not every line that starts with one.
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** One numbered line of the result. */
function numbered(number: number, bytes: Uint8Array, fullBytes: number): string {
  let text = decoder.decode(bytes);
  if (number === 1 && text.startsWith("\uFEFF")) text = text.slice(1);
  if (text.endsWith("\r") && bytes.length === fullBytes) text = text.slice(0, -1);
  // A line longer than the bytes kept is cut whatever its length in characters.
  const line = bytes.length < fullBytes
    ? `${text.slice(0, MAX_LINE_CHARS)}… [line cut; it is ${fullBytes} bytes long]`
    : cutLine(text, MAX_LINE_CHARS);
  return `${String(number).padStart(6)}→${line}`;
}

/** Streams the file once: counts its lines and keeps the numbered lines from `offset` on. */
async function scan(
  file: { read(buffer: Uint8Array): Promise<number | null> },
  size: number,
  window: { offset: number; limit: number },
  signal: AbortSignal,
): Promise<Scan> {
  const shown: string[] = [];
  let textBytes = 0;
  let collecting = true;
  let line = 1;
  let pieces: Uint8Array[] = [];
  let kept = 0;
  let lineBytes = 0;
  const finishLine = () => {
    if (collecting && line >= window.offset) {
      const text = numbered(line, concatBytes(pieces, kept), lineBytes);
      textBytes += utf8ByteLength(text) + 1;
      if (shown.length >= window.limit || textBytes > MAX_TEXT_BYTES) collecting = false;
      else shown.push(text);
    }
    pieces = [];
    kept = 0;
    lineBytes = 0;
    line++;
  };
  const keep = (part: Uint8Array) => {
    lineBytes += part.length;
    if (!collecting || line < window.offset || kept >= MAX_KEPT_LINE_BYTES) return;
    const piece = part.subarray(0, MAX_KEPT_LINE_BYTES - kept);
    pieces.push(piece.slice());
    kept += piece.length;
  };
  const buffer = new Uint8Array(CHUNK_BYTES);
  let first = true;
  for (;;) {
    signal.throwIfAborted();
    const count = await file.read(buffer);
    if (count === null) break;
    const chunk = buffer.subarray(0, count);
    if (first && looksBinary(chunk.subarray(0, SAMPLE_BYTES))) {
      return { binary: true, size, total: 0, shown: [] };
    }
    first = false;
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      keep(chunk.subarray(start, at));
      finishLine();
      start = at + 1;
    }
    if (start < chunk.length) keep(chunk.subarray(start));
  }
  if (lineBytes > 0) finishLine();
  return { binary: false, size, total: line - 1, shown };
}

/** The result text for a finished scan. */
function formatScan(result: Scan, shownPath: string, offset: number): ToolResult {
  if (result.binary) return textResult(`binary file (${result.size} bytes), not shown`);
  if (result.total === 0) return textResult(`${shownPath} is empty (0 lines)`);
  if (offset > result.total) {
    return errorResult(
      `offset ${offset} is past the end of ${shownPath}, which has ${lineCount(result.total)}: ` +
        `use an offset from 1 to ${result.total}`,
    );
  }
  const last = offset + result.shown.length - 1;
  const lines = [...result.shown];
  if (last < result.total) {
    lines.push(`[lines ${offset}–${last} of ${result.total}; read on with offset ${last + 1}]`);
  }
  return textResult(lines.join("\n"));
}

/** A reader over `bytes`, as a file is read (a text an editor gave). */
function bytesReader(bytes: Uint8Array): { read(buffer: Uint8Array): Promise<number | null> } {
  let at = 0;
  return {
    read(buffer) {
      if (at >= bytes.length) return Promise.resolve(null);
      const count = Math.min(buffer.length, bytes.length - at);
      buffer.set(bytes.subarray(at, at + count));
      at += count;
      return Promise.resolve(count);
    },
  };
}

/**
 * The built-in `read` tool; `approval` decides reads of rienda's own files;
 * `files`, when given, are the editor's (`editor_files.ts`).
 */
export function createReadTool(approval: Approval, files?: EditorFiles): Tool {
  return {
    name: "read",
    description: DESCRIPTION,
    parameters: PARAMETERS,
    async execute(args, context) {
      const { path, offset = 1, limit = MAX_READ_LINES } = args;
      if (typeof path !== "string") throw new Error(`read: "path" must be a string`);
      if (typeof offset !== "number" || typeof limit !== "number") {
        throw new Error(`read: "offset" and "limit" must be integers`);
      }
      const absolute = resolveToolPath(context.workdir, path);
      const shown = displayPath(context.workdir, absolute);
      const refusal = await checkGuarded(approval, {
        tool: "read",
        verb: "read",
        path: absolute,
        signal: context.signal,
      });
      if (refusal !== null) return errorResult(refusal);
      let file: Deno.FsFile;
      try {
        // Checked before opening: opening a pipe would wait for a writer.
        const info = await Deno.stat(absolute);
        if (info.isDirectory) {
          return errorResult(`${shown} is a directory: use ls to list it, or read a file in it`);
        }
        if (!info.isFile) return errorResult(notRegularFile(shown));
        file = await Deno.open(absolute, { read: true });
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          return errorResult(await missingPathMessage(context.workdir, absolute, context.signal));
        }
        return errorResult(`cannot read ${shown}: ${errorMessage(error)}`);
      }
      try {
        const editor = await editorFilesFor(files, absolute);
        if (editor !== null) {
          const bytes = new TextEncoder().encode(await editor.readText(absolute, context.signal));
          const result = await scan(
            bytesReader(bytes),
            bytes.length,
            { offset, limit },
            context.signal,
          );
          return formatScan(result, shown, offset);
        }
        const info = await file.stat();
        const result = await scan(file, info.size, { offset, limit }, context.signal);
        return formatScan(result, shown, offset);
      } catch (error) {
        if (context.signal.aborted) throw error;
        return errorResult(`cannot read ${shown}: ${errorMessage(error)}`);
      } finally {
        file.close();
      }
    },
  };
}
