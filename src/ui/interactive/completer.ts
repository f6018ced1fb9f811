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
import type { FileListing } from "./backend.ts";
import type { Key } from "./keys.ts";
import type { Theme } from "./style.ts";

/** What the completer works on. */
export interface CompleterOptions {
  readonly editor: EditorState;
  readonly theme: Theme;
  /** Lists a folder of the workspace ("" for all of it; folders end in `/`). */
  readonly files: (folder: string) => Promise<FileListing>;
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
  /** The workspace's listing for this `@`; null while it is on its way. */
  let root: FileListing | null = null;
  /** A folder's listing, when the workspace's was cut short (see {@link narrow}). */
  let narrowed: FileListing | null = null;
  /** The folder being listed now, if any. */
  let listingFolder: string | null = null;

  /** Lists `folder`; the popup shows it once it is there (unless a later listing was asked for). */
  function list(folder: string) {
    listingFolder = folder;
    const show = (found: FileListing) => {
      if (listingFolder !== folder) return;
      listingFolder = null;
      if (folder === "") root = found;
      else narrowed = found;
      refresh();
      options.invalidate();
    };
    // A listing that failed is one that found nothing, and says it may have missed files.
    void options.files(folder).then(show, () => show({ folder, paths: [], complete: false }));
  }

  /**
   * The listing a file query completes from: the workspace's, or, when that
   * was cut short (a big tree), that of the folder the query names
   * (`src/ui/` of `src/ui/blo`), listed on demand, so no file is out of reach.
   */
  function listingFor(query: string): FileListing | null {
    if (root === null || root.complete) return root;
    const folder = query.slice(0, query.lastIndexOf("/") + 1);
    if (folder === "") return root;
    if (narrowed !== null && folder.startsWith(narrowed.folder)) {
      if (narrowed.complete || narrowed.folder === folder) return narrowed;
    }
    if (listingFolder !== folder) list(folder);
    return null;
  }

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
      root = null;
      narrowed = null;
      list("");
    }
    const listing = query.kind === "file" ? listingFor(query.query) : null;
    const candidates = candidatesFor(query, { commands: COMMANDS, files: listing?.paths ?? [] });
    const selected = fresh || popup === null ? 0 : Math.min(popup.selected, candidates.length - 1);
    const state = query.kind === "command"
      ? "complete"
      : listing === null
      ? "listing"
      : listing.complete
      ? "complete"
      : "partial";
    popup = { query, candidates, selected: Math.max(0, selected), files: state };
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
