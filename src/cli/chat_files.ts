/**
 * The files the chat's `@` popup offers: the workspace's files and folders
 * (folders end in `/`), honouring `.gitignore` and `.ignore`, at most
 * {@link MAX_LISTED_FILES} of them and for at most {@link LIST_TIME_MS}. A
 * listing cut short says so (`complete: false`), so the popup never claims
 * "no match" of a file it did not look at, and can list a folder instead.
 *
 * @module
 */

import { isAbsolute, relative, resolve, sep } from "node:path";
import { walkTree } from "../tools/file_tree.ts";
import type { FileListing } from "../ui/interactive/backend.ts";

/** The most entries one listing holds. */
export const MAX_LISTED_FILES = 20_000;
/** The longest one listing takes. */
const LIST_TIME_MS = 2_000;

/** Lists `folder` (relative to `workdir`, "" for all of it) as the popup offers it. */
export async function listWorkspaceFiles(workdir: string, folder: string): Promise<FileListing> {
  const root = resolve(workdir, folder);
  const inside = relative(workdir, root);
  // The popup completes paths of the workspace: a folder outside it is not listed.
  if (inside.startsWith("..") || isAbsolute(inside)) return { folder, paths: [], complete: true };
  const paths: string[] = [];
  let complete = true;
  try {
    for await (
      const entry of walkTree({
        workdir,
        root,
        recursive: true,
        respectIgnoreFiles: true,
        signal: AbortSignal.timeout(LIST_TIME_MS),
      })
    ) {
      if (paths.length >= MAX_LISTED_FILES) {
        complete = false;
        break;
      }
      const path = relative(workdir, entry.path).split(sep).join("/");
      paths.push(entry.isDir ? `${path}/` : path);
    }
  } catch (error) {
    // A folder that is not there has nothing to offer; out of time, what was found stands.
    complete = error instanceof Deno.errors.NotFound && paths.length === 0;
  }
  return { folder, paths, complete };
}
