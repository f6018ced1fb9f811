/**
 * Completion in the editor: `/` at the start completes commands, `@`
 * completes workspace files and folders (fuzzy, the list re-read each time
 * an `@` starts a word, honouring `.gitignore` and `.ignore`). The popup
 * shows above the editor; ↑/↓ choose, Tab or Enter accept, Esc closes.
 *
 * @module
 */

import { rank } from "./fuzzy.ts";
import { terminalSafe } from "../terminal_text.ts";
import type { Theme } from "./style.ts";
import { textWidth, truncate } from "./width.ts";

/** Rows the popup shows. */
const VISIBLE = 6;

/** What is being completed at the cursor. */
export interface CompletionQuery {
  readonly kind: "command" | "file";
  /** The text typed after `/` or `@`. */
  readonly query: string;
  /** Offsets of the word being completed, `/` or `@` included. */
  readonly start: number;
  readonly end: number;
}

/** The word at the cursor to complete, or null. */
export function completionAt(text: string, cursor: number): CompletionQuery | null {
  const before = text.slice(0, cursor);
  const command = /^\/(\S*)$/.exec(before);
  if (command !== null) return { kind: "command", query: command[1]!, start: 0, end: cursor };
  const file = /(^|\s)@(\S*)$/.exec(before);
  if (file !== null) {
    const start = cursor - file[2]!.length - 1;
    return { kind: "file", query: file[2]!, start, end: cursor };
  }
  return null;
}

/** One completion candidate. */
export interface Candidate {
  /** The text put in place of the word. */
  readonly insert: string;
  readonly label: string;
  readonly detail?: string;
}

/** The open popup: its candidates and the highlighted one. */
export interface CompletionPopup {
  readonly query: CompletionQuery;
  readonly candidates: readonly Candidate[];
  selected: number;
  /** Whether the files are all there, being listed, or a listing cut short (big trees). */
  readonly files: "complete" | "listing" | "partial";
}

/** The candidates for a query, best first. */
export function candidatesFor(
  query: CompletionQuery,
  sources: {
    readonly commands: readonly { name: string; description: string }[];
    readonly files: readonly string[];
  },
): Candidate[] {
  if (query.kind === "command") {
    return rank(sources.commands, query.query, (command) => command.name, 50).map((command) => ({
      insert: `/${command.name}`,
      label: `/${command.name}`,
      detail: command.description,
    }));
  }
  return rank(sources.files, query.query, (path) => path, 50).map((path) => ({
    insert: `@${path}`,
    label: path,
  }));
}

/** The popup's rows (above the editor). */
export function popupRows(popup: CompletionPopup, width: number, theme: Theme): string[] {
  const { candidates, selected } = popup;
  if (candidates.length === 0) {
    const query = terminalSafe(popup.query.query);
    switch (popup.files) {
      case "listing":
        return [theme.dim("  listing the workspace…")];
      case "partial":
        return [
          theme.dim(
            truncate(
              `  no match for ${query} in the files listed (too many to list them all): ` +
                "type its folder, e.g. src/, to look inside",
              width - 1,
            ),
          ),
        ];
      case "complete":
        return [theme.dim(`  no match for ${query}`)];
      default:
        return popup.files satisfies never;
    }
  }
  const first = Math.min(
    Math.max(0, selected - VISIBLE + 1),
    Math.max(0, candidates.length - VISIBLE),
  );
  const shown = candidates.slice(first, first + VISIBLE).map((candidate) => ({
    label: terminalSafe(candidate.label),
    detail: candidate.detail === undefined ? undefined : terminalSafe(candidate.detail),
  }));
  let labelWidth = 0;
  for (const candidate of shown) labelWidth = Math.max(labelWidth, textWidth(candidate.label));
  return shown.map((candidate, index) => {
    const label = candidate.label + " ".repeat(labelWidth - textWidth(candidate.label));
    const detail = candidate.detail === undefined ? "" : `  ${theme.dim(candidate.detail)}`;
    const row = truncate(`${label}${detail}`, width - 4);
    return first + index === selected ? `${theme.cyan("›")} ${theme.inverse(row)}` : `  ${row}`;
  });
}
