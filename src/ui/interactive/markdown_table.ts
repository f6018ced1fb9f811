/**
 * Markdown tables: box-drawn when every column fits the width, otherwise one
 * block per row (`header: value` lines), which stays readable at 80 columns.
 *
 * @module
 */

import type { Tokens } from "marked";
import { renderInline } from "./markdown_inline.ts";
import type { Theme } from "./style.ts";
import { textWidth, wrapLine } from "./width.ts";

/** Renders a table to rows of at most `width` columns. */
export function renderTable(table: Tokens.Table, width: number, theme: Theme): string[] {
  const header = table.header.map((cell) => oneLine(renderInline(cell.tokens, theme)));
  const rows = table.rows.map((row) =>
    row.map((cell) => oneLine(renderInline(cell.tokens, theme)))
  );
  const columns = header.length;
  const widths = header.map((cell, column) =>
    Math.max(textWidth(cell), ...rows.map((row) => textWidth(row[column] ?? "")), 1)
  );
  const total = widths.reduce((sum, w) => sum + w, 0) + 3 * columns + 1;
  if (total > width) return plainRows(header, rows, width, theme);
  const pad = (text: string, column: number) => {
    const room = widths[column]! - textWidth(text);
    const align = table.align[column];
    if (align === "right") return " ".repeat(room) + text;
    if (align === "center") {
      const left = Math.floor(room / 2);
      return " ".repeat(left) + text + " ".repeat(room - left);
    }
    return text + " ".repeat(room);
  };
  const rule = (left: string, middle: string, right: string) =>
    theme.dim(left + widths.map((w) => "─".repeat(w + 2)).join(middle) + right);
  const line = (cells: readonly string[]) =>
    theme.dim("│") +
    widths.map((_, column) => ` ${pad(cells[column] ?? "", column)} `).join(theme.dim("│")) +
    theme.dim("│");
  return [
    rule("┌", "┬", "┐"),
    line(header.map((cell) => theme.bold(cell))),
    rule("├", "┼", "┤"),
    ...rows.map(line),
    rule("└", "┴", "┘"),
  ];
}

function oneLine(text: string): string {
  return text.replace(/\n/g, " ");
}

function plainRows(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
  theme: Theme,
): string[] {
  const lines: string[] = [];
  for (const [index, row] of rows.entries()) {
    if (index > 0) lines.push(theme.dim("·"));
    for (const [column, cell] of row.entries()) {
      const label = header[column] ?? "";
      for (const row of wrapLine(`${theme.bold(`${label}:`)} ${cell}`, width, "  ")) {
        lines.push(row);
      }
    }
  }
  return lines;
}
