/**
 * Where the prompt of `rienda run` comes from (docs/cli.md): `-p TEXT`,
 * `-p -` (standard input), the positional words, or standard input when it is
 * not a terminal.
 *
 * @module
 */

import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";

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
  if (flag === "-") prompt = (await io.readStdin()).trimEnd();
  else if (flag !== undefined) prompt = flag;
  else if (words.length > 0) prompt = words.join(" ");
  else if (!io.stdinIsTerminal) prompt = (await io.readStdin()).trimEnd();
  else prompt = "";
  if (prompt.trim() === "") {
    throw new UsageError(
      "no prompt: pass it as words, with -p TEXT, or on standard input",
      "run",
    );
  }
  return prompt;
}
