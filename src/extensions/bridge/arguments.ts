/**
 * Checks the arguments of `ctx` calls, which arrive as JSON from the guest,
 * and raises the errors the guest sees (`ctx.file.read: path must be a string
 * (found number)`).
 *
 * @module
 */

import { UNDEFINED_ARGUMENT } from "../worker/guest_prelude.ts";

/**
 * The longest wait a `ctx` call accepts, in milliseconds: timers hold a
 * signed 32-bit delay, and a longer one would fire at once (about 24.8 days).
 */
export const MAX_WAIT_MS = 2 ** 31 - 1;

/** An error the guest receives as a catchable JS error of class `guestName`. */
export class BridgeError extends Error {
  /** The guest-side class: `Error`, `TypeError` or `RangeError`. */
  readonly guestName: "Error" | "TypeError" | "RangeError";

  constructor(
    message: string,
    guestName: "Error" | "TypeError" | "RangeError" = "Error",
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "BridgeError";
    this.guestName = guestName;
  }
}

/** The guest-side kind of a decoded value, as error messages name it. */
export function kindOf(value: unknown): string {
  if (value === undefined || value === UNDEFINED_ARGUMENT) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Decodes the JSON argument list of a call; `undefined` arguments come back as `undefined`. */
export function decodeArguments(argsJson: string): unknown[] {
  const parsed: unknown = JSON.parse(argsJson);
  if (!Array.isArray(parsed)) return [];
  return parsed.map((value: unknown) => value === UNDEFINED_ARGUMENT ? undefined : value);
}

/** Raises a `TypeError` in the guest naming the function, the field and what was found. */
export function typeError(
  fn: string,
  field: string,
  expected: string,
  found: unknown,
): BridgeError {
  return new BridgeError(
    `${fn}: ${field} must be ${expected} (found ${kindOf(found)})`,
    "TypeError",
  );
}

/**
 * Checks a wait in milliseconds (`ctx.sleep`, `timeout_ms`): a finite number
 * from 0 to {@link MAX_WAIT_MS}; a longer one is a `RangeError` naming the limit.
 */
export function readWaitMs(fn: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw typeError(fn, field, "a non-negative number", value);
  }
  if (value > MAX_WAIT_MS) {
    throw new BridgeError(
      `${fn}: ${field} must be at most ${MAX_WAIT_MS} ms, about 24.8 days (found ${value})`,
      "RangeError",
    );
  }
  return value;
}

/** Typed reads of one options object; every failure names the function and the field. */
export interface OptionReader {
  string(key: string): string | undefined;
  boolean(key: string, fallback: boolean): boolean;
  /** A wait in milliseconds, checked by {@link readWaitMs}. */
  waitMs(key: string): number | undefined;
  /** An object whose values are all strings (headers, environment variables). */
  stringMap(key: string): Record<string, string> | undefined;
}

/** Typed reads of one call's arguments. */
export interface ArgumentReader {
  /** A required string argument. */
  string(index: number, field: string): string;
  /** An options object; absent or null reads as empty. */
  options(index: number): OptionReader;
}

function readOptions(fn: string, value: unknown): OptionReader {
  let options: Record<string, unknown> = {};
  if (value !== undefined && value !== null) {
    if (typeof value !== "object" || Array.isArray(value)) {
      throw typeError(fn, "options", "an object", value);
    }
    options = { ...value };
  }
  function present(key: string): unknown {
    const item = options[key];
    return item === null ? undefined : item;
  }
  return {
    string(key) {
      const item = present(key);
      if (item !== undefined && typeof item !== "string") {
        throw typeError(fn, key, "a string", item);
      }
      return item;
    },
    boolean(key, fallback) {
      const item = present(key);
      if (item === undefined) return fallback;
      if (typeof item !== "boolean") throw typeError(fn, key, "a boolean", item);
      return item;
    },
    waitMs(key) {
      const item = present(key);
      return item === undefined ? undefined : readWaitMs(fn, key, item);
    },
    stringMap(key) {
      const item = present(key);
      if (item === undefined) return undefined;
      if (typeof item !== "object" || item === null || Array.isArray(item)) {
        throw typeError(fn, key, "an object of strings", item);
      }
      const map: Record<string, string> = {};
      for (const [name, entry] of Object.entries(item)) {
        if (typeof entry !== "string") throw typeError(fn, `${key}.${name}`, "a string", entry);
        map[name] = entry;
      }
      return map;
    },
  };
}

/** Reads the arguments of a call to `fn` (such as `ctx.file.read`). */
export function readArguments(fn: string, args: readonly unknown[]): ArgumentReader {
  return {
    string(index, field) {
      const value = args[index];
      if (typeof value !== "string") throw typeError(fn, field, "a string", value);
      return value;
    },
    options: (index) => readOptions(fn, args[index]),
  };
}
