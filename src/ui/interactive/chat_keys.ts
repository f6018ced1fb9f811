/**
 * What a key does in the chat's editor (no picker or question open, the `/`
 * and `@` popup not taking it): a pure step from the chat's state and a key
 * to what the chat then does, so every rule of docs/interactive.md's keys is
 * reachable by a unit test.
 *
 * - Enter sends (or queues during a turn); Ctrl+G opens `$VISUAL`/`$EDITOR`.
 * - Ctrl+C interrupts a running turn, clears a non-empty editor, and on an
 *   idle empty one quits when pressed twice within {@link QUIT_WINDOW_MS}.
 * - Ctrl+D on an empty editor quits.
 * - Esc interrupts a running turn; with messages queued and an empty editor
 *   it first takes the last queued one back.
 * - Ctrl+O shows tool output and thinking whole, or collapsed again.
 * - ↑/↓ move between the editor's lines, then through the prompt history.
 *
 * @module
 */

import type { Key } from "./keys.ts";

/** A second Ctrl+C within this window quits. */
export const QUIT_WINDOW_MS = 2_000;

/** What the step reads of the chat. */
export interface ChatKeyState {
  /** A turn runs. */
  readonly running: boolean;
  readonly editorEmpty: boolean;
  /** Messages queued during the turn. */
  readonly queued: number;
  /** When an idle Ctrl+C asked for a second one; null when none did. */
  readonly quitArmedAt: number | null;
}

/** What the chat does for a key; `edit`: the editor takes it (typing, moving the cursor). */
export type ChatKeyEffect =
  | { readonly kind: "submit" }
  | { readonly kind: "interrupt"; readonly ctrlC: boolean }
  | { readonly kind: "clear_editor" }
  | { readonly kind: "quit" }
  | { readonly kind: "arm_quit" }
  | { readonly kind: "external_editor" }
  | { readonly kind: "take_back_queued" }
  | { readonly kind: "toggle_expanded" }
  | { readonly kind: "vertical"; readonly direction: -1 | 1 }
  | { readonly kind: "edit" };

/** What `key` does in `state` at time `now`. */
export function chatKeyEffect(state: ChatKeyState, key: Key, now: number): ChatKeyEffect {
  if (key.type !== "key" || key.alt || key.shift) return { kind: "edit" };
  if (key.name === "enter" && !key.ctrl) return { kind: "submit" };
  if (key.ctrl && key.name === "c") {
    if (state.running) return { kind: "interrupt", ctrlC: true };
    if (!state.editorEmpty) return { kind: "clear_editor" };
    const armed = state.quitArmedAt !== null && now - state.quitArmedAt <= QUIT_WINDOW_MS;
    return { kind: armed ? "quit" : "arm_quit" };
  }
  if (key.ctrl && key.name === "d" && state.editorEmpty) return { kind: "quit" };
  if (key.ctrl && key.name === "g") return { kind: "external_editor" };
  if (key.name === "escape") {
    if (state.running && state.editorEmpty && state.queued > 0) return { kind: "take_back_queued" };
    return { kind: "interrupt", ctrlC: false };
  }
  if (key.ctrl && key.name === "o") return { kind: "toggle_expanded" };
  if (key.name === "up" || key.name === "down") {
    return { kind: "vertical", direction: key.name === "up" ? -1 : 1 };
  }
  return { kind: "edit" };
}
