/**
 * The process's standard streams and environment, as one injected object:
 * only `main.ts` builds the real one, so commands and renderers can be run
 * against buffers.
 *
 * @module
 */

/** A place text is written to. */
export interface TextSink {
  write(text: string): void;
  readonly isTerminal: boolean;
}

/** Everything a command may read from or write to its process. */
export interface Io {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly stdinIsTerminal: boolean;
  /** Reads standard input to its end. */
  readStdin(): Promise<string>;
  /** Reads one line from standard input without echo when it is a terminal; null at end of input. */
  readSecret(prompt: string): Promise<string | null>;
  /** An environment variable, or undefined. */
  env(name: string): string | undefined;
  /** The directory relative paths resolve against. */
  readonly cwd: string;
}

const encoder = new TextEncoder();

/**
 * A sink over a Deno stream. A stream that can no longer be written drops this
 * and later writes silently: a closed pipe (e.g. `| head`) or a closed
 * terminal (EIO after SIGHUP), so a run still winds down and keeps its session.
 */
export function denoSink(
  file: { writeSync(p: Uint8Array): number; isTerminal(): boolean },
): TextSink {
  let broken = false;
  const isTerminal = file.isTerminal();
  return {
    isTerminal,
    write(text) {
      if (broken || text === "") return;
      let bytes = encoder.encode(text);
      try {
        while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
      } catch (error) {
        if (error instanceof Deno.errors.BrokenPipe || isTerminalGone(error)) broken = true;
        else throw error;
      }
    },
  };
}

/** Whether a write failed because the terminal was closed (Deno reports EIO as a plain `Error`). */
function isTerminalGone(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "EIO";
}
