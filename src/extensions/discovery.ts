/**
 * Finds user extensions on disk: `<toolsDir>/<name>/index.js` and
 * `<hooksDir>/<name>/index.js`. No JavaScript runs here, so discovery is
 * cheap and never loads the engine.
 *
 * - A missing folder means "none", not an error.
 * - Names are 1 to 64 letters, digits, `_` or `-`; other folders are reported.
 * - Each `index.js` is read once per process and its text kept: every later
 *   invocation evaluates that text again in a fresh context.
 *
 * @module
 */

import { join } from "node:path";
import { errorMessage } from "../base/unknown.ts";
import { isValidName } from "../base/names.ts";

/** Which folder an extension lives in. */
export type ExtensionKind = "tool" | "hook";

/** An extension found on disk, with its source text. */
export interface ExtensionSource {
  readonly kind: ExtensionKind;
  readonly name: string;
  /** Absolute path of its `index.js`. */
  readonly path: string;
  readonly source: string;
}

/** What {@link discoverExtensions} found in one folder. */
export interface Discovery {
  /** Sorted by name. */
  readonly found: readonly ExtensionSource[];
  /** Problems in the spec's words: `tool "x": …`. */
  readonly diagnostics: readonly string[];
}

const sources = new Map<string, Promise<string>>();

/** The text of the file at `path`, read once per process. */
export function readExtensionSource(path: string): Promise<string> {
  let text = sources.get(path);
  if (text === undefined) {
    text = Deno.readTextFile(path);
    sources.set(path, text);
    text.catch(() => sources.delete(path));
  }
  return text;
}

function describeReadError(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "index.js is missing";
  if (error instanceof Deno.errors.IsADirectory) return "index.js is a directory";
  const detail = errorMessage(error);
  return `cannot read index.js: ${detail}`;
}

/** Loads extension `name` of `kind` from `dir`; a string is the problem (`tool "x": …`). */
export async function findExtension(
  kind: ExtensionKind,
  options: { readonly dir: string; readonly name: string },
): Promise<ExtensionSource | string | null> {
  const { dir, name } = options;
  if (!isValidName(name)) {
    return `${kind} "${name}": invalid name (use 1 to 64 letters, digits, "_" or "-")`;
  }
  const folder = join(dir, name);
  try {
    if (!(await Deno.stat(folder)).isDirectory) return null;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
  const path = join(folder, "index.js");
  try {
    return { kind, name, path, source: await readExtensionSource(path) };
  } catch (error) {
    return `${kind} "${name}": ${describeReadError(error)}`;
  }
}

/** Lists every extension of `kind` in `dir` (see the module doc). */
export async function discoverExtensions(kind: ExtensionKind, dir: string): Promise<Discovery> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory && !entry.name.startsWith(".")) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return { found: [], diagnostics: [] };
    }
    throw error;
  }
  names.sort();
  const found: ExtensionSource[] = [];
  const diagnostics: string[] = [];
  for (const name of names) {
    const result = await findExtension(kind, { dir, name });
    if (typeof result === "string") diagnostics.push(result);
    else if (result !== null) found.push(result);
  }
  return { found, diagnostics };
}
