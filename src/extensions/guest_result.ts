/**
 * What came back from a guest, decoded from the worker's JSON (a typed
 * boundary: nothing is trusted), and how guest errors are worded for users:
 * the message and the line in the user's `index.js`, never host frames.
 *
 * @module
 */

import type { JobOutcome } from "./host_protocol.ts";
import { MODULE_FILE } from "./worker/guest_prelude.ts";

/** A value returned by guest code. */
export type GuestValue =
  | { readonly kind: "undefined" }
  | { readonly kind: "json"; readonly value: unknown }
  /** A function, symbol, bigint or a value JSON cannot encode (a cycle). */
  | { readonly kind: "opaque"; readonly type: string };

/** An error thrown by guest code. */
export interface GuestError {
  readonly name: string;
  readonly message: string;
  /** The line in the user's `index.js`, when a frame names it. */
  readonly line: number | null;
}

/** How one guest invocation ended. */
export type GuestResult =
  | { readonly kind: "value"; readonly value: GuestValue }
  | { readonly kind: "threw"; readonly error: GuestError }
  /** The run was interrupted, or a limit stopped the guest; `message` says which. */
  | {
    readonly kind: "stopped";
    readonly reason: "interrupted" | "timeout" | "memory" | "crashed";
    readonly message: string;
  };

const FRAME_LINE_REGEXP = new RegExp(
  `(?:\\(|at )${MODULE_FILE.replace(".", "\\.")}:(\\d+)(?::\\d+)?\\)?\\s*$`,
);

/** The first line number of the user's file in a QuickJS stack, or null. */
export function userLineOf(stack: string): number | null {
  for (const frame of stack.split("\n")) {
    const match = FRAME_LINE_REGEXP.exec(frame.trim());
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return null;
}

function stringField(value: object, key: string): string {
  const field: unknown = Reflect.get(value, key);
  return typeof field === "string" ? field : "";
}

/** Decodes a job outcome into a {@link GuestResult}. */
export function parseGuestResult(
  outcome: JobOutcome,
  limits: { memoryBytes: number },
): GuestResult {
  switch (outcome.kind) {
    case "interrupted":
      return { kind: "stopped", reason: "interrupted", message: "interrupted" };
    case "timeout":
      return { kind: "stopped", reason: "timeout", message: "did not finish in time" };
    case "memory": {
      const mib = Math.round(limits.memoryBytes / (1024 * 1024));
      return {
        kind: "stopped",
        reason: "memory",
        message: `exceeded the memory limit of ${mib} MiB`,
      };
    }
    case "crashed":
      return {
        kind: "stopped",
        reason: "crashed",
        message: `the JavaScript engine failed: ${outcome.message}`,
      };
    case "value":
      return decodeValue(outcome.resultJson);
    default: {
      const never: never = outcome;
      throw new Error(`unexpected outcome ${JSON.stringify(never)}`);
    }
  }
}

function decodeValue(resultJson: string): GuestResult {
  let encoded: unknown;
  try {
    encoded = JSON.parse(resultJson);
  } catch {
    encoded = null;
  }
  if (typeof encoded !== "object" || encoded === null || !("k" in encoded)) {
    return { kind: "stopped", reason: "crashed", message: "the guest sent an unreadable result" };
  }
  switch (encoded.k) {
    case "undefined":
      return { kind: "value", value: { kind: "undefined" } };
    case "json":
      return { kind: "value", value: { kind: "json", value: Reflect.get(encoded, "v") } };
    case "opaque":
      return { kind: "value", value: { kind: "opaque", type: stringField(encoded, "type") } };
    case "threw": {
      const name = stringField(encoded, "name") || "Error";
      const message = stringField(encoded, "message");
      return {
        kind: "threw",
        error: { name, message, line: userLineOf(stringField(encoded, "stack")) },
      };
    }
    default:
      return { kind: "stopped", reason: "crashed", message: "the guest sent an unreadable result" };
  }
}

/** How to bundle what an extension imports (docs/extensions.md, "Modules"). */
const BUNDLE_FIX = "inline the code, or bundle it into one index.js (esbuild --bundle)";

/** The fix for the errors of module features an extension does not have, or "". */
function moduleHint(error: GuestError): string {
  if (error.name !== "ReferenceError") return "";
  const imported = /^could not load module '(.*)'$/.exec(error.message);
  if (imported !== null) {
    return `: an extension cannot import other files or packages (import of "${
      imported[1]
    }"): ${BUNDLE_FIX}`;
  }
  if (error.message === "'require' is not defined") {
    return `: an extension cannot require() other files or packages: ${BUNDLE_FIX}`;
  }
  if (error.message === "'module' is not defined" || error.message === "'exports' is not defined") {
    return ": an ES module exports with export (export default { … }), not module.exports";
  }
  return "";
}

/**
 * `boom (index.js:3)`; the class is kept when it says something
 * (`TypeError: …`); the errors of `import`, `require()` and `module.exports`
 * in an ES module end with their fix.
 */
export function formatGuestError(error: GuestError): string {
  const prefix = error.name === "Error" || error.name === "" ? "" : `${error.name}: `;
  const where = error.line === null ? "" : ` (${MODULE_FILE}:${error.line})`;
  return `${prefix}${error.message}${where}${moduleHint(error)}`;
}

/** How messages name a JavaScript type: `a string`, `an object`, `undefined`, `null`. */
export function withArticle(type: string): string {
  if (type === "undefined" || type === "null") return type;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** How error messages name a returned value: `a number`, `an array`, `null`, `a function`. */
export function describeGuestValue(value: GuestValue): string {
  switch (value.kind) {
    case "undefined":
      return "undefined";
    case "opaque":
      // An object is opaque only when JSON.stringify failed on it (a cycle, a throwing toJSON, a BigInt).
      return value.type === "object"
        ? "an object that cannot be encoded as JSON"
        : withArticle(value.type);
    case "json": {
      const v = value.value;
      if (v === null) return "null";
      if (Array.isArray(v)) return "an array";
      if (typeof v === "object") return "an object";
      return typeof v === "number" ? "a number" : typeof v === "boolean" ? "a boolean" : "a string";
    }
    default: {
      const never: never = value;
      throw new Error(`unexpected value ${JSON.stringify(never)}`);
    }
  }
}
