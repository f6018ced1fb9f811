/**
 * Short descriptions of found values for error messages:
 * `must be a string (found 42)`; {@link describeKind} for fields that may
 * hold a key, whose value is never shown.
 *
 * @module
 */

const MAX_SHOWN_CHARS = 40;

/**
 * Describes a parsed YAML value in a few words: scalars as written (strings
 * quoted, long ones shortened), lists and mappings by their kind.
 *
 * @example
 * ```ts
 * import { describeValue } from "./describe_value.ts";
 * describeValue(42); // "42"
 * describeValue("x"); // '"x"'
 * describeValue([1]); // "a list"
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  switch (typeof value) {
    case "string": {
      const shown = value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value;
      return JSON.stringify(shown);
    }
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    default:
      return describeKind(value);
  }
}

/**
 * Names only the kind of a value, never the value: `a string`, `a number`,
 * `a list`, `binary data` (a YAML `!!binary` value), `a date`, `a mapping`.
 *
 * @example
 * ```ts
 * import { describeKind } from "./describe_value.ts";
 * describeKind("sk-live-1234"); // "a string"
 * ```
 */
export function describeKind(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (value instanceof Uint8Array) return "binary data";
  if (value instanceof Date) return "a date";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
    case "bigint":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "a mapping";
    default:
      return `a ${typeof value}`;
  }
}
