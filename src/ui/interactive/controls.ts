/**
 * What a `/` command may do to the chat: the handle the app gives commands,
 * so each command stays a small function outside the app's key handling.
 *
 * @module
 */

import type { ChatBackend } from "./backend.ts";
import type { EditorState } from "./editor.ts";
import type { Overlay } from "./overlay.ts";
import type { Theme } from "./style.ts";
import type { Transcript } from "./transcript.ts";

/** The chat as commands see it. */
export interface ChatControls {
  readonly backend: ChatBackend;
  readonly transcript: Transcript;
  readonly editor: EditorState;
  readonly theme: Theme;
  /** Whether a turn is running. */
  busy(): boolean;
  /** Shows a short message on the status line. */
  say(text: string, ms?: number): void;
  /** Asks for a new frame. */
  invalidate(): void;
  quit(): void;
  openOverlay(overlay: Overlay): void;
  closeOverlay(): void;
  /** Clears the screen and the scrollback. */
  clearScreen(): void;
  /** Writes raw bytes to the terminal (OSC 52). */
  write(text: string): void;
}
