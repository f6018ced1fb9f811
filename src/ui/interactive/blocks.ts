/**
 * How each block of the conversation looks: the person's prompt, thinking,
 * a tool call (one line with its arguments, the tail of its output while it
 * runs, a one-line summary when done, red when it failed; `edit` and `write`
 * show their diff, red and green), notices and the footnote of a turn. Every
 * block starts with a blank row. A command's own colours show in its output
 * (dropped with `NO_COLOR`); its other escape sequences are written out.
 *
 * @module
 */

import { incompleteTail } from "../../base/escape_sequences.ts";
import { commandLines, hasStyle, RESET_STYLE, terminalSafe } from "../terminal_text.ts";
import { type Change, changeOf, diffLineKind, paintDiffLine } from "../tool_lines.ts";
import type { Theme } from "./style.ts";
import { textWidth, truncate, wrapText } from "./width.ts";

/** Output rows a running tool shows (its tail). */
export const TOOL_TAIL_ROWS = 5;
/** Thinking rows shown while it streams and once it is done (collapsed). */
export const THINKING_TAIL_ROWS = 3;

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The spinner frame for a time in milliseconds. */
export function spinnerFrame(now: number): string {
  return SPINNER[Math.floor(now / 80) % SPINNER.length]!;
}

/** The prompt as the person sent it. */
export function userRows(text: string, width: number, theme: Theme): string[] {
  const rows = wrapText(terminalSafe(text), width - 2);
  return [
    "",
    ...rows.map((row, index) => `${index === 0 ? theme.cyan("›") : " "} ${theme.bold(row)}`),
  ];
}

/** Thinking, dimmed: its last rows, or all of them when `expanded`. */
export function thinkingRows(
  text: string,
  options: { width: number; theme: Theme; expanded: boolean; done: boolean },
): string[] {
  const { width, theme, expanded, done } = options;
  const all = wrapText(terminalSafe(text.trim()), width - 2);
  const shown = expanded ? all : all.slice(-THINKING_TAIL_ROWS);
  const hidden = all.length - shown.length;
  const label = done
    ? `thinking · ${all.length} ${all.length === 1 ? "line" : "lines"}${
      hidden > 0 ? " (ctrl+o shows all)" : ""
    }`
    : "thinking…";
  return ["", theme.dim(theme.italic(label)), ...shown.map((row) => `${theme.dim(`┊ ${row}`)}`)];
}

/** A tool call as the conversation shows it. */
export interface ToolView {
  readonly name: string;
  readonly args: unknown;
  /** The live output, or its tail once it grew past what the view keeps. */
  readonly output: string;
  /** Lines of live output before the kept tail (no longer kept). @default 0 */
  readonly earlierLines?: number;
  readonly result: { readonly text: string; readonly isError: boolean } | null;
  /** An `agent` call's child, once it started (`subagent_activity.ts`). */
  readonly subagent?: SubagentView;
}

/** A subagent's state, as its `agent` block shows it. */
export interface SubagentView {
  readonly agent: string;
  readonly startedAt: number;
  /** The tool the child (or one of its children) runs now, one line; null between tools. */
  readonly current: string | null;
}

/** The one-line form of tool arguments: the main string argument, else compact JSON. */
export function argumentsLine(args: unknown): string {
  if (typeof args === "object" && args !== null && !Array.isArray(args)) {
    const record = args as Record<string, unknown>;
    // An `agent` call: whom, and what for.
    const task = record["description"] ?? record["prompt"];
    const agent = record["agent"] ?? record["subagent_type"];
    if (typeof agent === "string" && typeof task === "string") {
      return `${agent} · ${task}`.replace(/\s+/g, " ");
    }
    for (const key of ["command", "path", "url", "pattern", "query", "file"]) {
      const value = record[key];
      if (typeof value === "string") return value.replace(/\s+/g, " ");
    }
    const entries = Object.entries(record);
    if (entries.length === 0) return "";
  }
  let json: string;
  try {
    json = JSON.stringify(args) ?? "";
  } catch {
    json = String(args);
  }
  return json.length > 400 ? json.slice(0, 400) : json;
}

/** A tool block: header, then the tail of the output while running or when expanded. */
export function toolRows(
  tool: ToolView,
  options: { width: number; theme: Theme; expanded: boolean; now: number },
): string[] {
  const { width, theme, expanded, now } = options;
  const args = terminalSafe(argumentsLine(tool.args));
  const failed = tool.result?.isError === true;
  const mark = tool.result === null
    ? theme.cyan(spinnerFrame(now))
    : failed
    ? theme.red("✗")
    : theme.green("✓");
  const output = tool.result === null
    ? tool.output.slice(0, incompleteTail(tool.output))
    : tool.output;
  const body = output !== "" ? output : tool.result?.text ?? "";
  const lines = commandLines(body.replace(/\n$/, ""), theme.color ? "colour" : "plain")
    .filter((line, index, all) => line !== "" || index < all.length - 1);
  const earlier = tool.output === "" ? 0 : tool.earlierLines ?? 0;
  const count = body === "" ? 0 : earlier + lines.length;
  const change = tool.result === null || failed ? null : changeOf(tool.name, tool.result.text);
  const summary = change !== null
    ? theme.dim(` · ${changeSummary(change)}`)
    : tool.subagent !== undefined
    ? theme.dim(` · ${subagentSummary(tool.subagent, tool.result === null, now)}`)
    : tool.result === null || expanded || count === 0
    ? ""
    : theme.dim(` · ${count} ${count === 1 ? "line" : "lines"}`);
  const shownName = terminalSafe(tool.name);
  const name = failed ? theme.red(theme.bold(shownName)) : theme.bold(shownName);
  const header = `${mark} ${name}  ${theme.dim(args)}`;
  const rows = ["", `${truncate(header, width - 1 - textWidth(summary))}${summary}`];
  const bar = (row: string) =>
    `  ${theme.dim("│")} ${
      failed ? theme.red(row) : hasStyle(row) ? `${row}${RESET_STYLE}` : theme.dim(row)
    }`;
  if (change !== null) {
    for (const line of change.diff) {
      for (const row of wrapText(paintDiffLine(terminalSafe(line), theme), width - 5)) {
        rows.push(bar(row));
      }
    }
  } else if (expanded) {
    if (earlier > 0) rows.push(bar(`… ${earlier} earlier ${earlier === 1 ? "line" : "lines"}`));
    for (const line of lines) for (const row of wrapText(line, width - 5)) rows.push(bar(row));
  } else if (tool.result === null) {
    const tail = lines.slice(-TOOL_TAIL_ROWS);
    const more = count - tail.length;
    if (more > 0) rows.push(bar(`… ${more} more ${more === 1 ? "line" : "lines"}`));
    for (const line of tail) rows.push(bar(truncate(line, width - 5)));
  } else if (failed) {
    const last = [...lines].reverse().find((line) => line.trim() !== "") ?? "failed";
    rows.push(bar(truncate(last, width - 5)));
  }
  return rows;
}

/** The header's summary of a child (its agent is in the arguments): elapsed time and, while it runs, its current tool. */
function subagentSummary(child: SubagentView, running: boolean, now: number): string {
  const seconds = Math.max(0, Math.floor((now - child.startedAt) / 1000));
  const parts = [`${seconds}s`];
  if (running && child.current !== null) parts.push(terminalSafe(child.current));
  return parts.join(" · ");
}

/** The header's summary of a change: `+3 −1` for a diff, else `created (12 lines)`. */
function changeSummary(change: Change): string {
  if (change.diff.length === 0) return change.summary.replace(/^(\S+) .* (\([^()]*\))$/, "$1 $2");
  let added = 0;
  let removed = 0;
  for (const line of change.diff) {
    const kind = diffLineKind(line);
    if (kind === "added") added++;
    if (kind === "removed") removed++;
  }
  return `+${added} −${removed}`;
}

/** The tone of a one-line row. */
export type NoticeTone = "info" | "warning" | "error" | "faint";

/** A notice, retry, compaction or error row. */
export function noticeRows(text: string, tone: NoticeTone, width: number, theme: Theme): string[] {
  const paint = tone === "error"
    ? theme.red
    : tone === "warning"
    ? theme.yellow
    : tone === "faint"
    ? theme.dim
    : (row: string) => row;
  const mark = tone === "error" ? "✗ " : tone === "warning" ? "! " : tone === "faint" ? "" : "• ";
  return ["", ...wrapText(`${mark}${terminalSafe(text)}`, width - 1, "  ").map(paint)];
}
