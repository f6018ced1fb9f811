/**
 * The status line under the editor: agent, model, reasoning level and
 * context use (`ctx 12% · 24.6k/200k`, yellow above 70 %, red above 90 %),
 * after a hint or a message on the left. The activity row above the editor
 * shows what a running turn does, for how long, and `esc to interrupt`.
 *
 * @module
 */

import { spinnerFrame } from "./blocks.ts";
import { terminalSafe } from "../terminal_text.ts";
import type { Theme } from "./style.ts";
import { formatTokens } from "./transcript_state.ts";
import { textWidth, truncate } from "./width.ts";

/** What the status line shows. */
export interface StatusInfo {
  readonly agent: string;
  readonly model: string;
  readonly thinking: string | null;
  readonly contextTokens: number | null;
  readonly contextWindow: number | null;
  /** Left-hand text: a hint, or a message such as "ctrl+c again to quit". */
  readonly message: string;
}

/** The context-use part, coloured by how full the context is. */
export function contextUse(tokens: number | null, window: number | null, theme: Theme): string {
  if (tokens === null || window === null || window <= 0) return "";
  const share = tokens / window;
  const text = `ctx ${Math.round(share * 100)}% · ${formatTokens(tokens)}/${formatTokens(window)}`;
  return share > 0.9 ? theme.red(text) : share > 0.7 ? theme.yellow(text) : theme.dim(text);
}

/** The status row, at most `width - 1` columns. */
export function statusRow(info: StatusInfo, width: number, theme: Theme): string {
  const parts = [
    theme.bold(terminalSafe(info.agent)),
    ...[info.model, `thinking ${info.thinking ?? "off"}`].filter((part) => part !== "")
      .map((part) => theme.dim(terminalSafe(part))),
  ];
  const context = contextUse(info.contextTokens, info.contextWindow, theme);
  const right = [...parts, ...(context === "" ? [] : [context])].join(theme.dim(" · "));
  const room = width - 1;
  const left = theme.dim(terminalSafe(info.message));
  const gap = room - textWidth(left) - textWidth(right);
  if (gap >= 2) return `${left}${" ".repeat(gap)}${right}`;
  // Too narrow for both: the message first, then as much of the rest as fits.
  const rest = room - textWidth(left) - 2;
  return rest >= 10 ? `${left}  ${truncate(right, rest)}` : truncate(left, room);
}

/** The activity row of a running turn. */
export function activityRow(
  activity: string,
  elapsedMs: number,
  now: number,
  width: number,
  theme: Theme,
): string {
  const seconds = Math.floor(elapsedMs / 1000);
  const row = `${theme.cyan(spinnerFrame(now))} ${activity} ${
    theme.dim(`· ${seconds}s · esc to interrupt`)
  }`;
  return truncate(row, width - 1);
}
