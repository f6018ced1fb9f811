/**
 * What the front ends show of a finished tool call, shared by `rienda run`'s
 * stderr and the chat: one short result line (`exit 0 · 3 lines`, `edited
 * src/a.ts (1 replacement)`) and, for `edit` and `write`, the unified diff
 * their result carries.
 *
 * @module
 */

/** The longest result line shown before it is cut. */
const MAX_SUMMARY = 100;

/** The lines of `text` (a final newline ends the last one; empty text has none). */
export function lineCountOf(text: string): number {
  if (text === "") return 0;
  let count = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return text.endsWith("\n") ? count - 1 : count;
}

function lines(count: number): string {
  return count === 0 ? "no output" : `${count} ${count === 1 ? "line" : "lines"}`;
}

function cut(line: string): string {
  return line.length <= MAX_SUMMARY ? line : `${line.slice(0, MAX_SUMMARY - 1)}…`;
}

/** The change an `edit` or `write` result describes: its first line and its diff lines. */
export interface Change {
  readonly summary: string;
  readonly diff: readonly string[];
}

/** The change in the result of a built-in `edit` or `write`; null for other tools. */
export function changeOf(name: string, text: string): Change | null {
  if (name !== "edit" && name !== "write") return null;
  const [summary = "", ...diff] = text.split("\n");
  const first = diff[0];
  if (first !== undefined && !first.startsWith("@@ ") && !first.startsWith("[")) return null;
  return { summary, diff };
}

/**
 * The one line a successful result is shown as: `exit 0 · 3 lines` for
 * `shell` (counting its live `output` when there was some), the first line
 * of `edit` and `write`, `agent reviewer answered (session …) · 4 lines` for
 * `agent`, else the result itself when it is one line, or its number of lines.
 */
export function resultSummary(name: string, text: string, output: string): string {
  const change = changeOf(name, text);
  if (change !== null) return cut(change.summary);
  if (name === "shell") {
    const shown = output !== ""
      ? lineCountOf(output)
      : text === "(no output)"
      ? 0
      : lineCountOf(text);
    return `exit 0 · ${lines(shown)}`;
  }
  const count = lineCountOf(text);
  if (count <= 1) return cut(text.trim());
  // The last line of a subagent's answer names it: `[agent reviewer answered (session …)]`.
  const signed = /\n\[(agent \S+ answered[^\]\n]*)\]$/.exec(text);
  if (name === "agent" && signed !== null) return `${cut(signed[1] ?? "")} · ${lines(count - 2)}`;
  if (name === "http") return `${cut(text.slice(0, text.indexOf("\n")))} · ${lines(count)}`;
  return lines(count);
}

/** What a diff line is, for its colour: `+` added, `-` removed, `@@` a hunk, else context. */
export type DiffLine = "added" | "removed" | "hunk" | "context";

/** The kind of one line of a unified diff. */
export function diffLineKind(line: string): DiffLine {
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "removed";
  if (line.startsWith("@@")) return "hunk";
  return "context";
}

/** The colours a diff is painted with (a `Style` of `rienda run`, a `Theme` of the chat). */
export interface DiffColors {
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly dim: (text: string) => string;
}

/** One diff line (already safe to print) in its colour: added green, removed red, hunks cyan, context dim. */
export function paintDiffLine(line: string, colors: DiffColors): string {
  const kind = diffLineKind(line);
  switch (kind) {
    case "added":
      return colors.green(line);
    case "removed":
      return colors.red(line);
    case "hunk":
      return colors.cyan(line);
    case "context":
      return colors.dim(line);
    default:
      return kind satisfies never;
  }
}
