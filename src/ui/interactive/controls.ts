/**
 * What a `/` command may do to the chat: the handle the app gives commands,
 * so each command stays a small function outside the app's key handling.
 *
 * @module
 */

import type { Message } from "../../llm/messages.ts";
import type { ChatBackend, Choice } from "./backend.ts";
import type { EditorState } from "./editor.ts";
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
  /** Clears the screen and the scrollback. */
  clearScreen(): void;
  /** Writes raw bytes to the terminal (OSC 52). */
  write(text: string): void;
  /** Opens a picker; `pick` runs with the chosen row, `cancel` (when given) on Esc. */
  pick(
    title: string,
    choices: readonly Choice[],
    pick: (choice: Choice) => void | Promise<void>,
    cancel?: () => void,
  ): void;
  /** Shows a session's stored conversation and forgets the context use of the previous one. */
  showSession(messages: readonly Message[]): void;
  /** Compacts the session now, as a turn that Esc can interrupt. */
  compact(): void;
}
