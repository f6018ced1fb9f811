/**
 * `ctx.file.list`: a directory's entries as workspace-relative, sorted paths,
 * honouring the `.gitignore` and `.ignore` files of the tree (nested ones
 * too, from the workspace root down) and never listing `.git`
 * (`tools/file_tree.ts` walks the tree).
 *
 * - Symbolic links are listed as files and never followed.
 * - An ignored directory is not descended into, as in git.
 *
 * @module
 */

import { walkTree } from "../../tools/file_tree.ts";
import { BridgeError } from "./arguments.ts";
import { workspaceRelative } from "./paths.ts";

/** One entry of `ctx.file.list`. */
export interface FileEntry {
  readonly name: string;
  /** Relative to the workspace, `/`-separated. */
  readonly path: string;
  readonly isDir: boolean;
}

/** What {@link listFiles} lists. */
export interface ListOptions {
  readonly workdir: string;
  /** The absolute directory to list. */
  readonly root: string;
  readonly recursive: boolean;
  readonly respectIgnoreFiles: boolean;
  readonly signal: AbortSignal;
}

/** The most entries one call returns, so a huge tree cannot exhaust memory. */
export const MAX_LIST_ENTRIES = 100_000;

/** Lists `options.root` (see the module doc). */
export async function listFiles(options: ListOptions): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  for await (const entry of walkTree(options)) {
    if (entries.length >= MAX_LIST_ENTRIES) {
      throw new BridgeError(`ctx.file.list: more than ${MAX_LIST_ENTRIES} entries`, "RangeError");
    }
    const path = workspaceRelative(options.workdir, entry.path);
    entries.push({ name: entry.name, path, isDir: entry.isDir });
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
