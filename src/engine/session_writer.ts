/**
 * How the engine persists a run: complete messages only, in order.
 * `sessions/` implements it; `--no-session` passes a writer that keeps nothing.
 *
 * @module
 */

import type { Message } from "../llm/messages.ts";

/** Appends complete messages to the active branch of a session. */
export interface SessionWriter {
  /** Appends one message as one complete entry (never a partial line). */
  append(message: Message): Promise<void>;
}

/** A writer that keeps nothing (`--no-session`). */
export const DISCARD_SESSION: SessionWriter = { append: () => Promise.resolve() };
