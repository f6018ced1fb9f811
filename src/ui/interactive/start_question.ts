/**
 * A yes/no question asked before the chat draws anything (whether to trust
 * the project's agent files, docs/security.md): plain lines on the
 * terminal, answered with one key — `y` yes, `n` or Enter no, Esc later,
 * Ctrl+C quits. Keys typed in the first {@link CONFIRM_GUARD_MS} after the
 * question shows are dropped, so text typed ahead never answers it.
 *
 * The terminal is taken through `term.ts` and handed back with no read
 * pending, so the chat's first key is the chat's.
 *
 * @module
 */

import type { Question } from "./backend.ts";
import { CONFIRM_GUARD_MS } from "./confirm.ts";
import { createKeyParser, type Key } from "./keys.ts";
import type { Term } from "./term.ts";
import type { Theme } from "./style.ts";
import { terminalSafe } from "../terminal_text.ts";

/** How long a lone Esc waits for the rest of a sequence (as the chat's editor waits). */
const ESC_WAIT_MS = 30;

/** The answer: yes, no, later (Esc, the terminal hung up), or quit the chat (Ctrl+C). */
export type StartAnswer = "yes" | "no" | "later" | "quit";

/** Asks `question` on `term`; resolves once a key answers it. */
export function askAtStart(
  term: Term,
  question: Question,
  options: { readonly theme: Theme; readonly signal: AbortSignal; readonly clock?: () => number },
): Promise<StartAnswer> {
  const { theme, clock = () => Date.now() } = options;
  const parser = createKeyParser();
  const { promise, resolve } = Promise.withResolvers<StartAnswer>();
  let shownAt = Infinity;
  let done = false;
  let escTimer: ReturnType<typeof setTimeout> | undefined;
  const finish = (answer: StartAnswer) => {
    if (done) return;
    done = true;
    clearTimeout(escTimer);
    // Suspended inside the input handler: the read loop stops before reading again.
    term.suspend();
    term.restore();
    resolve(answer);
  };
  const body = terminalSafe(question.body).split("\n").map((line) => `  ${line}`).join("\r\n");
  const onKeys = (keys: readonly Key[]) => {
    for (const key of keys) {
      const answer = answerOf(key);
      if (answer !== null && (answer === "quit" || clock() - shownAt >= CONFIRM_GUARD_MS)) {
        return finish(answer);
      }
    }
  };
  term.start({
    onInput(text) {
      clearTimeout(escTimer);
      onKeys(parser.feed(text));
      // A lone Esc may start a sequence: it counts once no more input follows.
      if (!done && parser.pending) escTimer = setTimeout(() => onKeys(parser.flush()), ESC_WAIT_MS);
    },
    onResize() {},
    onHangup: () => finish("later"),
  });
  // Raw mode: lines end in CR LF.
  term.write(
    `${theme.yellow("?")} ${theme.bold(terminalSafe(question.title))}\r\n${body}\r\n  ` +
      theme.dim("y trust · n/enter do not trust · esc decide later · ctrl+c quit") + "\r\n",
  );
  shownAt = clock();
  options.signal.addEventListener("abort", () => finish("quit"), { once: true });
  return promise;
}

function answerOf(key: Key): StartAnswer | null {
  if (key.type === "text") {
    const text = key.text.toLowerCase();
    return text === "y" ? "yes" : text === "n" ? "no" : null;
  }
  if (key.type !== "key") return null;
  if (key.ctrl && (key.name === "c" || key.name === "d")) return "quit";
  if (key.name === "enter" && !key.ctrl && !key.alt) return "no";
  if (key.name === "escape") return "later";
  return null;
}
