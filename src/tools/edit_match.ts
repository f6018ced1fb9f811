/**
 * Finding `old_string` for the `edit` tool, and the hints for when it is not
 * there exactly: where it would match if whitespace did not count, and the
 * lines most like its first line.
 *
 * @module
 */

import { distance } from "fastest-levenshtein";
import { cutLine } from "./text_file.ts";

/** The most line numbers and similar lines named in one message. */
const MAX_LISTED = 5;

/** Lines compared for similarity are cut to this many characters, so the search stays fast. */
const MAX_COMPARED_CHARS = 300;

/** Characters of a similar line shown in a hint. */
const MAX_SHOWN_CHARS = 200;

/** The start indices of the non-overlapping occurrences of `needle` in `text`. */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    found.push(at);
  }
  return found;
}

/** The 1-based line numbers of ascending `indices` in `text`. */
export function lineNumbersOf(text: string, indices: readonly number[]): number[] {
  const numbers: number[] = [];
  let line = 1;
  let from = 0;
  for (const index of indices) {
    for (
      let at = text.indexOf("\n", from);
      at !== -1 && at < index;
      at = text.indexOf("\n", at + 1)
    ) {
      line++;
      from = at + 1;
    }
    numbers.push(line);
  }
  return numbers;
}

/** `numbers` as `4, 17, 30` (and `and N more`). */
export function listNumbers(numbers: readonly number[]): string {
  const listed = numbers.slice(0, MAX_LISTED).join(", ");
  const more = numbers.length - MAX_LISTED;
  return more > 0 ? `${listed} and ${more} more` : listed;
}

/**
 * The line ranges where `needle` occurs in `text` when every run of
 * whitespace counts as one space (and whitespace at its ends not at all).
 */
function whitespaceMatches(text: string, needle: string): [number, number][] {
  const wanted = needle.replace(/\s+/g, " ").trim();
  if (wanted === "") return [];
  // The text with whitespace runs squashed, and the line each of its characters comes from.
  let squashed = "";
  const lineOf: number[] = [];
  let line = 1;
  for (const run of text.matchAll(/\s+|\S+/g)) {
    const part = run[0];
    if (/^\s/.test(part)) {
      squashed += " ";
      lineOf.push(line);
      for (const char of part) if (char === "\n") line++;
    } else {
      squashed += part;
      for (let index = 0; index < part.length; index++) lineOf.push(line);
    }
  }
  const ranges: [number, number][] = [];
  for (const at of occurrences(squashed, wanted)) {
    ranges.push([lineOf[at] ?? line, lineOf[at + wanted.length - 1] ?? line]);
    if (ranges.length >= MAX_LISTED) break;
  }
  return ranges;
}

/** The lines most like the first non-blank line of `needle`, best first. */
function similarLines(lines: readonly string[], needle: string): { line: number; text: string }[] {
  const first = needle.split("\n").map((line) => line.trim()).find((line) => line !== "");
  if (first === undefined) return [];
  const wanted = first.slice(0, MAX_COMPARED_CHARS);
  const scored: { line: number; text: string; score: number }[] = [];
  lines.forEach((text, index) => {
    const candidate = text.trim().slice(0, MAX_COMPARED_CHARS);
    // A score of at most 0.5 needs lengths within a factor of two: skip the others unmeasured.
    if (
      candidate === "" ||
      2 * Math.min(candidate.length, wanted.length) < Math.max(candidate.length, wanted.length)
    ) return;
    const score = distance(candidate, wanted) / Math.max(candidate.length, wanted.length);
    if (score <= 0.5) scored.push({ line: index + 1, text, score });
  });
  scored.sort((a, b) => a.score - b.score || a.line - b.line);
  return scored.slice(0, 3);
}

/** The error text for an `old_string` that is not in the file. */
export function notFoundHint(text: string, needle: string, shownPath: string): string {
  const head = `old_string was not found in ${shownPath}`;
  const loose = whitespaceMatches(text, needle);
  if (loose.length > 0) {
    const where = loose.map(([from, to]) => from === to ? `${from}` : `${from}–${to}`).join(", ");
    const one = loose.length === 1 && loose[0]?.[0] === loose[0]?.[1];
    return `${head}, but it matches line${one ? "" : "s"} ${where} if whitespace is ignored: ` +
      "copy old_string exactly from the file (indentation, tabs, spaces, line breaks), e.g. read those lines first";
  }
  const similar = similarLines(text.split("\n"), needle);
  if (similar.length === 0) {
    return `${head}, and no line is like its first line: read the file and copy old_string exactly from it`;
  }
  const shown = similar.map(({ line, text }) => `${line}: ${cutLine(text, MAX_SHOWN_CHARS)}`);
  return [
    `${head}. The lines most like its first line:`,
    ...shown,
    "Copy old_string exactly from the file (read it first if it may have changed).",
  ].join("\n");
}
