/**
 * The error text for a path that does not exist, naming close matches the
 * model probably meant: names of the same folder at a small edit distance
 * (or differing only in case or extension), and files of the same name
 * elsewhere in the workspace.
 *
 * @module
 */

import { basename, dirname, extname, join } from "node:path";
import { distance } from "fastest-levenshtein";
import { walkTree } from "./file_tree.ts";
import { displayPath } from "./tool_paths.ts";

/** The most close matches named. */
const MAX_MATCHES = 5;

/** The most entries looked at when searching the workspace for the same name. */
const MAX_SCANNED = 20_000;

function stem(name: string): string {
  return name.slice(0, name.length - extname(name).length).toLowerCase();
}

/** The names of `dir` close to `name`, closest first. */
async function similarNames(dir: string, name: string): Promise<string[]> {
  const wanted = name.toLowerCase();
  const budget = Math.max(1, Math.floor(name.length / 4));
  const scored: { name: string; score: number }[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const candidate = entry.name.toLowerCase();
      const score = candidate === wanted
        ? 0
        : stem(entry.name) === stem(name)
        ? 1
        : distance(candidate, wanted);
      if (score <= budget) scored.push({ name: entry.name, score });
    }
  } catch {
    return [];
  }
  return scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1))
    .map((entry) => join(dir, entry.name));
}

/** Files of the workspace named `name` (case-insensitive), in walk order. */
async function sameNameElsewhere(
  workdir: string,
  name: string,
  signal: AbortSignal,
): Promise<string[]> {
  const wanted = name.toLowerCase();
  const found: string[] = [];
  let scanned = 0;
  try {
    for await (
      const entry of walkTree({
        workdir,
        root: workdir,
        recursive: true,
        respectIgnoreFiles: true,
        signal,
      })
    ) {
      if (++scanned > MAX_SCANNED || found.length >= MAX_MATCHES) break;
      if (!entry.isDir && entry.name.toLowerCase() === wanted) found.push(entry.path);
    }
  } catch {
    // an unreadable folder ends the search; what was found still helps
  }
  return found;
}

/** The nearest ancestor of `path` that exists, or null. */
async function existingAncestor(path: string): Promise<string | null> {
  for (let dir = dirname(path);; dir = dirname(dir)) {
    try {
      if ((await Deno.stat(dir)).isDirectory) return dir;
    } catch {
      // keep climbing
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * `<path> does not exist`, then the close matches (`did you mean …?`) or the
 * nearest folder that does exist.
 */
export async function missingPathMessage(
  workdir: string,
  path: string,
  signal: AbortSignal,
): Promise<string> {
  const shown = displayPath(workdir, path);
  const name = basename(path);
  const matches = new Set(await similarNames(dirname(path), name));
  if (matches.size < MAX_MATCHES) {
    for (const match of await sameNameElsewhere(workdir, name, signal)) matches.add(match);
  }
  const named = [...matches].filter((match) => match !== path).slice(0, MAX_MATCHES);
  if (named.length > 0) {
    const list = named.map((match) => displayPath(workdir, match)).join(", ");
    return `${shown} does not exist; did you mean ${list}?`;
  }
  const ancestor = await existingAncestor(path);
  if (ancestor !== null && ancestor !== dirname(path)) {
    return `${shown} does not exist (the nearest existing folder is ${
      displayPath(workdir, ancestor)
    }): check the path, or use find to look for the file`;
  }
  return `${shown} does not exist: check the path, or use find to look for the file`;
}
