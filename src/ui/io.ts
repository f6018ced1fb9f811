/**
 * The process's standard streams and environment, as one injected object:
 * only `main.ts` builds the real one, so commands and renderers can be run
 * against buffers.
 *
 * @module
 */

import type { WaitOptions } from "../host/read_at_most.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** A place text is written to. */
export interface TextSink {
  write(text: string): void;
  readonly isTerminal: boolean;
}

/** What was read of standard input: `complete` is false when there was more than the cap. */
export interface StdinText {
  readonly text: string;
  readonly complete: boolean;
}

/** Everything a command may read from or write to its process. */
export interface Io {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly stdinIsTerminal: boolean;
  /**
   * Reads standard input to its end, or to `maxBytes`: `complete` is false when
   * there was more.
   */
  readStdin(maxBytes: number): Promise<StdinText>;
  /**
   * {@link Io.readStdin} that rejects as soon as `signal` aborts and, with
   * `firstBytesWithinMs`, resolves to null when neither a byte nor the end
   * arrives within it (standard input is then left unread).
   */
  readStdinWhileProducing(maxBytes: number, options: WaitOptions): Promise<StdinText | null>;
  /** Standard input as bytes, for a command that speaks a protocol on it (`rienda acp`). */
  stdinBytes(): ReadableStream<Uint8Array>;
  /** Reads one line from standard input without echo when it is a terminal; null at end of input. */
  readSecret(prompt: string): Promise<string | null>;
  /** An environment variable, or undefined. */
  env(name: string): string | undefined;
  /** The directory relative paths resolve against. */
  readonly cwd: string;
  /**
   * The secrets this process knows: stdout and stderr are masked with them,
   * and a command hands them to what it builds (a run, a model client, MCP
   * servers), which remembers the keys it learns into them.
   */
  readonly secrets: SecretSet;
}

/** A sink that redacts known secrets; `flush` writes what it held back (see {@link redactingSink}). */
export interface RedactingSink extends TextSink {
  flush(): void;
}

/** How long a held-back end waits for the rest of a possible key before it is written. */
const HOLD_BACK_MS = 100;

/**
 * Wraps a sink so that every secret of `secrets` and every key-shaped value
 * is replaced by its mask (`secrets/secrets.ts`). The end of a write that
 * could be the start of a key is held back until the next write (or
 * {@link HOLD_BACK_MS}, or `flush`), so a key split across two writes is
 * hidden too.
 */
export function redactingSink(sink: TextSink, secrets: SecretSet): RedactingSink {
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Only a timer that exists is cleared: Deno loads its timer module on the first
  // `clearTimeout`, a fifth of what `--version` costs.
  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const flush = () => {
    stopTimer();
    const text = pending;
    pending = "";
    sink.write(text);
  };
  return {
    isTerminal: sink.isTerminal,
    write(text) {
      if (text === "") return;
      const redacted = secrets.mask(pending + text);
      const held = secrets.startAtEnd(redacted);
      pending = redacted.slice(redacted.length - held);
      sink.write(redacted.slice(0, redacted.length - held));
      stopTimer();
      if (pending !== "") {
        timer = setTimeout(flush, HOLD_BACK_MS);
        Deno.unrefTimer(timer);
      }
    },
    flush,
  };
}
