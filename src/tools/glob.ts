/**
 * Glob patterns of the `find` and `grep` tools (`picomatch`): `*` stays in
 * one folder, `**` crosses folders, `{a,b}` and `[abc]` work as in a shell,
 * and dot files match like any other (ignore files decide what is hidden).
 * A pattern without `/` matches the file name at any depth (`*.ts`).
 *
 * {@link filesMatching} walks a folder for the files a glob matches
 * (regular files only: symbolic links may lead anywhere, and pipes or
 * devices never end).
 *
 * @module
 */

import { join, relative, sep } from "node:path";
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { walkTree } from "./file_tree.ts";
import { errorMessage } from "../base/unknown.ts";

/** A compiled glob: tests a `/`-separated path relative to the folder searched. */
export type GlobMatcher = (relativePath: string) => boolean;

/** A compiled glob and the folder below which every match lies (`src` for `src/**\/*.ts`). */
export interface CompiledGlob {
  readonly matches: GlobMatcher;
  /** The pattern's literal leading folders, `/`-separated; "" when it has none. */
  readonly base: string;
}

/** Compiles `pattern`, or returns the message saying what is wrong with it. */
export function compileGlob(pattern: string): CompiledGlob | string {
  const trimmed = pattern.replace(/^(?:\.\/)+/, "");
  if (trimmed === "") return `the pattern "${pattern}" is empty: use e.g. "**/*.ts"`;
  if (trimmed.startsWith("/")) {
    return `the pattern "${pattern}" is absolute: give the folder as path and a relative pattern such as "**/*.ts"`;
  }
  const basename = !trimmed.includes("/");
  try {
    const matches = picomatch(trimmed, { dot: true, basename });
    const scanned = picomatch.scan(trimmed);
    // A literal path (no glob characters) starts the walk at its folder.
    const base = scanned.isGlob
      ? scanned.base
      : trimmed.slice(0, Math.max(0, trimmed.lastIndexOf("/")));
    return { matches, base: basename ? "" : base };
  } catch (error) {
    return `the pattern "${pattern}" is not a valid glob: ${errorMessage(error)}`;
  }
}

/** The files {@link filesMatching} found, and whether it stopped at its limit. */
export interface FoundFiles {
  /** Absolute paths, in walk order. */
  readonly paths: string[];
  /** True when there were more than `maxFiles`. */
  readonly truncated: boolean;
}

/** The files under `root` that `glob` matches (every file when it is null), honouring ignore files. */
export async function filesMatching(options: {
  workdir: string;
  root: string;
  glob: CompiledGlob | null;
  maxFiles: number;
  signal: AbortSignal;
}): Promise<FoundFiles> {
  const { root, glob, maxFiles } = options;
  const start = glob === null || glob.base === "" ? root : join(root, glob.base);
  const paths: string[] = [];
  try {
    const walk = walkTree({ ...options, root: start, recursive: true, respectIgnoreFiles: true });
    for await (const entry of walk) {
      if (!entry.isFile) continue;
      if (glob !== null) {
        const rel = relative(root, entry.path);
        if (!glob.matches(sep === "/" ? rel : rel.split(sep).join("/"))) continue;
      }
      if (paths.length >= maxFiles) return { paths, truncated: true };
      paths.push(entry.path);
    }
  } catch (error) {
    // A pattern whose literal folder does not exist (or is a file) matches nothing.
    const missing = error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.NotADirectory;
    if (!missing || start === root) throw error;
  }
  return { paths, truncated: false };
}
