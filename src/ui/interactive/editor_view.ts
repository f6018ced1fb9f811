/**
 * The editor as rows: a rule above and below (no right-hand border, which
 * wide characters would push out of line), `›` before the first row, a
 * placeholder when empty, and at most `maxRows` rows around the cursor.
 *
 * @module
 */

import { caretOf, type EditorState, layout } from "./editor.ts";
import { terminalSafe } from "../terminal_text.ts";
import type { Theme } from "./style.ts";

/** The editor's rows and where the cursor is among them. */
export interface EditorView {
  readonly rows: string[];
  readonly caret: { readonly row: number; readonly col: number };
}

const PREFIX_WIDTH = 2;

/** Renders the editor `width` columns wide. */
export function renderEditor(
  state: EditorState,
  options: { width: number; theme: Theme; maxRows: number; placeholder: string },
): EditorView {
  const { width, theme, maxRows, placeholder } = options;
  const rule = theme.dim("─".repeat(Math.max(1, width - 1)));
  const textWidth = Math.max(4, width - PREFIX_WIDTH - 2);
  if (state.text === "") {
    return {
      rows: [rule, `${theme.cyan("›")} ${theme.dim(placeholder)}`, rule],
      caret: { row: 1, col: PREFIX_WIDTH },
    };
  }
  const rows = layout(state.text, textWidth);
  const caret = caretOf(state, rows);
  const room = Math.max(1, maxRows);
  const first = Math.min(Math.max(0, caret.row - room + 1), Math.max(0, rows.length - room));
  const shown = rows.slice(first, first + room).map((row, index) => {
    const text = terminalSafe(state.text.slice(row.start, row.end).replace(/\n/g, ""));
    const prefix = first + index === 0 ? theme.cyan("›") : " ";
    return `${prefix} ${text}`;
  });
  return {
    rows: [rule, ...shown, rule],
    caret: { row: 1 + caret.row - first, col: PREFIX_WIDTH + caret.col },
  };
}
