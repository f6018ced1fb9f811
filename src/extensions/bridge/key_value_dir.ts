/**
 * A directory of small text entries, one file per name: the storage behind
 * one namespace of `ctx.cache` (entries may expire) or `ctx.store` (they
 * never do), with a quota (`cache.ts` chooses the directory).
 *
 * - File names are the entry names when they are short and plain
 *   (`[A-Za-z0-9_-][A-Za-z0-9._-]*`), else `~` plus the SHA-256 of the name.
 * - A file holds `{"name", "expiresAt", "value"}`; writes go to a temporary
 *   file renamed into place, so a reader never sees half an entry.
 * - The quota bounds one entry's text and the directory's bytes and
 *   entries. The directory is measured once (its files' sizes) at the first
 *   write, then kept up to date; a write that would pass the quota first
 *   removes expired entries, then is refused ({@link QuotaProblem}).
 *   Operations on one directory run one after another.
 * - Entries are private, like sessions and credentials: files are 0600 in
 *   0700 directories, up to the area's root (a directory left wider by an
 *   older version is narrowed on the next write).
 *
 * @module
 */

import { dirname, join, relative } from "node:path";

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

/** What one directory may hold. */
export interface Quota {
  /** The most UTF-8 bytes of one entry's text. */
  readonly entryBytes: number;
  /** The most bytes of all its entry files. */
  readonly totalBytes: number;
  /** The most entries. */
  readonly entries: number;
}

/** Why a write was refused: the text alone is too large, or the directory would be too full. */
export type QuotaProblem =
  | { readonly kind: "entry"; readonly bytes: number }
  | { readonly kind: "full"; readonly usedBytes: number; readonly usedEntries: number };

const PLAIN_NAME_REGEXP = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/** The temporary file a write renames into place: `<file>.<uuid>.tmp`. */
const TEMPORARY_REGEXP = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

/** Whether `file` is the name of an entry file (not a temporary one). */
export function isEntryFile(file: string): boolean {
  if (TEMPORARY_REGEXP.test(file)) return false;
  return PLAIN_NAME_REGEXP.test(file) || /^~[0-9a-f]{64}$/.test(file);
}

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

/** The size of the file at `path`, or null when there is none. */
async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await Deno.lstat(path)).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Entries of one directory; the directory is created on the first write. */
export interface KeyValueDir {
  get(name: string): Promise<string | null>;
  /** Stores `value`; `ttlSeconds` makes it expire (null: never); a problem when over the quota. */
  set(name: string, value: string, ttlSeconds: number | null): Promise<QuotaProblem | null>;
  /** Removes the entry; true when there was a live one. */
  delete(name: string): Promise<boolean>;
}

/** Where a {@link KeyValueDir} lives and what it may hold. */
export interface KeyValueDirOptions {
  /** The area's root (`$RIENDA_HOME/store`): it and the folders down to the directory are made private. */
  readonly root: string;
  readonly quota: Quota;
  /** The clock (milliseconds), replaceable in tests. */
  readonly now?: () => number;
}

/** Opens the entries of `dir` (see the module doc). */
export function openKeyValueDir(dir: string, options: KeyValueDirOptions): KeyValueDir {
  const { quota, now = Date.now } = options;
  let usage: { bytes: number; entries: number } | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  /** Runs `step` after every operation before it. */
  function serial<T>(step: () => Promise<T>): Promise<T> {
    const run = queue.then(step, step);
    queue = run.catch(() => {});
    return run;
  }
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
    const size = await sizeOf(path);
    if (size === null) return;
    try {
      await Deno.remove(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      return;
    }
    if (usage !== null) usage = { bytes: usage.bytes - size, entries: usage.entries - 1 };
  }
  /** The bytes and entries of the directory, from its files. */
  async function measure(): Promise<{ bytes: number; entries: number }> {
    let bytes = 0;
    let entries = 0;
    try {
      for await (const item of Deno.readDir(dir)) {
        if (!item.isFile || !isEntryFile(item.name)) continue;
        bytes += (await sizeOf(join(dir, item.name))) ?? 0;
        entries++;
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return { bytes, entries };
  }
  /** Removes every expired entry (only when a write would pass the quota). */
  async function sweep(): Promise<void> {
    for await (const item of Deno.readDir(dir)) {
      if (!item.isFile || !isEntryFile(item.name)) continue;
      const path = join(dir, item.name);
      const entry = parseEntry(await Deno.readTextFile(path).catch(() => ""));
      if (entry !== null && entry.expiresAt !== null && entry.expiresAt <= now()) {
        await remove(path);
      }
    }
  }
  async function makePrivate(): Promise<void> {
    await Deno.mkdir(dir, { recursive: true, mode: ENTRY_DIR_MODE });
    for (let at = dir;; at = dirname(at)) {
      await restrictMode(at, ENTRY_DIR_MODE);
      if (at === options.root || relative(options.root, at).startsWith("..")) break;
    }
  }
  return {
    get: (name) =>
      serial(async () => {
        const { path, entry } = await read(name);
        if (entry === null) return null;
        if (entry.expiresAt !== null && entry.expiresAt <= now()) {
          await remove(path);
          return null;
        }
        return entry.value;
      }),
    set: (name, value, ttlSeconds) =>
      serial(async (): Promise<QuotaProblem | null> => {
        const encoder = new TextEncoder();
        const bytes = encoder.encode(value).length;
        if (bytes > quota.entryBytes) return { kind: "entry", bytes };
        const path = join(dir, await fileName(name));
        const expiresAt = ttlSeconds === null ? null : now() + ttlSeconds * 1000;
        const text = encoder.encode(JSON.stringify({ name, expiresAt, value }));
        usage ??= await measure();
        const fits = async () => {
          const old = await sizeOf(path);
          const bytesAfter = (usage?.bytes ?? 0) - (old ?? 0) + text.length;
          const entriesAfter = (usage?.entries ?? 0) + (old === null ? 1 : 0);
          const ok = bytesAfter <= quota.totalBytes && entriesAfter <= quota.entries;
          return ok ? { bytes: bytesAfter, entries: entriesAfter } : null;
        };
        let after = await fits();
        if (after === null) {
          await sweep();
          after = await fits();
        }
        if (after === null) {
          return { kind: "full", usedBytes: usage.bytes, usedEntries: usage.entries };
        }
        await makePrivate();
        const temporary = `${path}.${crypto.randomUUID()}.tmp`;
        try {
          await Deno.writeFile(temporary, text, { mode: ENTRY_FILE_MODE, createNew: true });
          await restrictMode(temporary, ENTRY_FILE_MODE);
          await Deno.rename(temporary, path);
        } catch (error) {
          await Deno.remove(temporary).catch(() => {});
          throw error;
        }
        usage = after;
        return null;
      }),
    delete: (name) =>
      serial(async () => {
        const { path, entry } = await read(name);
        if (entry === null) return false;
        await remove(path);
        return entry.expiresAt === null || entry.expiresAt > now();
      }),
  };
}
