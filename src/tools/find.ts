/**
 * The built-in `find` tool: the files of a folder that match a glob, newest
 * first (docs/tools.md). Ignore files are honoured, `.git` is never entered,
 * symbolic links are not followed.
 *
 * ```
 * src/tools/read.ts
 * src/tools/grep.ts
 * [1234 more files not shown]
 * ```
 *
 * @module
 */

import { compileGlob, filesMatching } from "./glob.ts";
import { missingPathMessage } from "./missing_path.ts";
import { errorResult, textResult, type Tool } from "./tool.ts";
import { displayPath, resolveToolPath } from "./tool_paths.ts";
import { errorMessage } from "../base/unknown.ts";

/** The most paths one call prints. */
export const MAX_FIND_RESULTS = 1000;

/** The most files one call looks at. */
const MAX_FILES = 100_000;

/** Files whose modification time is read at once. */
const STAT_BATCH = 64;

const DESCRIPTION = `Finds files by glob pattern, newest first.

- Use it to find files by name or extension (\`**/*.test.ts\`, \`src/**/config.*\`); use \`grep\` to search inside files, \`ls\` to see one folder.
- \`*\` matches within one folder, \`**\` across folders, \`{a,b}\` either; a pattern without \`/\` matches file names at any depth (\`*.md\`).
- The pattern is relative to \`path\` (default: the workspace). Files hidden by .gitignore/.ignore and the .git folder are skipped.
- Paths are relative to the workspace. At most ${MAX_FIND_RESULTS} are listed, then the count of the rest.`;

const PARAMETERS = {
  type: "object",
  properties: {
    pattern: {
      type: "string",
      minLength: 1,
      description: "Glob such as `**/*.ts` or `src/**/*.test.ts`, relative to `path`.",
    },
    path: {
      type: "string",
      description: "The folder to search, relative to the workspace. Default: the workspace.",
    },
  },
  required: ["pattern"],
  additionalProperties: false,
} as const;

/** `paths` with their modification times, newest first (then by path). */
async function newestFirst(paths: readonly string[], signal: AbortSignal): Promise<string[]> {
  const timed: { path: string; time: number }[] = [];
  for (let start = 0; start < paths.length; start += STAT_BATCH) {
    signal.throwIfAborted();
    const batch = paths.slice(start, start + STAT_BATCH);
    const times = await Promise.all(
      batch.map((path) => Deno.stat(path).then((info) => info.mtime?.getTime() ?? 0, () => 0)),
    );
    batch.forEach((path, index) => timed.push({ path, time: times[index] ?? 0 }));
  }
  timed.sort((a, b) => b.time - a.time || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return timed.map((entry) => entry.path);
}

/** The built-in `find` tool. */
export function createFindTool(): Tool {
  return {
    name: "find",
    description: DESCRIPTION,
    parameters: PARAMETERS,
    async execute(args, context) {
      const { pattern, path = "." } = args;
      if (typeof pattern !== "string" || typeof path !== "string") {
        throw new Error(`find: "pattern" and "path" must be strings`);
      }
      const { workdir, signal } = context;
      const glob = compileGlob(pattern);
      if (typeof glob === "string") return errorResult(glob);
      const root = resolveToolPath(workdir, path);
      const shownRoot = displayPath(workdir, root);
      try {
        if (!(await Deno.stat(root)).isDirectory) {
          return errorResult(`${shownRoot} is a file, not a folder: give a folder as path`);
        }
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          return errorResult(await missingPathMessage(workdir, root, signal));
        }
        return errorResult(`cannot search ${shownRoot}: ${errorMessage(error)}`);
      }
      const found = await filesMatching({ workdir, root, glob, maxFiles: MAX_FILES, signal });
      if (found.paths.length === 0) {
        return textResult(`no files match "${pattern}" in ${shownRoot}`);
      }
      const sorted = await newestFirst(found.paths, signal);
      const lines = sorted.slice(0, MAX_FIND_RESULTS).map((file) => displayPath(workdir, file));
      const more = sorted.length - lines.length;
      if (more > 0) lines.push(`[${more} more files not shown: narrow the pattern or the path]`);
      if (found.truncated) {
        lines.push(`[stopped after ${MAX_FILES} files: narrow the pattern or the path]`);
      }
      return textResult(lines.join("\n"));
    },
  };
}
