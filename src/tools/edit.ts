/**
 * The built-in `edit` tool: exact string replacement in one file
 * (docs/tools.md).
 *
 * - `old_string` must occur exactly once, or `replace_all` must be set; no
 *   match or several are error results that say where to look.
 * - The file keeps its line ends (a CRLF file stays CRLF: the strings are
 *   matched with LF line ends), its byte-order mark and its mode; it is
 *   replaced atomically. Files that are binary or not valid UTF-8 are never
 *   changed (writing them back would alter bytes nobody asked to change).
 * - `old_string: ""` on a missing (or empty) file creates it with `new_string`.
 * - The result is a short unified diff of the change.
 * - The size and the first bytes are checked before the file is read: a file
 *   over {@link MAX_EDIT_BYTES} or a binary one is refused at once, and the
 *   read goes in pieces with the signal checked between them.
 * - The path is resolved once, as for `write` (a dangling link is refused).
 *
 * @module
 */

import { dirname } from "node:path";
import { type Approval, checkWrite } from "./approval.ts";
import { type EditorFiles, editorFilesFor } from "./editor_files.ts";
import { lineNumbersOf, listNumbers, notFoundHint, occurrences } from "./edit_match.ts";
import { missingPathMessage } from "./missing_path.ts";
import { shortDiff } from "./short_diff.ts";
import { errorResult, textResult, type Tool, type ToolResult } from "./tool.ts";
import { danglingLink, displayPath, resolveToolPath, resolveWriteTarget } from "./tool_paths.ts";
import {
  CHUNK_BYTES,
  concatBytes,
  countTextLines,
  lineCount,
  looksBinary,
  notRegularFile,
  SAMPLE_BYTES,
  writeFileAtomic,
} from "./text_file.ts";
import { errorMessage } from "../base/unknown.ts";

/**
 * The largest file `edit` changes: reading, matching and writing back hold
 * several copies of the file in memory, so a larger file would take seconds
 * and gigabytes.
 */
export const MAX_EDIT_BYTES = 32 * 1024 * 1024;

const DESCRIPTION = `Replaces exact text in a file and shows the diff.

- \`old_string\` becomes \`new_string\`; nothing else in the file changes.
- Read the file first and copy \`old_string\` exactly from it, with its indentation (without the line numbers \`read\` adds).
- \`old_string\` must occur exactly once: include enough surrounding lines to make it unique, or set \`replace_all\` to change every occurrence (e.g. renaming a variable).
- Line ends are kept: a CRLF file stays CRLF (write the strings with plain \\n).
- To create a file use \`write\`, or \`edit\` with an empty \`old_string\` on a path that does not exist yet.
- The result is a unified diff of the change; check it.
- Editing outside the workspace needs the user's approval (\`-y\`); without it the call fails and says so.`;

const PARAMETERS = {
  type: "object",
  properties: {
    path: { type: "string", minLength: 1, description: "The file, relative to the workspace." },
    "old_string": { type: "string", description: "The exact text to replace." },
    "new_string": { type: "string", description: "The text to put in its place." },
    "replace_all": {
      type: "boolean",
      description: "Replace every occurrence instead of requiring exactly one. Default false.",
    },
  },
  required: ["path", "old_string", "new_string"],
  additionalProperties: false,
} as const;

interface EditArgs {
  readonly path: string;
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

/** Reads validated arguments; a wrong type here means the caller skipped validation. */
function readArgs(args: Record<string, unknown>): EditArgs {
  const { path, "old_string": oldString, "new_string": newString, "replace_all": all } = args;
  if (typeof path !== "string" || typeof oldString !== "string" || typeof newString !== "string") {
    throw new Error(`edit: "path", "old_string" and "new_string" must be strings`);
  }
  if (all !== undefined && typeof all !== "boolean") {
    throw new Error(`edit: "replace_all" must be a boolean`);
  }
  return { path, oldString, newString, replaceAll: all === true };
}

/** A text file split into what `edit` changes and what it keeps. */
interface TextFile {
  readonly bom: boolean;
  readonly crlf: boolean;
  /** The text without the BOM, with LF line ends when {@link crlf}. */
  readonly text: string;
}

// ignoreBOM: the BOM stays in the text, so it can be put back.
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The file as text, or the message saying why it cannot be edited. */
function decodeFile(bytes: Uint8Array, shown: string): TextFile | string {
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    return `${shown} is not valid UTF-8: edit does not change it, as saving it would alter ` +
      "the bytes that are not; use shell (e.g. sed) if it must change";
  }
  const bom = text.startsWith("\uFEFF");
  if (bom) text = text.slice(1);
  const breaks = occurrences(text, "\n").length;
  const crlf = breaks > 0 && occurrences(text, "\r\n").length === breaks;
  return { bom, crlf, text: crlf ? text.replaceAll("\r\n", "\n") : text };
}

function encodeFile(file: TextFile, text: string): Uint8Array {
  const ends = file.crlf ? text.replaceAll("\n", "\r\n") : text;
  return encoder.encode(file.bom ? `\uFEFF${ends}` : ends);
}

/** The new text and the number of replacements, or the error text saying why there are none. */
function replaceIn(
  text: string,
  edit: EditArgs,
  shown: string,
): { text: string; count: number } | { error: string } {
  const { oldString, newString } = edit;
  if (oldString === "") {
    if (text === "") return { text: newString, count: 1 };
    return {
      error: `old_string is empty, but ${shown} is not: give the exact text to replace ` +
        "(to replace the whole file use write)",
    };
  }
  const found = occurrences(text, oldString);
  if (found.length === 0) return { error: notFoundHint(text, oldString, shown) };
  if (found.length > 1 && !edit.replaceAll) {
    return {
      error: `old_string occurs ${found.length} times in ${shown} (lines ${
        listNumbers(lineNumbersOf(text, found))
      }): add surrounding lines to old_string to make it unique, or set replace_all to true`,
    };
  }
  const at = found[0] ?? 0;
  const changed = edit.replaceAll
    ? text.split(oldString).join(newString)
    : text.slice(0, at) + newString + text.slice(at + oldString.length);
  return { text: changed, count: found.length };
}

/** Creates `target` with `content` (an empty `old_string` on a missing file). */
async function createFile(
  target: string,
  content: string,
  shown: string,
  editor: { files: EditorFiles | null; signal: AbortSignal },
): Promise<ToolResult> {
  await Deno.mkdir(dirname(target), { recursive: true });
  if (editor.files === null) await writeFileAtomic(target, encoder.encode(content));
  else await editor.files.writeText(target, content, editor.signal);
  return textResult(`created ${shown} (${lineCount(countTextLines(content))})`);
}

/** `1.5 MiB`. */
function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** The refusal of a file over {@link MAX_EDIT_BYTES}, with what to do instead. */
function tooLarge(shown: string, size: number): string {
  return `${shown} is ${mebibytes(size)}, larger than the ${mebibytes(MAX_EDIT_BYTES)} edit ` +
    "changes: use shell for a file this large (sed -i, or a short script), or split the file";
}

/**
 * The bytes of the opened file: the size it reports and its first piece are
 * checked before the rest is read (in pieces, the signal checked between
 * them); the count of bytes read is checked too, since a growing file's size
 * is stale. A string is the message saying why it is not edited.
 */
async function readForEdit(
  file: Deno.FsFile,
  shown: string,
  signal: AbortSignal,
): Promise<Uint8Array | string> {
  const { size } = await file.stat();
  if (size > MAX_EDIT_BYTES) return tooLarge(shown, size);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(CHUNK_BYTES);
  for (;;) {
    signal.throwIfAborted();
    const count = await file.read(buffer);
    if (count === null) break;
    if (total === 0 && looksBinary(buffer.subarray(0, Math.min(count, SAMPLE_BYTES)))) {
      return `${shown} is a binary file: edit changes text files only`;
    }
    total += count;
    if (total > MAX_EDIT_BYTES) return tooLarge(shown, total);
    chunks.push(buffer.slice(0, count));
  }
  return concatBytes(chunks, total);
}

/** The bytes of an editor's text, or why it is not edited (as {@link readForEdit} says). */
function editorBytes(text: string, shown: string): Uint8Array | string {
  const bytes = encoder.encode(text);
  if (bytes.length > MAX_EDIT_BYTES) return tooLarge(shown, bytes.length);
  if (looksBinary(bytes.subarray(0, SAMPLE_BYTES))) {
    return `${shown} is a binary file: edit changes text files only`;
  }
  return bytes;
}

async function editFile(
  edit: EditArgs,
  target: string,
  shown: string,
  context: { workdir: string; signal: AbortSignal; files: EditorFiles | undefined },
): Promise<ToolResult> {
  const files = await editorFilesFor(context.files, target);
  let bytes: Uint8Array | string;
  try {
    // Checked before opening: opening a pipe would wait for a writer.
    const info = await Deno.stat(target);
    if (info.isDirectory) {
      return errorResult(`${shown} is a directory: give the path of a file in it`);
    }
    if (!info.isFile) return errorResult(notRegularFile(shown));
    using file = await Deno.open(target, { read: true });
    bytes = files === null
      ? await readForEdit(file, shown, context.signal)
      : editorBytes(await files.readText(target, context.signal), shown);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    if (edit.oldString === "") {
      return await createFile(target, edit.newString, shown, { files, signal: context.signal });
    }
    return errorResult(await missingPathMessage(context.workdir, target, context.signal));
  }
  if (typeof bytes === "string") return errorResult(bytes);
  const file = decodeFile(bytes, shown);
  if (typeof file === "string") return errorResult(file);
  const crlf = (text: string) => file.crlf ? text.replaceAll("\r\n", "\n") : text;
  const normalised = { ...edit, oldString: crlf(edit.oldString), newString: crlf(edit.newString) };
  const changed = replaceIn(file.text, normalised, shown);
  if ("error" in changed) return errorResult(changed.error);
  const encoded = encodeFile(file, changed.text);
  if (files === null) await writeFileAtomic(target, encoded);
  else await files.writeText(target, new TextDecoder().decode(encoded), context.signal);
  const { count } = changed;
  const summary = `edited ${shown} (${count} replacement${count === 1 ? "" : "s"})`;
  return textResult(`${summary}\n${shortDiff(file.text, changed.text)}`);
}

/**
 * The built-in `edit` tool; `approval` decides edits outside the workspace;
 * `files`, when given, are the editor's (`editor_files.ts`).
 */
export function createEditTool(approval: Approval, files?: EditorFiles): Tool {
  return {
    name: "edit",
    description: DESCRIPTION,
    parameters: PARAMETERS,
    async execute(args, context) {
      const edit = readArgs(args);
      const absolute = resolveToolPath(context.workdir, edit.path);
      const shown = displayPath(context.workdir, absolute);
      if (edit.oldString === edit.newString) {
        return errorResult(
          "old_string and new_string are the same, so there is nothing to change: " +
            "give the new text in new_string",
        );
      }
      const resolved = await resolveWriteTarget(absolute);
      if (resolved.kind === "dangling") {
        return errorResult(danglingLink(context.workdir, resolved, "edit"));
      }
      const refusal = await checkWrite(approval, {
        tool: "edit",
        workdir: context.workdir,
        path: resolved.path,
        signal: context.signal,
      });
      if (refusal !== null) return errorResult(refusal);
      try {
        return await editFile(edit, resolved.path, shown, { ...context, files });
      } catch (error) {
        if (context.signal.aborted) throw error;
        return errorResult(`cannot edit ${shown}: ${errorMessage(error)}`);
      }
    },
  };
}
