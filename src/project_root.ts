/**
 * The project of a workspace: the nearest folder upward from it that holds
 * `.git` (a folder, or a file as in a git worktree), else the workspace
 * itself. Project agents and instructions are looked up from there.
 *
 * @module
 */

import { dirname, join } from "node:path";

/** The project root of the absolute path `workdir` (see the module doc). */
export async function findProjectRoot(workdir: string): Promise<string> {
  for (let dir = workdir;; dir = dirname(dir)) {
    try {
      await Deno.lstat(join(dir, ".git"));
      return dir;
    } catch (error) {
      const absent = error instanceof Deno.errors.NotFound ||
        error instanceof Deno.errors.NotADirectory ||
        error instanceof Deno.errors.PermissionDenied;
      if (!absent) throw error;
    }
    if (dirname(dir) === dir) return workdir;
  }
}

/** The folders from `root` down to `workdir`, root first (only `workdir` when it is not below `root`). */
export function foldersDown(root: string, workdir: string): string[] {
  const folders: string[] = [];
  for (let dir = workdir;; dir = dirname(dir)) {
    folders.unshift(dir);
    if (dir === root) return folders;
    if (dirname(dir) === dir) return [workdir];
  }
}
