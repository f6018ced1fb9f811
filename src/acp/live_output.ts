/**
 * A running call's live output (a command's, a user tool's `ctx.log`) as
 * `tool_call_update`s with the output so far: a bounded tail of at most
 * {@link MAX_LIVE_OUTPUT_CHARS}, sent at once for the first output and then
 * at most every {@link LIVE_OUTPUT_INTERVAL_MS}; the call's result replaces it.
 *
 * @module
 */

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { stripEscapes } from "../base/escape_sequences.ts";

/** The most output a live update shows: its end. */
export const MAX_LIVE_OUTPUT_CHARS = 16 * 1024;

/** The least time between two live updates of one call. */
export const LIVE_OUTPUT_INTERVAL_MS = 250;

/** The live output of the calls of one prompt. */
export interface LiveOutput {
  /** Adds output of call `id`. */
  add(id: string, text: string): void;
  /** Ends call `id`'s live output (its result came): nothing more is sent for it. */
  end(id: string): void;
  /** Ends every call's (the run ended). */
  close(): void;
}

/** Sends live output updates through `send`. */
export function createLiveOutput(send: (update: SessionUpdate) => void): LiveOutput {
  const calls = new Map<
    string,
    { tail: string; sentAt: number; timer: ReturnType<typeof setTimeout> | undefined }
  >();
  const flush = (id: string) => {
    const call = calls.get(id);
    if (call === undefined) return;
    call.timer = undefined;
    call.sentAt = Date.now();
    send({
      sessionUpdate: "tool_call_update",
      toolCallId: id,
      content: [{ type: "content", content: { type: "text", text: call.tail } }],
    });
  };
  return {
    add(id, text) {
      const call = calls.get(id) ?? { tail: "", sentAt: 0, timer: undefined };
      calls.set(id, call);
      const tail = call.tail + stripEscapes(text);
      call.tail = tail.length > MAX_LIVE_OUTPUT_CHARS ? tail.slice(-MAX_LIVE_OUTPUT_CHARS) : tail;
      if (call.timer !== undefined) return;
      const wait = call.sentAt + LIVE_OUTPUT_INTERVAL_MS - Date.now();
      if (wait <= 0) flush(id);
      else call.timer = setTimeout(() => flush(id), wait);
    },
    end(id) {
      clearTimeout(calls.get(id)?.timer);
      calls.delete(id);
    },
    close() {
      for (const call of calls.values()) clearTimeout(call.timer);
      calls.clear();
    },
  };
}
