/**
 * What the chat shows once the backend has loaded: the workspace's earlier
 * prompts in the editor's history, a resumed session's conversation, and
 * with `-r` the session picker (a new session when nothing is stored yet or
 * it is left with Esc); then `begin` sends the first prompt and the keys
 * typed ahead.
 *
 * @module
 */

import type { Message } from "../../llm/messages.ts";
import type { Choice } from "./backend.ts";
import type { ChatControls } from "./controls.ts";

/** What the chat shows once the backend has loaded. */
export interface StartData {
  /** The stored conversation of a resumed session, shown first. */
  readonly replay: readonly Message[];
  /** The sessions the `-r` picker offers (none: nothing stored yet); null without `-r`. */
  readonly start: readonly Choice[] | null;
  /** Earlier prompts of this workspace, oldest first. */
  readonly history: readonly string[];
}

/** Shows `data`, then calls `begin` (after the `-r` picker has closed, when there is one). */
export function showStart(data: StartData, controls: ChatControls, begin: () => void): void {
  const { replay, start, history } = data;
  // At most 500 prompts (chat_history.ts): small enough to spread.
  controls.editor.history.unshift(...history);
  if (replay.length > 0) controls.showSession(replay);
  if (start === null) return begin();
  if (start.length === 0) {
    controls.transcript.addNotice(
      "no stored session in this workspace yet: this is a new one",
      "info",
    );
    return begin();
  }
  controls.pick("Resume a session", start, async (choice) => {
    try {
      controls.showSession(await controls.backend.resume(choice.value));
      controls.transcript.addNotice(`resumed session ${choice.value}`, "faint");
    } finally {
      begin();
    }
  }, begin);
  controls.invalidate();
}
