/**
 * A picker in place of the editor: a title, a filter typed by the person
 * (fuzzy, as they type), the matching choices with one highlighted, and a
 * hint. ↑/↓ move, Enter picks, Esc cancels.
 *
 * @module
 */

import type { Choice } from "./backend.ts";
import { rank } from "./fuzzy.ts";
import type { Key } from "./keys.ts";
import { terminalSafe } from "../terminal_text.ts";
import type { Overlay } from "./overlay.ts";
import type { Theme } from "./style.ts";
import { textWidth, truncate } from "./width.ts";

/** Rows of choices shown at once. */
const VISIBLE = 8;

/** What a picker shows and does. */
export interface PickerOptions {
  readonly title: string;
  readonly choices: readonly Choice[];
  readonly theme: Theme;
  readonly pick: (choice: Choice) => void;
  readonly cancel: () => void;
  /** Shown when nothing matches. @default "nothing matches" */
  readonly empty?: string;
}

/** Opens a picker. */
export function createPicker(options: PickerOptions): Overlay {
  const { theme, choices } = options;
  let filter = "";
  let selected = 0;
  let closed = false;
  const matches = () => rank(choices, filter, (choice) => `${choice.label} ${choice.detail ?? ""}`);
  const close = (choice: Choice | null) => {
    if (closed) return;
    closed = true;
    if (choice === null) options.cancel();
    else options.pick(choice);
  };
  return {
    render(width) {
      const found = matches();
      selected = Math.min(selected, Math.max(0, found.length - 1));
      const first = Math.min(
        Math.max(0, selected - VISIBLE + 1),
        Math.max(0, found.length - VISIBLE),
      );
      const rule = theme.dim("─".repeat(Math.max(1, width - 1)));
      const labelWidth = Math.min(
        Math.max(
          0,
          ...found.slice(first, first + VISIBLE).map((c) => textWidth(terminalSafe(c.label))),
        ),
        Math.floor(width * 0.6),
      );
      const rows = found.slice(first, first + VISIBLE).map((choice, index) => {
        const label = terminalSafe(choice.label);
        const padded = truncate(label, labelWidth) +
          " ".repeat(Math.max(0, labelWidth - textWidth(label)));
        const detail = choice.detail === undefined
          ? ""
          : `  ${theme.dim(terminalSafe(choice.detail))}`;
        const row = truncate(`${padded}${detail}`, width - 4);
        return first + index === selected ? `${theme.cyan("›")} ${theme.inverse(row)}` : `  ${row}`;
      });
      const count = found.length > VISIBLE ? theme.dim(` (${selected + 1}/${found.length})`) : "";
      return {
        rows: [
          rule,
          `${theme.bold(options.title)}${count}`,
          `${theme.dim(">")} ${terminalSafe(filter)}`,
          ...(rows.length === 0 ? [theme.dim(`  ${options.empty ?? "nothing matches"}`)] : rows),
          theme.dim("↑/↓ move · enter pick · esc cancel · type to filter"),
          rule,
        ],
        caret: { row: 2, col: 2 + textWidth(terminalSafe(filter)) },
      };
    },
    key(key: Key) {
      if (key.type === "text" || key.type === "paste") {
        filter += key.text.replace(/\s+/g, " ");
        selected = 0;
        return;
      }
      switch (key.name) {
        case "up":
          selected = Math.max(0, selected - 1);
          return;
        case "down":
          selected = Math.min(matches().length - 1, selected + 1);
          return;
        case "pageup":
          selected = Math.max(0, selected - VISIBLE);
          return;
        case "pagedown":
          selected = Math.min(matches().length - 1, selected + VISIBLE);
          return;
        case "backspace":
          filter = filter.slice(0, -1);
          selected = 0;
          return;
        case "enter":
          return close(matches()[selected] ?? null);
        case "escape":
          return close(null);
        default:
          if (key.ctrl && key.name === "c") return close(null);
          if (key.ctrl && key.name === "u") filter = "";
      }
    },
    cancel() {
      close(null);
    },
  };
}
