/**
 * The conversation as the chat shows it: its state (`transcript_state.ts`,
 * moved by the run's events) and its rows (`transcript_render.ts`), and
 * which rows are final (written once to the scrollback, in order) and which
 * are still live.
 *
 * - A block is committed when it is done and every block before it is; the
 *   answer being streamed commits its finished Markdown blocks as it goes.
 * - The last thinking or tool block committed collapsed is kept, so
 *   {@link Transcript.expandLast} can print it again whole (Ctrl+O).
 *
 * @module
 */

import type { RunEvent } from "../../engine/events.ts";
import type { Message } from "../../llm/messages.ts";
import type { NoticeTone } from "./blocks.ts";
import type { Theme } from "./style.ts";
import { blockRows, finishedAnswerRows, type RenderOptions } from "./transcript_render.ts";
import {
  activityOf,
  addNotice,
  applyEvent,
  type Block,
  emptyState,
  endTurnBlocks,
  replayBlocks,
  type TurnEnd,
} from "./transcript_state.ts";

export type { TurnEnd } from "./transcript_state.ts";

/** What one frame shows: rows to commit now and the live rows. */
export interface TranscriptFrame {
  readonly commit: string[];
  readonly live: string[];
}

/** The conversation's blocks. */
export interface Transcript {
  /** The person's prompt. */
  addUser(text: string): void;
  /** A one-line row (notice, error, footnote). */
  addNotice(text: string, tone: NoticeTone): void;
  /** Applies one event of the running turn. */
  apply(event: RunEvent): void;
  /** Ends the turn: everything is done; notes an interrupt or an error, then the footnote. */
  endTurn(end: TurnEnd): void;
  /** Shows stored messages (a resumed session) as finished blocks. */
  replay(messages: readonly Message[]): void;
  /** The rows to commit now and the live rows, at `width`. */
  frame(width: number, now: number): TranscriptFrame;
  /** What the turn is doing, for the status line; null when idle. */
  activity(): string | null;
  /** The text of the last answer, for `/copy`. */
  lastAnswer(): string;
  /**
   * Prints the last block committed collapsed (thinking, tool output) again,
   * whole, with the next frame's commit (nothing when there is none).
   */
  expandLast(width: number, now: number): void;
}

/** Creates an empty transcript. */
export function createTranscript(
  options: { theme: Theme; expanded: () => boolean; clock?: () => number },
): Transcript {
  const { theme, clock = Date.now } = options;
  const state = emptyState();
  /** The last done thinking or tool block committed with rows hidden. */
  let collapsed: Block | null = null;
  let reprint: string[] = [];
  const rendering = (width: number, now: number, expanded = options.expanded()): RenderOptions => ({
    width,
    now,
    theme,
    expanded,
  });

  return {
    addUser(text) {
      state.blocks.push({ kind: "user", text, done: true });
    },
    addNotice: (text, tone) => addNotice(state, text, tone),
    apply: (event) => applyEvent(state, event, clock()),
    endTurn: (end) => endTurnBlocks(state, end, clock()),
    replay(messages) {
      for (const block of replayBlocks(messages)) state.blocks.push(block);
    },
    frame(width, now) {
      const commit = reprint;
      reprint = [];
      const { blocks } = state;
      while (blocks.length > 0) {
        const first = blocks[0]!;
        if (first.done) {
          const rows = blockRows(first, rendering(width, now));
          if (
            (first.kind === "thinking" || first.kind === "tool") &&
            blockRows(first, rendering(width, now, true)).length > rows.length
          ) collapsed = first;
          for (const row of rows) commit.push(row);
          blocks.shift();
          continue;
        }
        if (first.kind === "assistant") {
          const finished = finishedAnswerRows(first, rendering(width, now));
          for (const row of finished.rows) commit.push(row);
          first.committed += finished.chars;
        }
        break;
      }
      const live = blocks.flatMap((block) => blockRows(block, rendering(width, now)));
      return { commit, live };
    },
    activity: () => activityOf(state),
    lastAnswer: () => state.answer,
    expandLast(width, now) {
      if (collapsed === null) return;
      for (const row of blockRows(collapsed, rendering(width, now, true))) reprint.push(row);
      collapsed = null;
    },
  };
}
