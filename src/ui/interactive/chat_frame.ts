/**
 * The chat's live region as rows, from its parts: a pure renderer, so what
 * a frame shows is reachable by a unit test.
 *
 * From the top: the live part of the transcript (its tail, when the rest
 * does not fit), the queued messages, the activity row of a running turn,
 * the `/` and `@` popup, the editor (or a picker or question in its place)
 * with its caret drawn, and the status line. The region is one row shorter
 * than the screen, so the terminal's cursor stays parked below it.
 *
 * @module
 */

import type { Theme } from "./style.ts";
import { markColumn, truncate } from "./width.ts";

/** The parts of one frame, each already rendered to rows. */
export interface FrameParts {
  /** The transcript rows not committed to the scrollback yet. */
  readonly live: readonly string[];
  /** The texts of the queued messages. */
  readonly queued: readonly string[];
  /** The activity row of a running turn; null when idle. */
  readonly activity: string | null;
  /** The rows of the `/` and `@` popup (none while a picker is open). */
  readonly popup: readonly string[];
  /** The editor's rows, or a picker's or question's, and where its caret is. */
  readonly input: {
    readonly rows: readonly string[];
    readonly caret: { readonly row: number; readonly col: number } | null;
  };
  readonly status: string;
  readonly width: number;
  /** The terminal's rows. */
  readonly height: number;
  readonly theme: Theme;
}

/** The rows of the live region. */
export function frameRows(parts: FrameParts): string[] {
  const { width, theme } = parts;
  const bottom: string[] = [];
  for (const queued of parts.queued) {
    bottom.push(truncate(theme.dim(`⏵ queued: ${queued.replace(/\s+/g, " ")}`), width - 1));
  }
  if (parts.activity !== null) bottom.push(parts.activity);
  bottom.push(...parts.popup);
  const { caret } = parts.input;
  const caretRow = caret === null ? null : bottom.length + caret.row;
  bottom.push(...parts.input.rows, parts.status);
  // The cursor is drawn, not the terminal's: the terminal's stays parked on the last row,
  // so when the width changes every row it re-wraps is above it (see screen.ts).
  if (caret !== null && caretRow !== null) {
    bottom[caretRow] = markColumn(bottom[caretRow] ?? "", caret.col);
  }
  const room = Math.max(0, parts.height - 1 - bottom.length);
  const shown = parts.live.length > room ? parts.live.slice(parts.live.length - room) : parts.live;
  return [...shown, ...bottom];
}
