/**
 * The limits of what rienda hands to an extension (docs/extensions.md,
 * "Payload limits"): a value nests at most {@link MAX_PAYLOAD_DEPTH} levels
 * and takes at most {@link MAX_PAYLOAD_BYTES} (a text: its UTF-8; anything
 * else: its JSON). Within them, decoding a payload inside a guest cannot fail
 * (64 KiB of QuickJS stack decodes about 4,000 levels), so a guard is
 * never skipped because its input could not be read.
 *
 * @module
 */

/** The deepest nesting of a value handed to an extension (`{}` is 1 level, `{"a":[]}` 2). */
export const MAX_PAYLOAD_DEPTH = 64;

/** The most bytes of one value handed to an extension: 1 MiB. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

/**
 * Why `value` (a text, or decoded JSON) may not be handed to an extension:
 * `nested deeper than 64 levels` or `larger than 1 MiB`; null when it may.
 *
 * @example
 * ```ts
 * import { payloadProblem } from "./payload_limits.ts";
 * payloadProblem({ a: [1] }); // null
 * payloadProblem("x".repeat(2 * 1024 * 1024)); // "larger than 1 MiB"
 * ```
 */
export function payloadProblem(value: unknown): string | null {
  if (typeof value === "string") return tooLarge(value) ? LARGER : null;
  if (deeperThan(value, MAX_PAYLOAD_DEPTH)) return `nested deeper than ${MAX_PAYLOAD_DEPTH} levels`;
  const json = JSON.stringify(value) ?? "";
  return tooLarge(json) ? LARGER : null;
}

const LARGER = `larger than ${MAX_PAYLOAD_BYTES / (1024 * 1024)} MiB`;

/** Whether objects and arrays nest more than `levels` deep; stops descending past the limit. */
function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (deeperThan(item, levels - 1)) return true;
  }
  return false;
}

/** Whether `text` takes more than {@link MAX_PAYLOAD_BYTES} as UTF-8. */
function tooLarge(text: string): boolean {
  // Every UTF-16 code unit takes 1 to 3 bytes: most texts are decided without counting.
  if (text.length > MAX_PAYLOAD_BYTES) return true;
  if (text.length * 3 <= MAX_PAYLOAD_BYTES) return false;
  return new TextEncoder().encode(text).length > MAX_PAYLOAD_BYTES;
}
