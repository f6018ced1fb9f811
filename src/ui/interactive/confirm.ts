/**
 * The approve/deny question of `ctx.confirm` (and of the built-in tools'
 * approvals) in the live region: title, body, and three choices. `y` or
 * Enter approves, `a` approves for the rest of the session, `n` or Esc
 * denies; ←/→ move between the choices and Enter answers the highlighted one.
 *
 * The first key pressed once the question is on screen answers it. Text
 * typed ahead never does: keys that come before the question is drawn, and,
 * when the person was typing into the editor as it appeared (a key in the
 * {@link CONFIRM_GUARD_MS} before), every key until typing pauses for that
 * long, are ignored. Answering one question is not typing: the next one
 * takes its first key too.
 *
 * @module
 */

import type { Question } from "./backend.ts";
import { terminalSafe } from "../terminal_text.ts";
import type { Overlay } from "./overlay.ts";
import type { Theme } from "./style.ts";
import { truncate, wrapText } from "./width.ts";

/** A pause in typing this long ends the guard against typed-ahead text. */
export const CONFIRM_GUARD_MS = 400;
/** Body rows shown; a longer body is cut with a note. */
const MAX_BODY_ROWS = 8;

/** The person's answer: yes, yes for the rest of the session, or no. */
export type ConfirmAnswer = "yes" | "session" | "no";

const CHOICES: readonly { readonly answer: ConfirmAnswer; readonly label: string }[] = [
  { answer: "yes", label: "Approve" },
  { answer: "session", label: "Yes, for this session" },
  { answer: "no", label: "Deny" },
];

/** What a question starts from. */
export interface ConfirmOptions {
  readonly theme: Theme;
  /** When the person last typed into the editor before the question came (null: never). */
  readonly lastKeyAt: number | null;
  readonly now: number;
  /** Called once, with the answer. */
  readonly answer: (answer: ConfirmAnswer) => void;
}

/** An open question; `answer` is called once. */
export function createConfirm(question: Question, options: ConfirmOptions): Overlay {
  const { theme, answer } = options;
  let selected = 0;
  let answered = false;
  let drawn = false;
  /** The last key while typing ahead; null once the guard is over. */
  let typingAt = options.lastKeyAt !== null && options.now - options.lastKeyAt < CONFIRM_GUARD_MS
    ? options.lastKeyAt
    : null;
  const finish = (chosen: ConfirmAnswer) => {
    if (answered) return;
    answered = true;
    answer(chosen);
  };
  /** Whether a key at `now` is typed-ahead text rather than an answer. */
  const typedAhead = (now: number) => {
    if (!drawn) return true;
    if (typingAt === null) return false;
    if (now - typingAt >= CONFIRM_GUARD_MS) {
      typingAt = null;
      return false;
    }
    typingAt = now;
    return true;
  };
  return {
    render(width) {
      drawn = true;
      const rule = theme.dim("─".repeat(Math.max(1, width - 1)));
      const body = wrapText(terminalSafe(question.body), width - 4);
      const shown = body.slice(0, MAX_BODY_ROWS);
      const more = body.length - shown.length;
      const choices = CHOICES.map(({ label }, index) =>
        index === selected ? theme.inverse(theme.bold(` ${label} `)) : ` ${label} `
      );
      return {
        rows: [
          rule,
          truncate(
            `${theme.yellow("?")} ${theme.bold(terminalSafe(question.title || "Confirm"))}`,
            width - 1,
          ),
          ...shown.map((row) => `  ${row}`),
          ...(more > 0 ? [theme.dim(`  … ${more} more lines`)] : []),
          "",
          truncate(`  ${choices.join("  ")}`, width - 1),
          truncate(
            theme.dim("  y/enter approve · a for this session · n/esc deny · ←/→ choose"),
            width - 1,
          ),
          rule,
        ],
        caret: null,
      };
    },
    key(key, now) {
      if (typedAhead(now)) return;
      if (key.type === "text") {
        const text = key.text.toLowerCase();
        if (text === "y") finish("yes");
        else if (text === "a") finish("session");
        else if (text === "n") finish("no");
        return;
      }
      if (key.type !== "key") return;
      switch (key.name) {
        case "enter":
          return finish(CHOICES[selected]!.answer);
        case "escape":
          return finish("no");
        case "left":
          selected = (selected + CHOICES.length - 1) % CHOICES.length;
          return;
        case "right":
        case "tab":
          selected = (selected + 1) % CHOICES.length;
          return;
        default:
          return;
      }
    },
    cancel() {
      finish("no");
    },
  };
}
