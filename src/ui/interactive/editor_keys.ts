/**
 * The editing keys: which key does what to the editor (Emacs-style control
 * keys as in a shell, plus the usual arrows with Ctrl/Alt for words).
 * Keys that act on the chat (Enter, Esc, Ctrl+C, Up/Down at the edges) are
 * the app's.
 *
 * @module
 */

import { edit, type EditAction, type EditorState, insert, paste } from "./editor.ts";
import type { Key } from "./keys.ts";

const NAMED: ReadonlyArray<[(key: Extract<Key, { type: "key" }>) => boolean, EditAction]> = [
  [(k) => (k.name === "left" && (k.ctrl || k.alt)) || (k.alt && k.name === "b"), "wordLeft"],
  [(k) => (k.name === "right" && (k.ctrl || k.alt)) || (k.alt && k.name === "f"), "wordRight"],
  [(k) => k.name === "left" || (k.ctrl && k.name === "b"), "left"],
  [(k) => k.name === "right" || (k.ctrl && k.name === "f"), "right"],
  [(k) => k.name === "home" || (k.ctrl && k.name === "a"), "lineStart"],
  [(k) => k.name === "end" || (k.ctrl && k.name === "e"), "lineEnd"],
  [
    (k) => (k.name === "backspace" && (k.alt || k.ctrl)) || (k.ctrl && k.name === "w"),
    "deleteWordBack",
  ],
  [(k) => k.name === "backspace", "backspace"],
  [
    (k) => (k.alt && k.name === "d") || (k.name === "delete" && (k.ctrl || k.alt)),
    "deleteWordForward",
  ],
  [(k) => k.name === "delete", "delete"],
  [(k) => k.ctrl && k.name === "u", "deleteToLineStart"],
  [(k) => k.ctrl && k.name === "k", "deleteToLineEnd"],
];

/** Whether `key` inserts a newline (Shift+Enter, Alt+Enter, Ctrl+J). */
export function isNewlineKey(key: Key): boolean {
  return key.type === "key" &&
    ((key.name === "enter" && (key.shift || key.alt)) || (key.ctrl && key.name === "j"));
}

/** Applies an editing key; false when the key is not an editing key. */
export function applyEditorKey(state: EditorState, key: Key): boolean {
  if (key.type === "text") {
    insert(state, key.text);
    return true;
  }
  if (key.type === "paste") {
    paste(state, key.text);
    return true;
  }
  if (isNewlineKey(key)) {
    insert(state, "\n");
    return true;
  }
  for (const [matches, action] of NAMED) {
    if (matches(key)) {
      edit(state, action);
      return true;
    }
  }
  return false;
}
