/**
 * Plain-text tables for listings (`auth list`, `models`, `agents`, `doctor`).
 *
 * @module
 */

/** Rows of columns two spaces apart, each column but the last padded to its widest cell. */
export function formatColumns(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => widths[index] = Math.max(widths[index] ?? 0, cell.length));
  }
  return rows.map((row) =>
    row.map((cell, index) => index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))
      .join("  ") + "\n"
  ).join("");
}

/** The longest summary a listing shows before it is cut with `…`. */
export const MAX_SUMMARY = 100;

// The end of a sentence: `.`, `!` or `?`, then a space and a capital letter (a new sentence).
const SENTENCE_END = /[.!?](?=\s+[A-Z])/;

/**
 * The first line of a description, for a listing: only its first sentence
 * when it runs on (MCP servers write paragraphs on one line), cut to
 * {@link MAX_SUMMARY} characters.
 */
export function summary(description: string): string {
  const line = description.trim().split("\n")[0]?.trim() ?? "";
  const end = SENTENCE_END.exec(line);
  const sentence = end === null ? line : line.slice(0, end.index + 1);
  return sentence.length <= MAX_SUMMARY ? sentence : `${sentence.slice(0, MAX_SUMMARY - 1)}…`;
}
