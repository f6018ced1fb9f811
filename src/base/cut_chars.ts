/**
 * Cutting text to a number of UTF-16 code units without splitting a
 * surrogate pair.
 *
 * @module
 */

/**
 * The first `max` code units of `text` (one fewer when the last would be
 * the first half of a surrogate pair); `text` itself when it is not longer.
 *
 * @example
 * ```ts
 * import { cutChars } from "./cut_chars.ts";
 * cutChars("ab😀", 3); // "ab"
 * ```
 */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return text.slice(0, end);
}
