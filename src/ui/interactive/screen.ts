/**
 * The inline renderer on the primary screen: finished rows are written once
 * above the live region and scroll into the terminal's own scrollback; the
 * live region at the bottom is redrawn differentially (only the rows that
 * changed) inside synchronized output (DEC 2026, ignored where unsupported).
 *
 * - This is the one place rows reach the terminal, and it lets through no
 *   control but the SGR sequences of colour and style (`keepStyling`):
 *   whatever a view forgot to escape is written out visibly (and the row
 *   cut to fit), never obeyed.
 * - Every row is erased before it is written (`ESC[2K` first: erasing after
 *   a row that fills the last column would erase that column).
 * - The caller keeps rows narrower than the terminal and the live region
 *   shorter than the screen: rows that scrolled off cannot be redrawn.
 * - After a width change the terminal has reflowed the old rows itself; the
 *   renderer works out where the live region now starts and redraws it.
 *
 * @module
 */

import { keepStyling } from "../terminal_text.ts";
import { textWidth, truncate } from "./width.ts";

/** Where the terminal cursor should rest, relative to the live region. */
export interface Caret {
  readonly row: number;
  readonly col: number;
}

/** The live-region renderer. */
export interface Screen {
  /** Queues rows to print once above the live region (they go to the scrollback). */
  commit(rows: readonly string[]): void;
  /** Writes queued rows and redraws the live region as `rows`. */
  draw(rows: readonly string[], caret: Caret | null): void;
  /** Reports a new terminal width; the next draw redraws the whole live region. */
  resize(columns: number): void;
  /** Clears the screen and the scrollback (for `/clear`). */
  clearAll(): void;
  /** Erases the live region and leaves the cursor where it started. */
  close(): void;
  /** Bytes written so far (for the benchmark). */
  readonly bytesWritten: number;
}

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";
const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";
const ERASE_LINE = "\x1b[2K";
const ERASE_BELOW = "\x1b[J";
const RESET = "\x1b[0m";

/** A renderer writing through `write` on a terminal `columns` wide. */
export function createScreen(write: (text: string) => void, columns: number): Screen {
  let width = columns;
  let previous: string[] = [];
  /** Rows the live region occupies on screen (may exceed `previous` after a shrink). */
  let height = 0;
  let cursorRow = 0;
  let cursorCol = 0;
  let pending: string[] = [];
  /** Set after a resize: rows from the cursor up to the live region's top, as reflowed. */
  let reflowedRowsAbove: number | null = null;
  let bytes = 0;

  const emit = (text: string) => {
    bytes += text.length;
    write(text);
  };
  /** `row` as it may reach the terminal (see the module doc). */
  const safe = (row: string) => {
    const kept = keepStyling(row);
    return kept === row || textWidth(kept) < width ? kept : truncate(kept, width - 1);
  };
  const up = (n: number) => n > 0 ? `\x1b[${n}A` : "";
  const down = (n: number) => n > 0 ? `\x1b[${n}B` : "";

  function moveTo(target: number): string {
    let out = "";
    if (target < cursorRow) out += up(cursorRow - target);
    else if (target > cursorRow) {
      const existing = Math.min(target, Math.max(height - 1, cursorRow));
      out += down(existing - cursorRow);
      // Rows below the region's bottom do not exist yet: newlines create them.
      out += "\r\n".repeat(target - existing);
      height = Math.max(height, target + 1);
    }
    cursorRow = target;
    return `${out}\r`;
  }

  function fullDraw(rows: readonly string[]): string {
    let out = "";
    if (reflowedRowsAbove !== null) {
      out += `${up(reflowedRowsAbove)}\r${ERASE_BELOW}`;
      reflowedRowsAbove = null;
    } else {
      out += `${up(cursorRow)}\r`;
    }
    const all = [...pending, ...rows];
    pending = [];
    // Rows are narrower than the terminal, so erasing below from the end of the last one is safe.
    out += all.map((row) => `${ERASE_LINE}${safe(row)}${RESET}`).join("\r\n") + ERASE_BELOW;
    previous = [...rows];
    height = rows.length;
    cursorRow = Math.max(0, rows.length - 1);
    return out;
  }

  function diffDraw(rows: readonly string[]): string {
    let out = "";
    for (let index = 0; index < rows.length; index++) {
      if (previous[index] === rows[index] && index < height) continue;
      out += `${moveTo(index)}${ERASE_LINE}${safe(rows[index]!)}${RESET}`;
    }
    if (rows.length < height) {
      out += `${moveTo(rows.length === 0 ? 0 : rows.length - 1)}`;
      if (rows.length === 0) out += ERASE_BELOW;
      else out += `${down(1)}\r${ERASE_BELOW}${up(1)}`;
      height = rows.length;
    }
    previous = [...rows];
    return out;
  }

  return {
    commit(rows) {
      for (const row of rows) pending.push(row);
    },
    draw(drawn, caret) {
      // An empty region is one empty row, so the next draw never overwrites a committed row.
      const rows = drawn.length === 0 ? [""] : drawn;
      let out = SYNC_START + HIDE_CURSOR;
      out += pending.length > 0 || reflowedRowsAbove !== null ? fullDraw(rows) : diffDraw(rows);
      const target = caret === null ? Math.max(0, rows.length - 1) : caret.row;
      out += moveTo(Math.min(target, Math.max(0, rows.length - 1)));
      if (caret !== null) {
        cursorCol = Math.min(caret.col, width - 1);
        if (cursorCol > 0) out += `\x1b[${cursorCol}C`;
        out += SHOW_CURSOR;
      } else {
        cursorCol = 0;
      }
      emit(out + SYNC_END);
    },
    resize(columns) {
      if (columns < width) {
        // The terminal re-wrapped every row wider than the new width.
        let above = 0;
        for (let index = 0; index < cursorRow; index++) {
          above += Math.max(1, Math.ceil(textWidth(previous[index] ?? "") / columns));
        }
        above += Math.floor(cursorCol / columns);
        reflowedRowsAbove = above;
      } else {
        reflowedRowsAbove = cursorRow;
      }
      width = columns;
    },
    clearAll() {
      emit("\x1b[2J\x1b[3J\x1b[H");
      previous = [];
      height = 0;
      cursorRow = 0;
      cursorCol = 0;
      reflowedRowsAbove = null;
    },
    close() {
      emit(`${SYNC_START}${up(cursorRow)}\r${ERASE_BELOW}${SHOW_CURSOR}${SYNC_END}`);
      previous = [];
      height = 0;
      cursorRow = 0;
    },
    get bytesWritten() {
      return bytes;
    },
  };
}
