/**
 * The cap on the text a tool returns to the model (docs/cli.md: 256 KiB, cut
 * on a UTF-8 character boundary, followed by `[output truncated]`).
 *
 * Sizes are counted in UTF-8 bytes straight from the UTF-16 string, so a cut
 * never splits a code point or a surrogate pair, and lone surrogates survive
 * unchanged (they count as the 3 bytes U+FFFD would take).
 *
 * @module
 */

/** The most UTF-8 bytes of tool result text the model reads. */
export const MAX_TOOL_RESULT_BYTES = 256 * 1024;

/** The line appended to text that was cut. */
export const TRUNCATION_MARKER = "\n[output truncated]";

/** The number of UTF-8 bytes the code unit(s) at `index` take, and how many code units they are. */
function codePointAt(text: string, index: number): { bytes: number; units: number } {
  const unit = text.charCodeAt(index);
  if (unit < 0x80) return { bytes: 1, units: 1 };
  if (unit < 0x800) return { bytes: 2, units: 1 };
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return { bytes: 4, units: 2 };
  }
  return { bytes: 3, units: 1 };
}

/**
 * The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`.
 *
 * @example
 * ```ts
 * import { cutUtf8 } from "./truncate.ts";
 * cutUtf8("héllo", 2); // "h" (the 2-byte "é" does not fit)
 * ```
 */
export function cutUtf8(text: string, maxBytes: number): string {
  // Every code unit takes at most 3 bytes, so short text fits without counting.
  if (text.length * 3 <= maxBytes) return text;
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const point = codePointAt(text, index);
    if (bytes + point.bytes > maxBytes) return text.slice(0, index);
    bytes += point.bytes;
    index += point.units;
  }
  return text;
}

/** The size of `text` encoded as UTF-8, in bytes. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const point = codePointAt(text, index);
    bytes += point.bytes;
    index += point.units;
  }
  return bytes;
}

/**
 * `text` unchanged when its UTF-8 encoding fits in {@link MAX_TOOL_RESULT_BYTES},
 * or when it was capped already (a tool's text, capped again by the engine);
 * otherwise its longest fitting prefix followed by `\n[output truncated]`.
 *
 * @example
 * ```ts
 * import { capToolResult } from "./truncate.ts";
 * capToolResult("ok"); // "ok"
 * ```
 */
export function capToolResult(text: string): string {
  const kept = cutUtf8(text, MAX_TOOL_RESULT_BYTES);
  if (kept.length === text.length) return text;
  const capped = text.endsWith(TRUNCATION_MARKER) &&
    kept.length >= text.length - TRUNCATION_MARKER.length;
  return capped ? text : kept + TRUNCATION_MARKER;
}
