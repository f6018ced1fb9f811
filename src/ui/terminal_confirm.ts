/**
 * `ctx.confirm` in `rienda run` when a person is at the terminal (stdin and
 * stderr are terminals): the question is printed on stderr and answered
 * with a line on stdin (`y` or `yes` approves; anything else, or an
 * interrupt, denies). What was typed before the question was shown is
 * dropped first. Questions are asked one at a time.
 *
 * @module
 */

import type { TextSink } from "./io.ts";
import { discardTypedAhead, readLine } from "./line_input.ts";
import type { Style } from "./terminal.ts";
import { terminalSafe } from "./terminal_text.ts";

/** A yes/no question. */
export interface ConfirmQuestion {
  readonly title: string;
  readonly body: string;
}

/**
 * A confirm callback asking on `stderr`; `pause` is called before each
 * question (it stops the spinner and ends the current line).
 */
export function createTerminalConfirm(
  stderr: TextSink,
  style: Style,
  pause: () => void,
): (question: ConfirmQuestion, signal: AbortSignal) => Promise<boolean> {
  let queue: Promise<unknown> = Promise.resolve();
  return (question, signal) => {
    const asked = queue.then(() => ask(question, signal));
    queue = asked.catch(() => {});
    return asked;
  };

  async function ask(question: ConfirmQuestion, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    pause();
    // A line typed while the model was thinking was not meant for this question.
    await discardTypedAhead();
    if (signal.aborted) return false;
    const body = question.body === ""
      ? ""
      : `${terminalSafe(question.body).split("\n").map((line) => `  ${line}`).join("\n")}\n`;
    stderr.write(
      `${style.yellow("?")} ${
        style.bold(terminalSafe(question.title || "Confirm"))
      }\n${body}  approve? [y/N] `,
    );
    const answer = await readLine(signal);
    if (answer === null) stderr.write("\n");
    return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
  }
}
