/**
 * Paths given to `ctx` functions: relative ones resolve against the
 * workspace, absolute ones are taken as they are (extensions are trusted).
 *
 * @module
 */

import { isAbsolute, join, relative, sep } from "node:path";

/** The absolute path of `path` as seen from workspace `workdir`. */
export function resolveInWorkdir(workdir: string, path: string): string {
  return isAbsolute(path) ? path : join(workdir, path);
}

/** `path` relative to `workdir`, with `/` separators (`.` for the workspace itself). */
export function workspaceRelative(workdir: string, path: string): string {
  const rel = relative(workdir, path);
  if (rel === "") return ".";
  return sep === "/" ? rel : rel.split(sep).join("/");
}
