/**
 * An overlay takes the editor's place in the live region while it is open:
 * the approve/deny question and the pickers. It draws its rows and gets
 * every key until it closes itself.
 *
 * @module
 */

import type { Key } from "./keys.ts";

/** A panel in place of the editor. */
export interface Overlay {
  /** Its rows at `width`, and where the cursor rests among them (null: hidden). */
  render(width: number, now: number): {
    rows: string[];
    caret: { row: number; col: number } | null;
  };
  /** Handles a key. */
  key(key: Key, now: number): void;
  /** Closes it as if cancelled (an interrupt, a quit). */
  cancel(): void;
}
