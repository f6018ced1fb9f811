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

/** The first line of a description, for a listing. */
export function summary(description: string): string {
  return description.trim().split("\n")[0]?.trim() ?? "";
}
