/**
 * The prompt editor's state and editing operations (pure, no terminal):
 * multi-line text with a cursor, grapheme-wise and word-wise movement and
 * deletion, visual up/down over wrapped rows, history, and paste markers.
 *
 * - A paste of more than {@link PASTE_MARKER_LINES} lines shows as
 *   `[pasted 120 lines]`; {@link submitText} puts the pasted text back.
 * - Up on the first row and Down on the last one walk the history; the text
 *   being written is kept and comes back after the newest entry.
 *
 * @module
 */

import { nextBoundary, nextWord, previousBoundary, previousWord } from "./text_edit.ts";
import { clusterWidth, textWidth } from "./width.ts";

/** Pastes with more lines than this show as a marker. */
export const PASTE_MARKER_LINES = 5;

/** The editor: text, cursor (a UTF-16 offset on a grapheme boundary), history. */
export interface EditorState {
  text: string;
  cursor: number;
  /** The column Up/Down try to keep. */
  goal: number | null;
  /** Earlier prompts, oldest first. */
  readonly history: string[];
  /** The history entry shown, or null for the text being written. */
  historyIndex: number | null;
  /** The text being written while the history is browsed. */
  draft: string;
  /** Marker text → the pasted text it stands for. */
  readonly pastes: Map<string, string>;
}

/** A new, empty editor over `history`. */
export function createEditor(history: readonly string[] = []): EditorState {
  return {
    text: "",
    cursor: 0,
    goal: null,
    history: [...history],
    historyIndex: null,
    draft: "",
    pastes: new Map(),
  };
}

/** Replaces the text and puts the cursor at its end. */
export function setText(state: EditorState, text: string): void {
  state.text = text;
  state.cursor = text.length;
  state.goal = null;
}

/** Inserts typed text at the cursor. */
export function insert(state: EditorState, text: string): void {
  state.text = state.text.slice(0, state.cursor) + text + state.text.slice(state.cursor);
  state.cursor += text.length;
  state.goal = null;
}

/** Inserts a paste: as text, or as a marker when it has many lines. */
export function paste(state: EditorState, text: string): void {
  const clean = text.replace(/\t/g, "    ");
  const lines = clean.split("\n").length;
  if (lines <= PASTE_MARKER_LINES) return insert(state, clean);
  let marker = `[pasted ${lines} lines]`;
  for (let n = 2; state.pastes.has(marker); n++) marker = `[pasted ${lines} lines #${n}]`;
  state.pastes.set(marker, clean);
  insert(state, marker);
}

function remove(state: EditorState, from: number, to: number): void {
  if (from >= to) return;
  state.text = state.text.slice(0, from) + state.text.slice(to);
  state.cursor = from;
  state.goal = null;
}

/** The editing operations bound to keys. */
export type EditAction =
  | "left"
  | "right"
  | "wordLeft"
  | "wordRight"
  | "lineStart"
  | "lineEnd"
  | "backspace"
  | "delete"
  | "deleteWordBack"
  | "deleteWordForward"
  | "deleteToLineStart"
  | "deleteToLineEnd";

/** Applies one editing operation. */
export function edit(state: EditorState, action: EditAction): void {
  const { text, cursor } = state;
  const lineStart = text.lastIndexOf("\n", cursor - 1) + 1;
  const lineEndAt = text.indexOf("\n", cursor);
  const lineEnd = lineEndAt === -1 ? text.length : lineEndAt;
  const move = (to: number) => {
    state.cursor = to;
    state.goal = null;
  };
  switch (action) {
    case "left":
      return move(previousBoundary(text, cursor));
    case "right":
      return move(nextBoundary(text, cursor));
    case "wordLeft":
      return move(previousWord(text, cursor));
    case "wordRight":
      return move(nextWord(text, cursor));
    case "lineStart":
      return move(lineStart);
    case "lineEnd":
      return move(lineEnd);
    case "backspace":
      return remove(state, previousBoundary(text, cursor), cursor);
    case "delete":
      return remove(state, cursor, nextBoundary(text, cursor));
    case "deleteWordBack":
      return remove(state, previousWord(text, cursor), cursor);
    case "deleteWordForward":
      return remove(state, cursor, nextWord(text, cursor));
    case "deleteToLineStart":
      return remove(state, cursor === lineStart ? Math.max(0, lineStart - 1) : lineStart, cursor);
    case "deleteToLineEnd":
      return remove(
        state,
        cursor,
        cursor === lineEnd ? Math.min(text.length, lineEnd + 1) : lineEnd,
      );
    default: {
      const unknown: never = action;
      throw new Error(`unknown edit ${unknown}`);
    }
  }
}

/** One visual row of the editor: text offsets [start, end). */
export interface Row {
  readonly start: number;
  readonly end: number;
}

/** Wraps the text into rows of at most `width` columns, at spaces where it can. */
export function layout(text: string, width: number): Row[] {
  const room = Math.max(2, width);
  const rows: Row[] = [];
  let lineStart = 0;
  for (const line of text.split("\n")) {
    let start = lineStart;
    const end = lineStart + line.length;
    while (textWidth(text.slice(start, end)) > room) {
      let at = start;
      let used = 0;
      let lastSpace = -1;
      while (at < end) {
        const next = nextBoundary(text, at);
        const w = clusterWidth(text.slice(at, next));
        if (used + w > room) break;
        if (text[at] === " ") lastSpace = next;
        used += w;
        at = next;
      }
      const cut = lastSpace > start ? lastSpace : Math.max(at, nextBoundary(text, start));
      rows.push({ start, end: cut });
      start = cut;
    }
    rows.push({ start, end });
    lineStart = end + 1;
  }
  return rows;
}

/** The row and column of the cursor in `rows`. */
export function caretOf(state: EditorState, rows: readonly Row[]): { row: number; col: number } {
  let row = 0;
  for (let index = 0; index < rows.length; index++) {
    const current = rows[index]!;
    if (state.cursor < current.start) break;
    // At a soft wrap the cursor belongs to the next row.
    if (state.cursor === current.end && rows[index + 1]?.start === current.end) {
      row = index + 1;
      continue;
    }
    row = index;
  }
  const current = rows[row]!;
  return { row, col: textWidth(state.text.slice(current.start, state.cursor)) };
}

/**
 * Moves the cursor one visual row up (-1) or down (+1) in rows `width`
 * wide; false when it is already on the first / last row.
 */
export function moveVertically(state: EditorState, direction: -1 | 1, width: number): boolean {
  const rows = layout(state.text, width);
  const caret = caretOf(state, rows);
  const target = rows[caret.row + direction];
  if (target === undefined) return false;
  const goal = state.goal ?? caret.col;
  let at = target.start;
  let used = 0;
  while (at < target.end) {
    const next = nextBoundary(state.text, at);
    const w = clusterWidth(state.text.slice(at, next));
    if (used + w > goal) break;
    used += w;
    at = next;
  }
  state.cursor = at;
  state.goal = goal;
  return true;
}

/** Shows the previous (-1) or next (+1) history entry; false when there is none. */
export function browseHistory(state: EditorState, direction: -1 | 1): boolean {
  const { history } = state;
  const current = state.historyIndex ?? history.length;
  const target = current + direction;
  if (target < 0 || target > history.length) return false;
  if (state.historyIndex === null) state.draft = state.text;
  state.historyIndex = target === history.length ? null : target;
  setText(state, state.historyIndex === null ? state.draft : history[target]!);
  if (direction < 0) {
    // Older entries open with the cursor on their first row, so Up keeps going back.
    const firstBreak = state.text.indexOf("\n");
    if (firstBreak !== -1) state.cursor = firstBreak;
  }
  return true;
}

/** The text to send: markers replaced by their pastes. Clears the editor and records history. */
export function submitText(state: EditorState): string {
  let text = state.text;
  for (const [marker, pasted] of state.pastes) text = text.split(marker).join(pasted);
  if (text.trim() !== "" && state.history.at(-1) !== text) state.history.push(text);
  state.pastes.clear();
  state.historyIndex = null;
  state.draft = "";
  setText(state, "");
  return text;
}
