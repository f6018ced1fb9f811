/**
 * Grapheme and word boundaries in editor text, so the cursor never lands
 * inside an emoji or a combining sequence.
 *
 * @module
 */

let segmenter: Intl.Segmenter | undefined;
// deno-lint-ignore no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const WORD = /[\p{L}\p{N}_]/u;

/** The boundary before `index` (a grapheme back). */
export function previousBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  const start = Math.max(0, index - 16);
  const window = text.slice(start, index);
  if (ASCII.test(window)) return index - 1;
  segmenter ??= new Intl.Segmenter();
  let last = start;
  for (const part of segmenter.segment(text.slice(0, index))) last = part.index;
  return last;
}

/** The boundary after `index` (a grapheme on). */
export function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const char = text.charCodeAt(index);
  const following = text.charCodeAt(index + 1);
  if (char < 0x80 && (Number.isNaN(following) || following < 0x80)) return index + 1;
  segmenter ??= new Intl.Segmenter();
  for (const part of segmenter.segment(text.slice(index))) {
    return index + part.segment.length;
  }
  return text.length;
}

/** The start of the word before `index` (skipping the spaces and punctuation before it). */
export function previousWord(text: string, index: number): number {
  let at = index;
  while (at > 0 && !WORD.test(text[at - 1]!)) at--;
  while (at > 0 && WORD.test(text[at - 1]!)) at--;
  return at;
}

/** The end of the word after `index`. */
export function nextWord(text: string, index: number): number {
  let at = index;
  while (at < text.length && !WORD.test(text[at]!)) at++;
  while (at < text.length && WORD.test(text[at]!)) at++;
  return at;
}
