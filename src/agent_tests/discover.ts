/**
 * The case files `rienda test` runs: the `*.test.yaml` files under each
 * folder given (folders whose name starts with a dot, and `node_modules`,
 * are skipped), and each file given as it is; sorted, each once.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { CASE_SUFFIX } from "./case_file.ts";

/** A path given to `rienda test` that is neither a file nor a folder. */
export class NoCasesError extends Error {
  override name = "NoCasesError";
}

async function walk(dir: string, found: string[]): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (!entry.name.startsWith(".") && entry.name !== "node_modules") await walk(path, found);
    } else if (entry.isFile && entry.name.endsWith(CASE_SUFFIX)) {
      found.push(path);
    }
  }
}

/**
 * The absolute paths of the case files of `paths` (relative to `cwd`).
 *
 * @throws {NoCasesError} for a path that does not exist
 */
export async function findCaseFiles(cwd: string, paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    const info = await Deno.stat(path).catch(() => null);
    if (info === null) {
      throw new NoCasesError(
        `${given}: no such file or folder: pass a *${CASE_SUFFIX} file or a folder of them`,
      );
    }
    if (info.isDirectory) await walk(path, found);
    else found.push(path);
  }
  return [...new Set(found)].sort();
}
