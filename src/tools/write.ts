/**
 * The built-in `write` tool: creates or replaces a whole file
 * (docs/tools.md). Parent folders are created; the file is replaced
 * atomically, keeping its mode (and a symbolic link stays a link: its target
 * is written; a dangling one is refused). Writes outside the workspace need
 * approval (`approval.ts`).
 *
 * The path is resolved once: approval is decided on the real path, and the
 * file is written in that real folder, checked again before the rename
 * (`writeFileAtomic`), so a link another process flips meanwhile cannot
 * carry the write elsewhere.
 *
 * Result: `created src/a.ts (12 lines)`, or `replaced src/a.ts (12 lines, was
 * 9)` followed by a short unified diff of the change when the old file was
 * UTF-8 text of at most {@link MAX_DIFF_BYTES}.
 *
 * @module
 */

import { dirname } from "node:path";
import { type Approval, checkWrite } from "./approval.ts";
import { type EditorFiles, editorFilesFor } from "./editor_files.ts";
import { shortDiff } from "./short_diff.ts";
import { errorResult, textResult, type Tool } from "./tool.ts";
import { danglingLink, displayPath, resolveToolPath, resolveWriteTarget } from "./tool_paths.ts";
import {
  countFileLines,
  countTextLines,
  lineCount,
  looksBinary,
  notRegularFile,
  writeFileAtomic,
} from "./text_file.ts";
import { errorMessage } from "../base/unknown.ts";

const DESCRIPTION = `Creates a file or replaces a whole file.

- The file gets exactly \`content\`.

- Use it for new files and for rewriting most of a file; to change part of a file use \`edit\`, which is safer and shorter. Read a file before you replace it.
- \`path\` is relative to the workspace (absolute paths work too). Missing parent folders are created.
- The content is written exactly as given (add the final newline yourself). The file is replaced atomically and keeps its permissions.
- Replacing a text file, the result is a unified diff of the change; check it.
- Writing outside the workspace needs the user's approval (\`-y\`); without it the call fails and says so.`;

const PARAMETERS = {
  type: "object",
  properties: {
    path: { type: "string", minLength: 1, description: "The file, relative to the workspace." },
    content: { type: "string", description: "The whole new content of the file." },
  },
  required: ["path", "content"],
  additionalProperties: false,
} as const;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/** Files up to this size get a diff in the result; a larger one only its line counts. */
export const MAX_DIFF_BYTES = 4 * 1024 * 1024;

/** The text of the file `path` for a diff, or null when it is larger, binary or not UTF-8. */
async function textForDiff(
  path: string,
  size: number,
  signal: AbortSignal,
): Promise<string | null> {
  if (size > MAX_DIFF_BYTES) return null;
  const bytes = await Deno.readFile(path, { signal });
  if (looksBinary(bytes)) return null;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The built-in `write` tool; `approval` decides writes outside the workspace;
 * `files`, when given, are the editor's (`editor_files.ts`).
 */
export function createWriteTool(approval: Approval, files?: EditorFiles): Tool {
  return {
    name: "write",
    description: DESCRIPTION,
    parameters: PARAMETERS,
    async execute(args, context) {
      const { path, content } = args;
      if (typeof path !== "string" || typeof content !== "string") {
        throw new Error(`write: "path" and "content" must be strings`);
      }
      const absolute = resolveToolPath(context.workdir, path);
      const shown = displayPath(context.workdir, absolute);
      const resolved = await resolveWriteTarget(absolute);
      if (resolved.kind === "dangling") {
        return errorResult(danglingLink(context.workdir, resolved, "write"));
      }
      const target = resolved.path;
      const refusal = await checkWrite(approval, {
        tool: "write",
        workdir: context.workdir,
        path: target,
        signal: context.signal,
      });
      if (refusal !== null) return errorResult(refusal);
      try {
        const info = await Deno.stat(target).catch(() => null);
        if (info?.isDirectory) {
          return errorResult(`${shown} is a directory: give the path of a file in it`);
        }
        if (info !== null && !info.isFile) {
          return errorResult(notRegularFile(shown));
        }
        const was = await countFileLines(target, context.signal);
        const before = was === null || info === null
          ? null
          : await textForDiff(target, info.size, context.signal);
        await Deno.mkdir(dirname(target), { recursive: true });
        const editor = await editorFilesFor(files, target);
        if (editor === null) await writeFileAtomic(target, encoder.encode(content));
        else await editor.writeText(target, content, context.signal);
        const lines = countTextLines(content);
        if (was === null) return textResult(`created ${shown} (${lineCount(lines)})`);
        const summary = `replaced ${shown} (${lineCount(lines)}, was ${was})`;
        const diff = before === null ? "" : shortDiff(before, content);
        return textResult(diff === "" ? summary : `${summary}\n${diff}`);
      } catch (error) {
        if (context.signal.aborted) throw error;
        if (
          error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists
        ) {
          return errorResult(
            `cannot write ${shown}: a part of the path is a file, not a folder: choose another path`,
          );
        }
        return errorResult(`cannot write ${shown}: ${errorMessage(error)}`);
      }
    },
  };
}
