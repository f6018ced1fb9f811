/**
 * What a `/` command may do to the chat: the handle the app gives commands,
 * so each command stays a small function outside the app's key handling.
 *
 * @module
 */

import type { Message } from "../../llm/messages.ts";
import type { ChatBackend, Choice } from "./backend.ts";
import type { EditorState } from "./editor.ts";
import type { Overlay } from "./overlay.ts";
import { createPicker } from "./picker.ts";
import type { Theme } from "./style.ts";
import type { Transcript } from "./transcript.ts";
import { storedContextTokens, type Turns } from "./turns.ts";

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

/** What {@link createControls} works on: the chat's parts, and setters of its state. */
export interface ControlsOptions
  extends Pick<ChatControls, "backend" | "transcript" | "editor" | "theme" | "say" | "invalidate"> {
  readonly turns: Turns;
  readonly quit: () => void;
  readonly clearScreen: () => void;
  readonly write: (text: string) => void;
  /** Opens (or, with null, closes) the overlay in the editor's place. */
  readonly setOverlay: (overlay: Overlay | null) => void;
  /** Sets the context use the status line shows. */
  readonly setContextTokens: (tokens: number | null) => void;
}

/** The handle `/` commands get; a failed pick is an error row. */
export function createControls(options: ControlsOptions): ChatControls {
  const { backend, transcript, theme, turns, invalidate, setOverlay } = options;
  return {
    backend,
    transcript,
    editor: options.editor,
    theme,
    busy: () => turns.startedAt() !== null,
    say: options.say,
    invalidate,
    quit: options.quit,
    clearScreen: options.clearScreen,
    write: options.write,
    pick(title, choices, pick, cancel) {
      setOverlay(createPicker({
        title,
        choices,
        theme,
        pick(choice) {
          setOverlay(null);
          Promise.resolve(pick(choice)).catch((error: unknown) => {
            transcript.addNotice(error instanceof Error ? error.message : String(error), "error");
          }).finally(invalidate);
        },
        cancel() {
          setOverlay(null);
          cancel?.();
          invalidate();
        },
      }));
      invalidate();
    },
    showSession(messages) {
      options.setContextTokens(storedContextTokens(messages));
      transcript.replay(messages);
    },
    compact() {
      turns.runTask((handlers) => backend.compact(handlers));
    },
  };
}
