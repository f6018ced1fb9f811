/**
 * A directory of small text entries, one file per name: the storage behind
 * `ctx.cache` (entries may expire) and `ctx.store` (they never do).
 *
 * - File names are the entry names when they are short and plain
 *   (`[A-Za-z0-9_-][A-Za-z0-9._-]*`), else `~` plus the SHA-256 of the name.
 * - A file holds `{"name", "expiresAt", "value"}`; writes go to a temporary
 *   file renamed into place, so a reader never sees half an entry.
 * - Entries are private, like sessions and credentials: files are 0600 in a
 *   0700 directory (a directory left wider by an older version is narrowed on
 *   the next write).
 *
 * @module
 */

import { join } from "node:path";

/** One stored entry. */
interface Entry {
  readonly name: string;
  /** Epoch milliseconds, or null for no expiry. */
  readonly expiresAt: number | null;
  readonly value: string;
}

/** The mode of an entry file. */
export const ENTRY_FILE_MODE = 0o600;

/** The mode of an entries directory. */
export const ENTRY_DIR_MODE = 0o700;

const PLAIN_NAME_REGEXP = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

async function fileName(name: string): Promise<string> {
  if (PLAIN_NAME_REGEXP.test(name)) return name;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(name));
  return `~${Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function parseEntry(text: string): Entry | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  if (!("name" in value) || typeof value.name !== "string") return null;
  if (!("value" in value) || typeof value.value !== "string") return null;
  const expiresAt = "expiresAt" in value && typeof value.expiresAt === "number"
    ? value.expiresAt
    : null;
  return { name: value.name, expiresAt, value: value.value };
}

/** The umask may only narrow a mode; chmod makes it exact (no modes on Windows). */
async function restrictMode(path: string, mode: number): Promise<void> {
  if (Deno.build.os !== "windows") await Deno.chmod(path, mode);
}

/** Entries of one directory; the directory is created on the first write. */
export interface KeyValueDir {
  get(name: string): Promise<string | null>;
  /** Stores `value`; `ttlSeconds` makes it expire (null: never). */
  set(name: string, value: string, ttlSeconds: number | null): Promise<void>;
  /** Removes the entry; true when there was a live one. */
  delete(name: string): Promise<boolean>;
}

/** Opens the entries of `dir`; `now` is the clock (milliseconds), replaceable in tests. */
export function openKeyValueDir(dir: string, now: () => number = Date.now): KeyValueDir {
  async function read(name: string): Promise<{ path: string; entry: Entry | null }> {
    const path = join(dir, await fileName(name));
    try {
      const entry = parseEntry(await Deno.readTextFile(path));
      return { path, entry: entry !== null && entry.name === name ? entry : null };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { path, entry: null };
      throw error;
    }
  }
  async function remove(path: string): Promise<void> {
    try {
      await Deno.remove(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return {
    async get(name) {
      const { path, entry } = await read(name);
      if (entry === null) return null;
      if (entry.expiresAt !== null && entry.expiresAt <= now()) {
        await remove(path);
        return null;
      }
      return entry.value;
    },
    async set(name, value, ttlSeconds) {
      await Deno.mkdir(dir, { recursive: true, mode: ENTRY_DIR_MODE });
      await restrictMode(dir, ENTRY_DIR_MODE);
      const path = join(dir, await fileName(name));
      const expiresAt = ttlSeconds === null ? null : now() + ttlSeconds * 1000;
      const temporary = `${path}.${crypto.randomUUID()}.tmp`;
      const text = JSON.stringify({ name, expiresAt, value });
      try {
        await Deno.writeTextFile(temporary, text, { mode: ENTRY_FILE_MODE, createNew: true });
        await restrictMode(temporary, ENTRY_FILE_MODE);
        await Deno.rename(temporary, path);
      } catch (error) {
        await Deno.remove(temporary).catch(() => {});
        throw error;
      }
    },
    async delete(name) {
      const { path, entry } = await read(name);
      if (entry === null) return false;
      await remove(path);
      return entry.expiresAt === null || entry.expiresAt > now();
    },
  };
}
