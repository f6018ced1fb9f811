/**
 * Where the prompt of `rienda run` comes from (docs/cli.md): `-p TEXT`,
 * `-p -` (standard input), the positional words, or standard input when it is
 * not a terminal. Words or `-p TEXT` with a piped, non-empty standard input get
 * it appended in a `<stdin>` block.
 *
 * @module
 */

import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";

/** The most standard input a prompt takes: 32 MiB, what rienda reads of any file. */
export const MAX_STDIN_BYTES = 32 * 1024 * 1024;

/** Reads the prompt; a missing or blank prompt is a usage error. */
export async function readPrompt(
  io: Io,
  flag: string | undefined,
  words: readonly string[],
): Promise<string> {
  if (flag !== undefined && words.length > 0) {
    throw new UsageError(
      `the prompt was given twice: with -p and as words ("${words.join(" ")}"); use one of them`,
      "run",
    );
  }
  let prompt: string;
  if (flag === "-") prompt = await readStdin(io);
  else if (flag !== undefined || words.length > 0) {
    prompt = flag ?? words.join(" ");
    const piped = io.stdinIsTerminal ? "" : await readStdin(io);
    if (piped.trim() !== "") prompt = `${prompt}\n\n<stdin>\n${piped}\n</stdin>`;
  } else if (!io.stdinIsTerminal) prompt = await readStdin(io);
  else prompt = "";
  if (prompt.trim() === "") {
    throw new UsageError(
      "no prompt: pass it as words, with -p TEXT, or on standard input",
      "run",
    );
  }
  return prompt;
}

/** Standard input without its trailing whitespace; more than the cap is a usage error. */
async function readStdin(io: Io): Promise<string> {
  const { text, complete } = await io.readStdin(MAX_STDIN_BYTES);
  if (!complete) {
    throw new UsageError(
      "standard input is larger than 32 MiB: pass a smaller input or let the agent read the file",
      "run",
    );
  }
  return text.trimEnd();
}
