/**
 * What a tool's module exports, remembered per module text, so a run reads
 * its description and parameters without starting the JavaScript engine:
 * the engine then starts only at the first invocation (docs/extensions.md,
 * "Start-up"). Nothing a run decides by before that call comes from here:
 * hooks are never cached, and a tool's first call checks its capabilities
 * and parameters against the module (`load_module.ts`).
 *
 * - The key is the SHA-256 of the rienda version, the inspecting code and
 *   the module's text: any edit of `index.js`, or another rienda, reads the
 *   module again. A module whose exports change without its text changing
 *   (a description built from the date) keeps what was first read until it
 *   is edited; every invocation still evaluates it afresh.
 * - Only a successful reading is kept (a broken module is read every time).
 * - Files are named `<kind>-<name>-<key>.json`; remembering a reading
 *   removes the extension's earlier ones, so editing a tool leaves one file.
 * - Best effort: a cache that cannot be read or written is no cache, nor is
 *   an entry that is not a plain file or (`load_module.ts`) not a report.
 * - Files are 0600 in a 0700 folder, written to a temporary file and
 *   renamed, like the entries of `ctx.cache`.
 *
 * @module
 */

import { join } from "node:path";
import { VERSION } from "../base/version.ts";
import { INSPECT_SOURCE } from "./worker/guest_prelude.ts";

async function keyOf(source: string): Promise<string> {
  const text = `${VERSION}\u0000${INSPECT_SOURCE}\u0000${source}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Which extension a reading belongs to: `tool` / `hook` and its name. */
export interface ExportsOwner {
  readonly kind: string;
  readonly name: string;
}

/** The exports report remembered for `source`, or undefined. */
export async function cachedExports(
  dir: string,
  owner: ExportsOwner,
  source: string,
): Promise<unknown> {
  try {
    const path = join(dir, `${owner.kind}-${owner.name}-${await keyOf(source)}.json`);
    // Only a plain file: opening a named pipe put there would wait for a writer forever.
    if (!(await Deno.lstat(path)).isFile) return undefined;
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return undefined;
  }
}

/** Whether `file` is one of `prefix`'s entries (the key is 64 hex digits, so no other owner's). */
function isEntryOf(file: string, prefix: string): boolean {
  return file.startsWith(prefix) && /^[0-9a-f]{64}\.json$/.test(file.slice(prefix.length));
}

/** Removes every entry of `owner`; failures are ignored. */
export async function forgetExports(dir: string, owner: ExportsOwner): Promise<void> {
  const prefix = `${owner.kind}-${owner.name}-`;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (isEntryOf(entry.name, prefix)) await Deno.remove(join(dir, entry.name)).catch(() => {});
    }
  } catch {
    // No cache: nothing to forget.
  }
}

/** Remembers the exports report of `source` in place of the owner's earlier ones; failures are ignored. */
export async function rememberExports(
  dir: string,
  owner: ExportsOwner,
  source: string,
  report: unknown,
): Promise<void> {
  const prefix = `${owner.kind}-${owner.name}-`;
  const file = `${prefix}${await keyOf(source)}.json`;
  const path = join(dir, file);
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(temporary, JSON.stringify(report), { mode: 0o600 });
    await Deno.rename(temporary, path);
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name !== file && isEntryOf(entry.name, prefix)) {
        await Deno.remove(join(dir, entry.name)).catch(() => {});
      }
    }
  } catch {
    await Deno.remove(temporary).catch(() => {});
  }
}
