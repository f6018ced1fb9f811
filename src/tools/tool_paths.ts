/**
 * Paths given to the built-in file tools: relative ones resolve against the
 * workspace, absolute ones are taken as they are; results name a path
 * relative to the workspace when it is inside, else absolute.
 *
 * "Inside the workspace" is decided on real paths, so a symbolic link in the
 * workspace that points elsewhere leads outside.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** The absolute path of `path` as seen from workspace `workdir`. */
export function resolveToolPath(workdir: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(workdir, path);
}

/** Whether a `relative()` result stays below its base (or is the base itself, `""`). */
export function staysBelow(rel: string): boolean {
  return !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** `path` relative to `workdir` with `/` separators when it is inside (`.` for the workspace), else absolute. */
export function displayPath(workdir: string, path: string): string {
  const rel = relative(workdir, path);
  if (rel === "") return ".";
  if (!staysBelow(rel)) return path;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** The real path of `path`, resolving the links of its nearest existing ancestor when it does not exist. */
export async function realPathOf(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await Deno.realPath(current), ...missing.reverse());
    } catch (error) {
      const parent = dirname(current);
      if (!(error instanceof Deno.errors.NotFound) || parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** Whether `path` is the workspace or inside it, on real paths. */
export async function isInsideWorkspace(workdir: string, path: string): Promise<boolean> {
  const [root, target] = await Promise.all([realPathOf(workdir), realPathOf(path)]);
  return staysBelow(relative(root, target));
}
