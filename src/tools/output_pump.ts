/**
 * Reads one output pipe of a child process: decodes UTF-8 in streaming mode
 * (a character split across chunks arrives whole), forwards each piece live
 * and keeps a capped copy. Forwarding is synchronous, so a slow consumer
 * slows the child (the pipe fills) and memory stays at one chunk; it goes in
 * 8 KiB steps with a yield to the event loop every 20 ms, so an interrupt is
 * never kept waiting (`host/output_steps.ts`).
 *
 * @module
 */

import { createYieldPoint, splitOutput } from "../host/output_steps.ts";
import { cutUtf8, TRUNCATION_MARKER, utf8ByteLength } from "./truncate.ts";

/** A pipe being read until its end or until it is cancelled. */
export interface OutputPump {
  /** Settles when the pipe reached its end or was cancelled; never rejects. */
  readonly done: Promise<void>;
  /** Stops reading; pending output is dropped. */
  cancel(): Promise<void>;
  /** The collected text so far, with `\n[output truncated]` after a cut. */
  collected(): string;
  /** Whether more arrived than was kept. */
  truncated(): boolean;
}

/**
 * Starts reading `stream`, calling `onText` with every decoded piece and
 * keeping up to `maxBytes`. Once `live` aborts (the command was interrupted),
 * what is left is only collected: a slow terminal must not hold up the stop.
 */
export function pumpOutput(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  onText?: (text: string) => void,
  live?: AbortSignal,
): OutputPump {
  const reader = stream.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const parts: string[] = [];
  let keptBytes = 0;
  let truncated = false;

  function accept(text: string): void {
    if (text === "") return;
    if (onText !== undefined && live?.aborted !== true) {
      try {
        onText(text);
      } catch {
        // A failing front end must not stall the pipe: the child would block on a full buffer.
      }
    }
    if (truncated) return;
    const size = utf8ByteLength(text);
    if (keptBytes + size <= maxBytes) {
      parts.push(text);
      keptBytes += size;
      return;
    }
    parts.push(cutUtf8(text, maxBytes - keptBytes));
    keptBytes = maxBytes;
    truncated = true;
  }

  async function readAll(): Promise<void> {
    const yieldPoint = createYieldPoint();
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        // While each write blocks on a slow terminal the next chunk is always
        // ready: small steps with a yield between them let a signal in.
        for (const piece of splitOutput(text)) {
          accept(piece);
          const pause = yieldPoint();
          if (pause !== null) await pause;
        }
      }
    } catch {
      // A read error ends the pipe like its end would; what arrived is kept.
    }
    accept(decoder.decode());
  }

  const done = readAll();
  return {
    done,
    async cancel() {
      try {
        await reader.cancel();
      } catch {
        // Already closed or errored: nothing left to stop.
      }
      await done;
    },
    collected() {
      return parts.join("") + (truncated ? TRUNCATION_MARKER : "");
    },
    truncated: () => truncated,
  };
}
