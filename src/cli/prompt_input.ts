/**
 * Where the prompt of `rienda run` comes from (docs/cli.md): `-p TEXT`,
 * `-p -` (standard input), the positional words, or standard input when it is
 * not a terminal. Words or `-p TEXT` with a piped, non-empty standard input get
 * it appended in a `<stdin>` block; such a standard input is waited for only
 * while it produces, {@link STDIN_WAIT_MS}, since a script may leave it open
 * and silent.
 *
 * @module
 */

import type { Io, StdinText } from "../ui/io.ts";
import { UsageError } from "./exit.ts";

/** The most standard input a prompt takes: 32 MiB, what rienda reads of any file. */
export const MAX_STDIN_BYTES = 32 * 1024 * 1024;

/**
 * How long a standard input beside a given prompt may take to send its first
 * bytes (or end) before the run goes on without it.
 */
export const STDIN_WAIT_MS = 2_000;

/** The variable that changes {@link STDIN_WAIT_MS} (milliseconds, a whole number). */
export const STDIN_WAIT_VARIABLE = "RIENDA_STDIN_WAIT_MS";

/** A prompt, and the title its session takes when the prompt itself would make a poor one. */
export interface Prompt {
  readonly text: string;
  /** The words (or `-p TEXT`) alone, when standard input was appended to them. */
  readonly title?: string;
}

/** Reads the prompt; a missing or blank prompt is a usage error. `signal` stops the waiting. */
export async function readPrompt(
  io: Io,
  flag: string | undefined,
  words: readonly string[],
  signal?: AbortSignal,
): Promise<Prompt> {
  if (flag !== undefined && words.length > 0) {
    throw new UsageError(
      `the prompt was given twice: with -p and as words ("${words.join(" ")}"); use one of them`,
      "run",
    );
  }
  let prompt: string;
  if (flag === "-") prompt = await readStdin(io, signal);
  else if (flag !== undefined || words.length > 0) {
    const given = flag ?? words.join(" ");
    const piped = io.stdinIsTerminal ? "" : await readStdinBeside(io, signal);
    if (piped.trim() === "") prompt = given;
    else {
      const text = `${given}\n\n<stdin>\n${piped}\n</stdin>`;
      // The words title the session: a title from the whole prompt would run into the diff.
      return given.trim() === "" ? { text } : { text, title: given };
    }
  } else if (!io.stdinIsTerminal) prompt = await readStdin(io, signal);
  else prompt = "";
  if (prompt.trim() === "") {
    throw new UsageError(
      "no prompt: pass it as words, with -p TEXT, or on standard input",
      "run",
    );
  }
  return { text: prompt };
}

/** Standard input as the whole prompt: waited for as long as it takes. */
async function readStdin(io: Io, signal: AbortSignal | undefined): Promise<string> {
  const read = await io.readStdinWhileProducing(MAX_STDIN_BYTES, { signal });
  return checked(read ?? { text: "", complete: true });
}

/** Standard input beside a prompt: "" with a notice on stderr when it sends nothing in time. */
async function readStdinBeside(io: Io, signal: AbortSignal | undefined): Promise<string> {
  const waitMs = stdinWaitMs(io.env);
  const read = await io.readStdinWhileProducing(MAX_STDIN_BYTES, {
    firstBytesWithinMs: waitMs,
    signal,
  });
  if (read !== null) return checked(read);
  io.stderr.write(`stdin gave nothing within ${formatWait(waitMs)}; ignored (-p - waits for it)\n`);
  return "";
}

/** The text without its trailing whitespace; more than the cap is a usage error. */
function checked({ text, complete }: StdinText): string {
  if (!complete) {
    throw new UsageError(
      "standard input is larger than 32 MiB: pass a smaller input or let the agent read the file",
      "run",
    );
  }
  return text.trimEnd();
}

/** {@link STDIN_WAIT_MS}, or the whole milliseconds of {@link STDIN_WAIT_VARIABLE}. */
function stdinWaitMs(env: (name: string) => string | undefined): number {
  const value = env(STDIN_WAIT_VARIABLE);
  if (value === undefined || value === "") return STDIN_WAIT_MS;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(ms)) {
    throw new UsageError(
      `${STDIN_WAIT_VARIABLE} must be a whole number of milliseconds (found "${value}"); unset it for the default 2000`,
      "run",
    );
  }
  return ms;
}

/** `2 s`, `500 ms`. */
function formatWait(ms: number): string {
  return ms % 1000 === 0 && ms > 0 ? `${ms / 1000} s` : `${ms} ms`;
}
