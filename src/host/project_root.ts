/**
 * The project of a workspace: the nearest folder upward from it that holds
 * `.git` (a folder, or a file as in a git worktree), else the workspace
 * itself. Project agents and instructions are looked up from there.
 *
 * @module
 */

import { dirname, isAbsolute, join, relative, sep } from "node:path";

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

/** What {@link resolveInside} found at a path. */
export type InsideFile =
  | { readonly kind: "absent" }
  /** Its real path leaves the folder (a link out of it). */
  | { readonly kind: "outside"; readonly realPath: string }
  /** A folder, a named pipe, a device or a socket: nothing to read as text. */
  | { readonly kind: "not_file"; readonly realPath: string }
  | { readonly kind: "file"; readonly realPath: string };

/**
 * Where `path` really is, measured against the real folder `realRoot`:
 * absent, outside it, not a regular file, or a file to open by its real
 * path. Nothing is opened, so a named pipe in its place cannot block.
 */
export async function resolveInside(path: string, realRoot: string): Promise<InsideFile> {
  let realPath: string;
  try {
    realPath = await Deno.realPath(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return { kind: "absent" };
    }
    throw error;
  }
  if (!isInside(realPath, realRoot)) return { kind: "outside", realPath };
  const info = await Deno.stat(realPath);
  return info.isFile ? { kind: "file", realPath } : { kind: "not_file", realPath };
}

/** Whether `path` is `folder` or below it (both absolute, normalised). */
export function isInside(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === "" || (rest !== ".." && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}
