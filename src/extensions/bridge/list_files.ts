/**
 * `ctx.file.list`: a directory's entries as workspace-relative, sorted paths,
 * honouring the `.gitignore` and `.ignore` files of the tree (nested ones
 * too, from the workspace root down) and never listing `.git`.
 *
 * - Symbolic links are listed as files and never followed.
 * - An ignored directory is not descended into, as in git.
 *
 * @module
 */

import { join, relative } from "node:path";
import ignore, { type Ignore } from "ignore";
import { BridgeError } from "./arguments.ts";
import { workspaceRelative } from "./paths.ts";

/** One entry of `ctx.file.list`. */
export interface FileEntry {
  readonly name: string;
  /** Relative to the workspace, `/`-separated. */
  readonly path: string;
  readonly isDir: boolean;
}

/** What {@link listFiles} lists. */
export interface ListOptions {
  readonly workdir: string;
  /** The absolute directory to list. */
  readonly root: string;
  readonly recursive: boolean;
  readonly respectIgnoreFiles: boolean;
  readonly signal: AbortSignal;
}

/** The most entries one call returns, so a huge tree cannot exhaust memory. */
export const MAX_LIST_ENTRIES = 100_000;

const IGNORE_FILES = [".gitignore", ".ignore"];

interface Matcher {
  readonly base: string;
  readonly rules: Ignore;
}

async function readIgnoreFiles(dir: string): Promise<Matcher | null> {
  let text = "";
  for (const name of IGNORE_FILES) {
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
  for (const part of rel.split(/[\\/]/).slice(0, -1)) {
    const matcher = await readIgnoreFiles(dir);
    if (matcher !== null) matchers.push(matcher);
    dir = join(dir, part);
  }
  const last = await readIgnoreFiles(dir);
  if (last !== null && dir !== root) matchers.push(last);
  return matchers;
}

/** Lists `options.root` (see the module doc). */
export async function listFiles(options: ListOptions): Promise<FileEntry[]> {
  const { workdir, recursive, respectIgnoreFiles, signal } = options;
  const entries: FileEntry[] = [];
  async function walk(dir: string, inherited: readonly Matcher[]): Promise<void> {
    signal.throwIfAborted();
    let matchers = inherited;
    if (respectIgnoreFiles) {
      const own = await readIgnoreFiles(dir);
      if (own !== null) matchers = [...inherited, own];
    }
    const subdirs: string[] = [];
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name === ".git") continue;
      const path = join(dir, entry.name);
      const isDir = entry.isDirectory;
      if (respectIgnoreFiles && isIgnored(matchers, path, isDir)) continue;
      if (entries.length >= MAX_LIST_ENTRIES) {
        throw new BridgeError(`ctx.file.list: more than ${MAX_LIST_ENTRIES} entries`, "RangeError");
      }
      entries.push({ name: entry.name, path: workspaceRelative(workdir, path), isDir });
      if (isDir && recursive) subdirs.push(path);
    }
    for (const subdir of subdirs) await walk(subdir, matchers);
  }
  const start = respectIgnoreFiles ? await ancestorMatchers(workdir, options.root) : [];
  await walk(options.root, start);
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
