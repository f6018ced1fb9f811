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

/** `path` with the links of its nearest existing ancestor resolved, and the first dangling link met. */
async function resolveParts(
  path: string,
): Promise<{ real: string; dangling: { link: string; target: string } | null }> {
  const missing: string[] = [];
  let dangling: { link: string; target: string } | null = null;
  let current = path;
  for (;;) {
    try {
      return { real: join(await Deno.realPath(current), ...missing.reverse()), dangling };
    } catch (error) {
      const parent = dirname(current);
      if (!(error instanceof Deno.errors.NotFound) || parent === current) {
        return { real: path, dangling };
      }
      const info = await Deno.lstat(current).catch(() => null);
      if (info?.isSymlink === true) {
        dangling = { link: current, target: await Deno.readLink(current) };
      }
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** The real path of `path`, resolving the links of its nearest existing ancestor when it does not exist. */
export async function realPathOf(path: string): Promise<string> {
  return (await resolveParts(path)).real;
}

/** Where a write lands: the real path, or the dangling symbolic link that stands in the way. */
export type WriteTarget =
  | { readonly kind: "path"; readonly path: string }
  | { readonly kind: "dangling"; readonly link: string; readonly target: string };

/**
 * Resolves `path` once for a write: its real path, or the dangling link met
 * on the way (nearest the root). `write` and `edit` refuse those rather than
 * guess: following one creates a file wherever the link points, replacing it
 * loses the link.
 */
export async function resolveWriteTarget(path: string): Promise<WriteTarget> {
  const { real, dangling } = await resolveParts(path);
  return dangling === null ? { kind: "path", path: real } : { kind: "dangling", ...dangling };
}

/** The error text for a write through a dangling link: which link, where it points, what to do. */
export function danglingLink(
  workdir: string,
  dangling: Extract<WriteTarget, { kind: "dangling" }>,
  tool: string,
): string {
  const link = displayPath(workdir, dangling.link);
  return `${link} is a symbolic link to ${dangling.target}, which does not exist: ${tool} ` +
    "neither follows nor replaces a dangling link; give the path it should point to, " +
    "or remove the link first";
}

/** Whether `path` is the workspace or inside it, on real paths. */
export async function isInsideWorkspace(workdir: string, path: string): Promise<boolean> {
  const [root, target] = await Promise.all([realPathOf(workdir), realPathOf(path)]);
  return staysBelow(relative(root, target));
}
