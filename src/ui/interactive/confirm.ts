/**
 * The approve/deny question of `ctx.confirm` in the live region: title,
 * body, and two choices. `y` or Enter approves, `n` or Esc denies, ←/→
 * move between the choices and Enter answers the highlighted one.
 *
 * Keys typed in the first {@link CONFIRM_GUARD_MS} after the question shows
 * are ignored, so text typed ahead (`…y…`) never answers it by accident.
 *
 * @module
 */

import type { Question } from "./backend.ts";
import { terminalSafe } from "../terminal_text.ts";
import type { Overlay } from "./overlay.ts";
import type { Theme } from "./style.ts";
import { truncate, wrapText } from "./width.ts";

/** Keys are ignored this long after a question appears. */
export const CONFIRM_GUARD_MS = 400;
/** Body rows shown; a longer body is cut with a note. */
const MAX_BODY_ROWS = 8;

/** An open question; `answer` is called once. */
export function createConfirm(
  question: Question,
  options: { theme: Theme; now: number; answer: (approved: boolean) => void },
): Overlay {
  const { theme, answer } = options;
  const shownAt = options.now;
  let approve = true;
  let answered = false;
  const finish = (approved: boolean) => {
    if (answered) return;
    answered = true;
    answer(approved);
  };
  return {
    render(width) {
      const rule = theme.dim("─".repeat(Math.max(1, width - 1)));
      const body = wrapText(terminalSafe(question.body), width - 4);
      const shown = body.slice(0, MAX_BODY_ROWS);
      const more = body.length - shown.length;
      const choice = (label: string, selected: boolean) =>
        selected ? theme.inverse(theme.bold(` ${label} `)) : ` ${label} `;
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
          `  ${choice("Approve", approve)}  ${choice("Deny", !approve)}   ${
            theme.dim("y/enter approve · n/esc deny · ←/→ choose")
          }`,
          rule,
        ],
        caret: null,
      };
    },
    key(key, now) {
      if (now - shownAt < CONFIRM_GUARD_MS) return;
      if (key.type === "text") {
        const text = key.text.toLowerCase();
        if (text === "y") finish(true);
        else if (text === "n") finish(false);
        return;
      }
      if (key.type !== "key") return;
      switch (key.name) {
        case "enter":
          return finish(approve);
        case "escape":
          return finish(false);
        case "left":
        case "right":
        case "tab":
          approve = !approve;
          return;
        default:
          return;
      }
    },
    cancel() {
      finish(false);
    },
  };
}
