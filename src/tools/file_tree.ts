/**
 * Walks a directory tree the way git sees it: the `.gitignore` and `.ignore`
 * files of the tree (nested ones too, from the workspace root down) are
 * honoured with the `ignore` package, and `.git` is never entered. The
 * built-in file tools and `ctx.file.list` share it.
 *
 * - Symbolic links are reported as they are and never followed.
 * - An ignored directory is not descended into, as in git.
 * - Entries come depth first in directory order (not sorted); stop early
 *   by leaving the `for await` loop.
 *
 * @module
 */

import { join, relative } from "node:path";
import ignore, { type Ignore } from "ignore";

/** One entry of a walk. */
export interface TreeEntry {
  readonly name: string;
  /** Absolute path. */
  readonly path: string;
  readonly isDir: boolean;
  /** A regular file (not a folder, link, pipe, socket or device). */
  readonly isFile: boolean;
  readonly isSymlink: boolean;
}

/** What {@link walkTree} walks. */
export interface WalkOptions {
  /** The workspace: ignore files from here down to `root` apply. */
  readonly workdir: string;
  /** The absolute directory to walk. */
  readonly root: string;
  /** Descend into subdirectories. */
  readonly recursive: boolean;
  /** Honour `.gitignore` and `.ignore`; false lists everything but `.git`. */
  readonly respectIgnoreFiles: boolean;
  readonly signal: AbortSignal;
  /** Receives each entry an ignore file hid (to count or name them). */
  readonly onIgnored?: (entry: TreeEntry) => void;
}

const IGNORE_FILES = [".gitignore", ".ignore"];

interface Matcher {
  readonly base: string;
  readonly rules: Ignore;
}

/** The rules of `dir`'s ignore files; `names` limits the reads to files known to exist. */
async function readIgnoreFiles(
  dir: string,
  names: readonly string[] = IGNORE_FILES,
): Promise<Matcher | null> {
  let text = "";
  for (const name of names) {
    try {
      text += `${await Deno.readTextFile(join(dir, name))}\n`;
    } catch {
      // a missing or unreadable ignore file ignores nothing
    }
  }
  return text.trim() === "" ? null : { base: dir, rules: ignore().add(text) };
}

/** Whether the nearest rule that matches `path` ignores it (later, deeper files win). */
function isIgnored(matchers: readonly Matcher[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of matchers) {
    const rel = relative(base, path).split("\\").join("/");
    if (rel === "" || rel.startsWith("..")) continue;
    const verdict = rules.test(isDir ? `${rel}/` : rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

/** Ignore files of the directories between the workspace and `root` (root excluded). */
async function ancestorMatchers(workdir: string, root: string): Promise<Matcher[]> {
  const rel = relative(workdir, root);
  if (rel === "" || rel.startsWith("..")) return [];
  const matchers: Matcher[] = [];
  let dir = workdir;
  for (const part of rel.split(/[\\/]/)) {
    const matcher = await readIgnoreFiles(dir);
    if (matcher !== null) matchers.push(matcher);
    dir = join(dir, part);
  }
  return matchers;
}

/** The entries under `options.root` (see the module doc). */
export async function* walkTree(options: WalkOptions): AsyncGenerator<TreeEntry> {
  const { recursive, respectIgnoreFiles, signal, onIgnored } = options;
  const start = respectIgnoreFiles ? await ancestorMatchers(options.workdir, options.root) : [];
  const pending: { dir: string; matchers: readonly Matcher[] }[] = [
    { dir: options.root, matchers: start },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    signal.throwIfAborted();
    const { dir, matchers: inherited } = next;
    const entries: TreeEntry[] = [];
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name === ".git") continue;
      entries.push({
        name: entry.name,
        path: join(dir, entry.name),
        isDir: entry.isDirectory,
        isFile: entry.isFile,
        isSymlink: entry.isSymlink,
      });
    }
    let matchers = inherited;
    if (respectIgnoreFiles) {
      const present = IGNORE_FILES.filter((name) => entries.some((entry) => entry.name === name));
      const own = present.length === 0 ? null : await readIgnoreFiles(dir, present);
      if (own !== null) matchers = [...inherited, own];
    }
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (respectIgnoreFiles && isIgnored(matchers, entry.path, entry.isDir)) {
        onIgnored?.(entry);
        continue;
      }
      yield entry;
      if (entry.isDir && recursive) subdirs.push(entry.path);
    }
    for (const subdir of subdirs.reverse()) pending.push({ dir: subdir, matchers });
  }
}
