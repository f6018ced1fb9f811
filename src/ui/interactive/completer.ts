/**
 * The completion popup's state over the editor: opened and refreshed as the
 * person types (`/` commands, `@` files), closed by Esc until the word
 * changes; ↑/↓ choose, Tab completes, Enter completes (and runs a command
 * that takes no argument).
 *
 * @module
 */

import { COMMANDS } from "./commands.ts";
import {
  type Candidate,
  candidatesFor,
  completionAt,
  type CompletionPopup,
  popupRows,
} from "./completion.ts";
import type { EditorState } from "./editor.ts";
import type { Key } from "./keys.ts";
import type { Theme } from "./style.ts";

/** What the completer works on. */
export interface CompleterOptions {
  readonly editor: EditorState;
  readonly theme: Theme;
  /** Lists the workspace (folders end in `/`). */
  readonly files: () => Promise<string[]>;
  readonly invalidate: () => void;
  /** Sends the editor's text (Enter on a complete command). */
  readonly submit: () => void;
}

/** The popup, driven by the app. */
export interface Completer {
  /** Re-reads the word at the cursor (after every edit). */
  refresh(): void;
  close(): void;
  /** Handles a key meant for the popup; false when the popup does not take it. */
  key(key: Key): boolean;
  /** The popup's rows, none when closed. */
  rows(width: number): string[];
}

/** Creates the completer. */
export function createCompleter(options: CompleterOptions): Completer {
  const { editor, theme } = options;
  let popup: CompletionPopup | null = null;
  /** The start of a word whose popup Esc closed: it stays closed while that word is edited. */
  let dismissedAt: number | null = null;
  let files: string[] = [];

  function refresh() {
    const query = completionAt(editor.text, editor.cursor);
    if (query === null || query.start === dismissedAt) {
      popup = null;
      if (query === null) dismissedAt = null;
      return;
    }
    const fresh = popup === null || popup.query.start !== query.start ||
      popup.query.kind !== query.kind;
    if (fresh && query.kind === "file") {
      // Each new `@` lists the workspace again, so new files show up.
      void options.files().then((list) => {
        files = list;
        refresh();
        options.invalidate();
      });
    }
    const candidates = candidatesFor(query, { commands: COMMANDS, files });
    const selected = fresh || popup === null ? 0 : Math.min(popup.selected, candidates.length - 1);
    popup = { query, candidates, selected: Math.max(0, selected) };
  }

  function accept(candidate: Candidate) {
    if (popup === null) return;
    const { start, end } = popup.query;
    const insert = candidate.insert.endsWith("/") ? candidate.insert : `${candidate.insert} `;
    editor.text = editor.text.slice(0, start) + insert + editor.text.slice(end);
    editor.cursor = start + insert.length;
    popup = null;
    refresh();
  }

  return {
    refresh,
    close() {
      popup = null;
    },
    key(key) {
      if (popup === null || key.type !== "key" || key.ctrl || key.alt) return false;
      const count = popup.candidates.length;
      switch (key.name) {
        case "up":
        case "down":
          if (count > 0) {
            popup.selected = (popup.selected + (key.name === "up" ? count - 1 : 1)) % count;
          }
          return true;
        case "tab":
        case "enter": {
          const candidate = popup.candidates[popup.selected];
          if (candidate === undefined) return key.name === "tab";
          const typed = editor.text.slice(popup.query.start, popup.query.end);
          // Enter on a command typed in full runs it as it is.
          if (
            key.name === "enter" && popup.query.kind === "command" && typed === candidate.insert
          ) {
            return false;
          }
          const command = popup.query.kind === "command";
          accept(candidate);
          const takesArgument = COMMANDS.find((c) => `/${c.name}` === candidate.insert)?.args;
          if (key.name === "enter" && command && takesArgument === undefined) options.submit();
          return true;
        }
        case "escape":
          dismissedAt = popup.query.start;
          popup = null;
          return true;
        default:
          return false;
      }
    },
    rows(width) {
      return popup === null ? [] : popupRows(popup, width, theme);
    },
  };
}
