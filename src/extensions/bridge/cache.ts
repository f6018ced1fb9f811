/**
 * `ctx.cache` (`get`, `set(name, text, ttl_seconds)`, `has`, `del`, under
 * `$RIENDA_HOME/cache`) and `ctx.store` (the same without expiry, under
 * `$RIENDA_HOME/store`), each with a `shared` twin (docs/extending.md).
 *
 * - Every extension has its own namespace, a folder named after its kind
 *   and name (`store/tool/word-count/`, `store/hook/guard/`): no other
 *   extension reaches it through `ctx`. `ctx.store.shared` and
 *   `ctx.cache.shared` (`store/shared/`) are one area for every extension
 *   granted `shared: true` (undeclared ones have full access).
 * - Quotas ({@link ENTRY_QUOTA}): one entry's text, and each namespace's
 *   bytes and entries; past them `set` is a catchable `RangeError`.
 * - Entries an older version kept flat in the area's root (one namespace
 *   for all) are moved once into the shared area, at the first use of the
 *   area in a process: nothing is lost, and no one extension inherits
 *   what any extension could have written.
 *
 * @module
 */

import { join } from "node:path";
import type { Grant } from "../capabilities.ts";
import type { ExtensionRunContext } from "../run_context.ts";
import { checkShared } from "./access.ts";
import { BridgeError, readArguments, typeError } from "./arguments.ts";
import type { BridgeFunction, Invocation } from "./bridge_function.ts";
import {
  ENTRY_DIR_MODE,
  isEntryFile,
  type KeyValueDir,
  openKeyValueDir,
  type Quota,
  type QuotaProblem,
} from "./key_value_dir.ts";

/** The longest entry name accepted. */
export const MAX_ENTRY_NAME_LENGTH = 1024;

const MIB = 1024 * 1024;

/** What one namespace of `ctx.cache` or `ctx.store` (an extension's, or the shared one) may hold. */
export const ENTRY_QUOTA: Quota = { entryBytes: MIB, totalBytes: 16 * MIB, entries: 10_000 };

/** The folder of the shared area in each root. */
export const SHARED_FOLDER = "shared";

function entryName(fn: string, args: readonly unknown[]): string {
  const name = readArguments(fn, args).string(0, "name");
  if (name === "" || name.length > MAX_ENTRY_NAME_LENGTH) {
    throw new BridgeError(
      `${fn}: name must be 1 to ${MAX_ENTRY_NAME_LENGTH} characters`,
      "TypeError",
    );
  }
  return name;
}

function ttlOf(fn: string, value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw typeError(fn, "ttl_seconds", "a positive number", value);
  }
  return value;
}

function mebibytes(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}

/** The `RangeError` of a refused `set`. */
function quotaError(
  fn: string,
  whose: string,
  path: string,
  problem: QuotaProblem,
): BridgeError {
  const area = path.split(".")[0];
  switch (problem.kind) {
    case "entry":
      return new BridgeError(
        `${fn}: the text is ${mebibytes(problem.bytes)}, more than the ` +
          `${mebibytes(ENTRY_QUOTA.entryBytes)} one entry may hold`,
        "RangeError",
      );
    case "full":
      return new BridgeError(
        `${fn}: ${whose} ${area} is full (${mebibytes(problem.usedBytes)} in ` +
          `${problem.usedEntries} entries; at most ${mebibytes(ENTRY_QUOTA.totalBytes)} and ` +
          `${ENTRY_QUOTA.entries} entries): delete entries with ctx.${path}.del first`,
        "RangeError",
      );
    default: {
      const never: never = problem;
      throw new Error(`unknown quota problem ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Moves the flat entries an older version left in `root` into the shared
 * area (through a folder of its own, so an entry named `shared` or `tool`
 * moves too); what cannot be moved stays where it is.
 */
async function migrateFlatEntries(root: string): Promise<void> {
  const flat: string[] = [];
  try {
    for await (const item of Deno.readDir(root)) {
      if (item.isFile && isEntryFile(item.name)) flat.push(item.name);
    }
  } catch {
    return; // no area yet
  }
  if (flat.length === 0) return;
  const moving = join(root, `.migrating-${crypto.randomUUID()}`);
  await Deno.mkdir(moving, { mode: ENTRY_DIR_MODE });
  for (const name of flat) await Deno.rename(join(root, name), join(moving, name)).catch(() => {});
  const shared = join(root, SHARED_FOLDER);
  await Deno.mkdir(shared, { recursive: true, mode: ENTRY_DIR_MODE });
  if (Deno.build.os !== "windows") await Deno.chmod(shared, ENTRY_DIR_MODE);
  for (const name of flat) {
    const target = join(shared, name);
    // An entry of the same name already shared wins: the flat one was older.
    const taken = await Deno.lstat(target).then(() => true, () => false);
    if (taken) continue;
    // Private like every entry, whatever mode an older version gave it.
    if (Deno.build.os !== "windows") await Deno.chmod(join(moving, name), 0o600).catch(() => {});
    await Deno.rename(join(moving, name), target).catch(() => {});
  }
  await Deno.remove(moving, { recursive: true }).catch(() => {});
}

/** The flat-entry migration of each root, once per process. */
const migrations = new Map<string, Promise<void>>();

function migrated(root: string): Promise<void> {
  let migration = migrations.get(root);
  if (migration === undefined) {
    migration = migrateFlatEntries(root).catch(() => {});
    migrations.set(root, migration);
  }
  return migration;
}

/** One area (`cache` or `store`) of one run: its namespaces, opened as they are used. */
function area(prefix: "cache" | "store", root: string): Record<string, BridgeFunction> {
  const opened = new Map<string, KeyValueDir>();
  const open = async (dir: string) => {
    await migrated(root);
    let entries = opened.get(dir);
    if (entries === undefined) {
      entries = openKeyValueDir(dir, { root, quota: ENTRY_QUOTA });
      opened.set(dir, entries);
    }
    return entries;
  };
  /** The namespace of a grant's extension (`~` stands for the nameless grant of fixtures). */
  const own = (grant: Grant) => join(root, grant.kind, grant.name === "" ? "~" : grant.name);
  const whose = (grant: Grant, shared: boolean) =>
    shared ? "the shared" : `the ${grant.kind} "${grant.name}"'s`;
  /** The four functions of the extension's own namespace, or of the shared one. */
  const members = (shared: boolean): Record<string, BridgeFunction> => {
    const path = shared ? `${prefix}.shared` : prefix;
    const fn = (member: string) => `ctx.${path}.${member}`;
    const namespace = async (member: string, { grant }: Invocation) => {
      if (shared) checkShared(grant, fn(member));
      return await open(shared ? join(root, SHARED_FOLDER) : own(grant));
    };
    return {
      [`${path}.get`]: async (args, invocation) =>
        await (await namespace("get", invocation)).get(entryName(fn("get"), args)),
      [`${path}.has`]: async (args, invocation) =>
        (await (await namespace("has", invocation)).get(entryName(fn("has"), args))) !== null,
      [`${path}.del`]: async (args, invocation) =>
        await (await namespace("del", invocation)).delete(entryName(fn("del"), args)),
      [`${path}.set`]: async (args, invocation) => {
        const name = entryName(fn("set"), args);
        const value = readArguments(fn("set"), args).string(1, "text");
        const ttl = prefix === "cache" ? ttlOf(fn("set"), args[2]) : null;
        const problem = await (await namespace("set", invocation)).set(name, value, ttl);
        if (problem !== null) {
          throw quotaError(fn("set"), whose(invocation.grant, shared), path, problem);
        }
      },
    };
  };
  return { ...members(false), ...members(true) };
}

/** `ctx.cache` and `ctx.store` of one run, with their shared areas. */
export function keyValueFunctions(context: ExtensionRunContext): Record<string, BridgeFunction> {
  return { ...area("cache", context.cacheDir), ...area("store", context.storeDir) };
}
