/**
 * Short descriptions of found values for error messages:
 * `must be a string (found 42)`.
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
    case "object":
      return value instanceof Date ? "a date" : "a mapping";
    default:
      return `a ${typeof value}`;
  }
}
