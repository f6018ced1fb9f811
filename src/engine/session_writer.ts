/**
 * How the engine persists a run: complete messages only, in order, a mark
 * before each tool starts, and the stop a hook asked for.
 * `app/run_session.ts` implements it over a session file, or over nothing for
 * `--no-session`.
 *
 * @module
 */

import type { Message } from "../llm/messages.ts";
import type { HookStop } from "./hook_stop.ts";

/** Appends complete messages to the active branch of a session. */
export interface SessionWriter {
  /** Appends one message as one complete entry (never a partial line). */
  append(message: Message): Promise<void>;
  /**
   * Records that the tool of call `callId` (of the last stored message) is
   * about to start, so a run killed before the results are stored can say
   * the call may have had effects (docs/sessions.md).
   */
  toolStarted(callId: string): Promise<void>;
  /** Records that a hook stopped the run, after the last stored message (`hook_stop.ts`). */
  hookStopped(stop: HookStop): Promise<void>;
}
