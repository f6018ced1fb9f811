/**
 * The built-in `ls` tool: one folder's entries, sorted, folders with a
 * trailing `/`, symbolic links as `name -> target` (docs/tools.md). Entries
 * the ignore files hide are left out and counted on a last line; `.git` is
 * never listed.
 *
 * @module
 */

import { walkTree } from "./file_tree.ts";
import { missingPathMessage } from "./missing_path.ts";
import { errorResult, textResult, type Tool } from "./tool.ts";
import { displayPath, resolveToolPath } from "./tool_paths.ts";
import { errorMessage } from "../base/unknown.ts";

/** The most entries one call lists. */
export const MAX_LS_ENTRIES = 1000;

/** Hidden entries named on the last line. */
const MAX_HIDDEN_NAMED = 10;

const DESCRIPTION = `Lists the entries of one folder.

- Sorted by name; folders end with \`/\`, symbolic links show \`name -> target\`.

- Use it to look around a folder; use \`find\` to find files by name across folders, \`read\` to open a file.
- \`path\` is relative to the workspace (default: the workspace itself).
- Entries hidden by .gitignore/.ignore are not listed (a last line counts them); .git is never listed.
- At most ${MAX_LS_ENTRIES} entries are listed, then the count of the rest.`;

const PARAMETERS = {
  type: "object",
  properties: {
    path: {
      type: "string",
      description: "The folder to list, relative to the workspace. Default: the workspace.",
    },
  },
  additionalProperties: false,
} as const;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The entries of `dir`, formatted and sorted, and the names the ignore files hid. */
async function listDir(workdir: string, dir: string, signal: AbortSignal) {
  const shown: string[] = [];
  const hidden: string[] = [];
  const walk = walkTree({
    workdir,
    root: dir,
    recursive: false,
    respectIgnoreFiles: true,
    signal,
    onIgnored: (entry) => hidden.push(entry.isDir ? `${entry.name}/` : entry.name),
  });
  for await (const entry of walk) {
    if (entry.isSymlink) {
      const target = await Deno.readLink(entry.path).catch(() => "?");
      shown.push(`${entry.name} -> ${target}`);
    } else shown.push(entry.isDir ? `${entry.name}/` : entry.name);
  }
  return { shown: shown.sort(compare), hidden: hidden.sort(compare) };
}

/** The built-in `ls` tool. */
export function createLsTool(): Tool {
  return {
    name: "ls",
    description: DESCRIPTION,
    parameters: PARAMETERS,
    async execute(args, context) {
      const { path = "." } = args;
      if (typeof path !== "string") throw new Error(`ls: "path" must be a string`);
      const { workdir, signal } = context;
      const dir = resolveToolPath(workdir, path);
      const shownDir = displayPath(workdir, dir);
      let listing: { shown: string[]; hidden: string[] };
      try {
        if (!(await Deno.stat(dir)).isDirectory) {
          return errorResult(`${shownDir} is a file, not a folder: use read to see it`);
        }
        listing = await listDir(workdir, dir, signal);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          return errorResult(await missingPathMessage(workdir, dir, signal));
        }
        if (signal.aborted) throw error;
        return errorResult(`cannot list ${shownDir}: ${errorMessage(error)}`);
      }
      const { shown, hidden } = listing;
      const lines = shown.slice(0, MAX_LS_ENTRIES);
      const more = shown.length - lines.length;
      if (shown.length === 0) lines.push(`(${shownDir} has no entries to show)`);
      if (more > 0) lines.push(`[${more} more entries not shown: use find with a pattern]`);
      if (hidden.length > 0) {
        const named = hidden.slice(0, MAX_HIDDEN_NAMED).join(", ");
        const rest = hidden.length > MAX_HIDDEN_NAMED ? ", …" : "";
        lines.push(`[${hidden.length} hidden by ignore files: ${named}${rest}]`);
      }
      return textResult(lines.join("\n"));
    },
  };
}
