/**
 * A short unified diff of one change to a file, for the model to check what
 * it did (the `diff` package computes it).
 *
 * - Only the lines between the first and the last change are diffed (the
 *   common head and tail are cut off first), so a one-line edit of a huge
 *   file costs a few lines of work.
 * - A diff that takes too long (a change all over a big file) or is longer
 *   than {@link MAX_DIFF_LINES} lines is cut, with a line saying so.
 *
 * @module
 */

import { formatPatch, OMIT_HEADERS, structuredPatch } from "diff";

/** The most lines of diff shown. */
export const MAX_DIFF_LINES = 120;

/** Lines of context around each change. */
const CONTEXT_LINES = 3;

/** How long computing one diff may take. */
const DIFF_TIMEOUT_MS = 500;

/** The index just after the last line break at or before `index` (0 when none). */
function lineStartBefore(text: string, index: number): number {
  return text.lastIndexOf("\n", index - 1) + 1;
}

function countBreaks(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) {
    count++;
  }
  return count;
}

/** Where `before` and `after` start to differ, and where they agree again, on whole lines. */
function changedRegion(before: string, after: string) {
  let head = 0;
  const shortest = Math.min(before.length, after.length);
  while (head < shortest && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  head = lineStartBefore(before, head);
  let tail = 0;
  while (
    tail < shortest - head &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) tail++;
  // Keep the tail to whole lines: it must start right after a line break.
  while (tail > 0 && before.charCodeAt(before.length - tail - 1) !== 10) tail--;
  return { head, tail };
}

/** Keeps `context` whole lines of `text` before `start`; returns the new start. */
function backLines(text: string, start: number, context: number): number {
  let at = start;
  for (let kept = 0; kept < context && at > 0; kept++) at = lineStartBefore(text, at - 1);
  return at;
}

/** Keeps `context` whole lines of `text` from `end` on; returns the new end. */
function forwardLines(text: string, end: number, context: number): number {
  let at = end;
  for (let kept = 0; kept < context && at < text.length; kept++) {
    const next = text.indexOf("\n", at);
    at = next === -1 ? text.length : next + 1;
  }
  return at;
}

/**
 * The hunks (`@@ -10,3 +10,4 @@` and their lines) turning `before` into
 * `after`, cut to {@link MAX_DIFF_LINES} lines; empty when they are equal.
 */
export function shortDiff(before: string, after: string): string {
  if (before === after) return "";
  const { head, tail } = changedRegion(before, after);
  const start = backLines(before, head, CONTEXT_LINES);
  const oldEnd = forwardLines(before, before.length - tail, CONTEXT_LINES);
  const newEnd = after.length - (before.length - oldEnd);
  const skipped = countBreaks(before, start);
  const patch = structuredPatch(
    "a",
    "b",
    before.slice(start, oldEnd),
    after.slice(start, newEnd),
    undefined,
    undefined,
    { context: CONTEXT_LINES, timeout: DIFF_TIMEOUT_MS },
  );
  if (patch === undefined) {
    const first = skipped + 1;
    const last = skipped + countBreaks(before.slice(start, oldEnd), oldEnd - start);
    return `[the change spans lines ${first}–${last}; its diff is too large to show: ` +
      "read those lines to check them]";
  }
  for (const hunk of patch.hunks) {
    hunk.oldStart += skipped;
    hunk.newStart += skipped;
  }
  const lines = formatPatch(patch, OMIT_HEADERS).trimEnd().split("\n");
  if (lines.length <= MAX_DIFF_LINES) return lines.join("\n");
  const more = lines.length - MAX_DIFF_LINES;
  return [...lines.slice(0, MAX_DIFF_LINES), `[${more} more diff lines not shown]`].join("\n");
}
