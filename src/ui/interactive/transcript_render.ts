/**
 * The rows of the transcript's blocks (`transcript_state.ts`) at a width. A
 * block that cannot be rendered (a bug, input no view expected) is one
 * error row, so a frame never throws and the chat goes on.
 *
 * @module
 */

import { noticeRows, thinkingRows, toolRows, userRows } from "./blocks.ts";
import { renderMarkdown, splitFinished } from "./markdown.ts";
import type { Theme } from "./style.ts";
import type { Block } from "./transcript_state.ts";

/** How blocks are rendered. */
export interface RenderOptions {
  readonly width: number;
  /** The time, for a running tool's elapsed seconds. */
  readonly now: number;
  readonly theme: Theme;
  /** Thinking and tool output shown whole rather than collapsed. */
  readonly expanded: boolean;
}

/** The rows of `block`; the not yet committed part, for an answer being streamed. */
export function blockRows(block: Block, options: RenderOptions): string[] {
  return guarded(() => unguardedRows(block, options), options);
}

/**
 * The rows to commit of an answer being streamed (its finished Markdown
 * blocks past what was committed) and how many characters they hold; none
 * while the next Markdown block is unfinished.
 */
export function finishedAnswerRows(
  block: Extract<Block, { kind: "assistant" }>,
  options: RenderOptions,
): { rows: string[]; chars: number } {
  let finished = "";
  try {
    finished = splitFinished(block.text.slice(block.committed)).finished;
  } catch {
    // nothing commits; the live render shows the error row
  }
  if (finished.trim() === "") return { rows: [], chars: 0 };
  const rows = guarded(() => renderMarkdown(finished, options.width - 1, options.theme), options);
  return { rows: ["", ...rows], chars: finished.length };
}

function guarded(rows: () => string[], options: RenderOptions): string[] {
  try {
    return rows();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return noticeRows(
      `this part of the conversation cannot be shown: ${why}`,
      "error",
      options.width,
      options.theme,
    );
  }
}

function unguardedRows(block: Block, options: RenderOptions): string[] {
  const { width, theme, expanded, now } = options;
  switch (block.kind) {
    case "user":
      return userRows(block.text, width, theme);
    case "assistant": {
      const rest = block.text.slice(block.committed);
      if (rest.trim() === "") return [];
      return ["", ...renderMarkdown(rest, width - 1, theme)];
    }
    case "thinking":
      return block.text.trim() === ""
        ? []
        : thinkingRows(block.text, { width, theme, expanded, done: block.done });
    case "tool":
      return toolRows(block.view, { width, theme, expanded, now });
    case "notice":
      return noticeRows(block.text, block.tone, width, theme);
    default: {
      const unknown: never = block;
      throw new Error(`unknown block ${JSON.stringify(unknown)}`);
    }
  }
}
