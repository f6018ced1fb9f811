/**
 * `ctx.cache` (`get`, `set(name, text, ttl_seconds)`, `has`, `del`, under
 * `$RIENDA_HOME/cache`) and `ctx.store` (the same without expiry, under
 * `$RIENDA_HOME/store`). Both are shared by every extension of the home.
 *
 * @module
 */

import type { ExtensionRunContext } from "../run_context.ts";
import { BridgeError, readArguments, typeError } from "./arguments.ts";
import type { BridgeFunction } from "./bridge_function.ts";
import { type KeyValueDir, openKeyValueDir } from "./key_value_dir.ts";

/** The longest entry name accepted. */
export const MAX_ENTRY_NAME_LENGTH = 1024;

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

function namespace(
  prefix: "cache" | "store",
  entries: KeyValueDir,
): Record<string, BridgeFunction> {
  const fn = (member: string) => `ctx.${prefix}.${member}`;
  return {
    [`${prefix}.get`]: (args) => entries.get(entryName(fn("get"), args)),
    [`${prefix}.has`]: async (args) => (await entries.get(entryName(fn("has"), args))) !== null,
    [`${prefix}.del`]: (args) => entries.delete(entryName(fn("del"), args)),
    [`${prefix}.set`]: async (args) => {
      const name = entryName(fn("set"), args);
      const value = readArguments(fn("set"), args).string(1, "text");
      const ttl = prefix === "cache" ? ttlOf(fn("set"), args[2]) : null;
      await entries.set(name, value, ttl);
    },
  };
}

/** `ctx.cache` and `ctx.store` of one run. */
export function keyValueFunctions(context: ExtensionRunContext): Record<string, BridgeFunction> {
  return {
    ...namespace("cache", openKeyValueDir(context.cacheDir)),
    ...namespace("store", openKeyValueDir(context.storeDir)),
  };
}
