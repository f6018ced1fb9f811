/**
 * Display width of terminal text and ANSI-aware wrapping and cutting.
 *
 * - Escape sequences (SGR, other CSI, OSC) take no columns.
 * - ASCII takes the fast path; other text is split into grapheme clusters
 *   (`Intl.Segmenter`, created on first use) and each cluster is as wide as
 *   `get-east-asian-width` says of its first code point, 2 for emoji, 0 for
 *   combining marks and format characters.
 * - Terminals disagree about some emoji (pitfall of every inline UI): callers
 *   keep a spare column on rows with model or user text, and never pad rows
 *   to the full width.
 *
 * @module
 */

import { eastAsianWidth } from "get-east-asian-width";

// deno-lint-ignore no-control-regex
const ESCAPE = /\x1b(?:\[[0-9;:?<=>]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/y;
const PLAIN_ASCII = /^[\x20-\x7e]*$/;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): Iterable<string> {
  segmenter ??= new Intl.Segmenter();
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** The columns one grapheme cluster takes. */
export function clusterWidth(cluster: string): number {
  const code = cluster.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (code < 0x7f) return 1;
  if (
    EMOJI.test(cluster) && (cluster.length > 2 || code >= 0x1f000 || cluster.includes("\ufe0f"))
  ) {
    return 2;
  }
  if (ZERO_WIDTH.test(cluster)) return 0;
  return eastAsianWidth(code);
}

/** One piece of terminal text: an escape sequence (no width) or a grapheme cluster. */
export interface Atom {
  readonly text: string;
  readonly width: number;
  readonly escape: boolean;
}

/** Splits terminal text into escape sequences and grapheme clusters. */
export function atoms(text: string): Atom[] {
  const result: Atom[] = [];
  let plainStart = 0;
  const flushPlain = (end: number) => {
    if (end <= plainStart) return;
    const plain = text.slice(plainStart, end);
    if (PLAIN_ASCII.test(plain)) {
      for (const char of plain) result.push({ text: char, width: 1, escape: false });
    } else {
      for (const cluster of graphemes(plain)) {
        result.push({ text: cluster, width: clusterWidth(cluster), escape: false });
      }
    }
  };
  for (let index = text.indexOf("\x1b"); index !== -1; index = text.indexOf("\x1b", index)) {
    ESCAPE.lastIndex = index;
    const match = ESCAPE.exec(text);
    if (match === null) {
      index++;
      continue;
    }
    flushPlain(index);
    result.push({ text: match[0], width: 0, escape: true });
    index += match[0].length;
    plainStart = index;
  }
  flushPlain(text.length);
  return result;
}

/** The columns `text` takes on a terminal (escape sequences excluded). */
export function textWidth(text: string): number {
  if (PLAIN_ASCII.test(text)) return text.length;
  let width = 0;
  for (const atom of atoms(text)) width += atom.width;
  return width;
}

/** `text` without its escape sequences. */
export function stripAnsi(text: string): string {
  if (!text.includes("\x1b")) return text;
  return atoms(text).filter((atom) => !atom.escape).map((atom) => atom.text).join("");
}

const RESET = "\x1b[0m";

/** Tracks the SGR attributes in effect, to close a line and reopen them on the next. */
function sgrTracker() {
  let active = "";
  return {
    see(atom: Atom) {
      if (!atom.escape || !atom.text.endsWith("m") || !atom.text.startsWith("\x1b[")) return;
      if (atom.text === RESET || atom.text === "\x1b[m") active = "";
      else active += atom.text;
    },
    get open() {
      return active;
    },
  };
}

/**
 * Cuts `text` to at most `width` columns, ending with `ellipsis` when it was
 * cut (the ellipsis counts towards the width).
 */
export function truncate(text: string, width: number, ellipsis = "…"): string {
  if (textWidth(text) <= width) return text;
  const room = Math.max(0, width - textWidth(ellipsis));
  let used = 0;
  let out = "";
  for (const atom of atoms(text)) {
    if (atom.escape) {
      out += atom.text;
      continue;
    }
    if (used + atom.width > room) break;
    out += atom.text;
    used += atom.width;
  }
  return `${out}${ellipsis}${out.includes("\x1b[") ? RESET : ""}`;
}

/**
 * Wraps one line of terminal text (no newlines) to `width` columns, at
 * spaces where it can and inside a word that is longer than a row.
 * Attributes open at a break are closed and reopened on the next row;
 * `indent` starts every row after the first.
 */
export function wrapLine(text: string, width: number, indent = ""): string[] {
  const room = Math.max(1, width);
  if (textWidth(text) <= room) return [text];
  const indentWidth = textWidth(indent);
  const rows: string[] = [];
  const sgr = sgrTracker();
  let row = "";
  let rowWidth = 0;
  // The current word, not yet placed, and the spaces before it.
  let word: Atom[] = [];
  let wordWidth = 0;
  let spaces = "";
  const breakRow = () => {
    const open = sgr.open;
    rows.push(open === "" ? row.trimEnd() : `${row.trimEnd()}${RESET}`);
    row = `${indent}${open}`;
    rowWidth = indentWidth;
  };
  const placeWord = () => {
    if (word.length === 0) {
      return;
    }
    const limit = room;
    if (rowWidth + spaces.length + wordWidth > limit && rowWidth > indentWidth) {
      breakRow();
      spaces = "";
    }
    row += spaces;
    rowWidth += spaces.length;
    for (const atom of word) {
      if (!atom.escape && rowWidth + atom.width > limit && rowWidth > indentWidth) breakRow();
      sgr.see(atom);
      row += atom.text;
      rowWidth += atom.width;
    }
    word = [];
    wordWidth = 0;
    spaces = "";
  };
  for (const atom of atoms(text)) {
    if (!atom.escape && atom.text === " ") {
      placeWord();
      spaces += " ";
      continue;
    }
    word.push(atom);
    wordWidth += atom.width;
  }
  placeWord();
  if (rowWidth > indentWidth || rows.length === 0) rows.push(row);
  return rows;
}

/** Wraps multi-line text; each `\n` starts a new row. */
export function wrapText(text: string, width: number, indent = ""): string[] {
  return text.split("\n").flatMap((line) => wrapLine(line, width, indent));
}

/**
 * `row` with the cell at column `col` shown inverse (a drawn cursor); past
 * the end of the row, an inverse space.
 */
export function markColumn(row: string, col: number): string {
  let used = 0;
  let out = "";
  let marked = false;
  for (const atom of atoms(row)) {
    if (!marked && !atom.escape && used >= col) {
      out += `\x1b[7m${atom.text}\x1b[27m`;
      marked = true;
    } else out += atom.text;
    used += atom.width;
  }
  return marked ? out : `${out}${" ".repeat(Math.max(0, col - used))}\x1b[7m \x1b[27m`;
}
