/**
 * Finding an executable the way a shell does: `ctx.system.which` and
 * `rienda doctor` (is `sh` on `PATH`?) share it.
 *
 * @module
 */

import { delimiter, isAbsolute, join, resolve } from "node:path";

/** Where to look. */
export interface ExecutableSearch {
  /** The value of `PATH`; an empty entry is the current directory. */
  readonly path: string;
  /** What relative entries and a relative name with a `/` are resolved against. */
  readonly cwd: string;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * The absolute path of executable `name`, or null: a name with a `/` is a
 * path (resolved against `cwd`), any other is looked up in `PATH`, in order.
 */
export async function findExecutable(
  name: string,
  search: ExecutableSearch,
): Promise<string | null> {
  if (name === "") return null;
  if (name.includes("/")) {
    const path = isAbsolute(name) ? name : resolve(search.cwd, name);
    return (await isExecutableFile(path)) ? path : null;
  }
  for (const dir of search.path.split(delimiter)) {
    const path = resolve(search.cwd, join(dir === "" ? "." : dir, name));
    if (await isExecutableFile(path)) return path;
  }
  return null;
}
