/**
 * The conversation as blocks, fed by the run's events: which rows are final
 * (written once to the scrollback, in order) and which are still live.
 *
 * - A block is committed when it is done and every block before it is; the
 *   answer being streamed commits its finished Markdown blocks as it goes.
 * - A retried response drops what was not committed yet; a row says so.
 * - An interrupted turn keeps what was shown, and says it was interrupted.
 * - A turn ends with a footnote of its time and tokens, unless it sent no
 *   request (no answer, retry or compaction came back and nothing was used).
 * - The last thinking or tool block committed collapsed is kept, so
 *   {@link Transcript.expandLast} can print it again whole (Ctrl+O).
 *
 * @module
 */

import type { RunEvent } from "../../engine/events.ts";
import type { Message, Usage } from "../../llm/messages.ts";
import {
  noticeRows,
  type NoticeTone,
  thinkingRows,
  toolRows,
  type ToolView,
  userRows,
} from "./blocks.ts";
import { renderMarkdown, splitFinished } from "./markdown.ts";
import { createSubagentActivity, withSubagentChange } from "./subagent_activity.ts";
import type { Theme } from "./style.ts";

type Block =
  | { kind: "user"; text: string; done: true }
  | { kind: "assistant"; text: string; committed: number; done: boolean }
  | { kind: "thinking"; text: string; done: boolean }
  | { kind: "tool"; id: string; view: ToolView; done: boolean }
  | { kind: "notice"; text: string; tone: NoticeTone; done: true };

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

/** How a turn ended, for the rows that close it. */
export interface TurnEnd {
  readonly reason: "end_turn" | "interrupted" | "error";
  readonly error?: string | undefined;
  /** A neutral word on how it ended, shown as an info row. */
  readonly note?: string | undefined;
  readonly usage: Usage;
  readonly durationMs: number;
}

/** Creates an empty transcript. */
export function createTranscript(
  options: { theme: Theme; expanded: () => boolean; clock?: () => number },
): Transcript {
  const { theme, clock = Date.now } = options;
  const subagents = createSubagentActivity();
  let blocks: Block[] = [];
  let answer = "";
  let running = false;
  /** The last done thinking or tool block committed with rows hidden. */
  let collapsed: Block | null = null;
  let reprint: string[] = [];
  /** Whether the running turn got an answer to a request (a footnote is then due). */
  let answered = false;

  const last = () => blocks.at(-1);
  const finishStreaming = () => {
    for (const block of blocks) {
      if (block.kind === "assistant" || block.kind === "thinking") block.done = true;
    }
  };
  const notice = (text: string, tone: NoticeTone) => {
    blocks.push({ kind: "notice", text, tone, done: true });
  };

  /**
   * The rows of `block`; a block that cannot be rendered (a bug, input no
   * view expected) is one error row, so a frame never throws and the chat goes on.
   */
  function render(
    block: Block,
    width: number,
    now: number,
    expanded = options.expanded(),
  ): string[] {
    return guarded(() => renderBlock(block, width, now, expanded), width);
  }

  function guarded(rows: () => string[], width: number): string[] {
    try {
      return rows();
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return noticeRows(
        `this part of the conversation cannot be shown: ${why}`,
        "error",
        width,
        theme,
      );
    }
  }

  function renderBlock(block: Block, width: number, now: number, expanded: boolean): string[] {
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

  function apply(event: RunEvent): void {
    if (event.parent !== undefined) {
      // A subagent's event changes the block of the `agent` call it serves.
      const change = subagents.apply(event, clock());
      const block = blocks.find((one) => one.kind === "tool" && one.id === change?.callId);
      if (change !== null && block?.kind === "tool" && !block.done) {
        block.view = withSubagentChange(block.view, change);
      }
      return;
    }
    switch (event.type) {
      case "run_start":
        running = true;
        for (const diagnostic of event.diagnostics) notice(diagnostic, "warning");
        return;
      case "thinking_delta": {
        const block = last();
        if (block?.kind === "thinking" && !block.done) block.text += event.text;
        else blocks.push({ kind: "thinking", text: event.text, done: false });
        return;
      }
      case "text_delta": {
        const block = last();
        if (block?.kind === "assistant" && !block.done) {
          block.text += event.text;
          return;
        }
        if (block?.kind === "thinking") block.done = true;
        blocks.push({ kind: "assistant", text: event.text, committed: 0, done: false });
        return;
      }
      case "message_end": {
        answered = true;
        const block = last();
        if (event.text !== "") {
          if (block?.kind === "assistant" && !block.done) {
            // Hooks may have changed the answer: show what is stored, if nothing was committed.
            if (block.committed === 0) block.text = event.text;
          } else {
            blocks.push({ kind: "assistant", text: event.text, committed: 0, done: true });
          }
          answer = event.text;
        }
        finishStreaming();
        return;
      }
      case "tool_call":
        finishStreaming();
        blocks.push({
          kind: "tool",
          id: event.id,
          view: { name: event.name, args: event.arguments, output: "", result: null },
          done: false,
        });
        return;
      case "tool_output":
      case "tool_result": {
        const block = blocks.find((candidate) =>
          candidate.kind === "tool" && candidate.id === event.id
        );
        if (block?.kind !== "tool") return;
        if (event.type === "tool_output") block.view = withOutput(block.view, event.text);
        else {
          block.view = { ...block.view, result: { text: event.text, isError: event.isError } };
          block.done = true;
        }
        return;
      }
      case "notice":
        notice(event.text, "warning");
        return;
      case "retry": {
        answered = true;
        const shown = blocks.some((block) =>
          block.kind === "assistant" && !block.done &&
          block.committed > 0
        );
        blocks = blocks.filter((block) =>
          !((block.kind === "assistant" || block.kind === "thinking") && !block.done &&
            !(block.kind === "assistant" && block.committed > 0))
        );
        finishStreaming();
        const seconds = (event.delayMs / 1000).toFixed(1);
        notice(
          `retrying in ${seconds}s: ${event.error}${
            shown ? " (the partial answer above is discarded)" : ""
          }`,
          "warning",
        );
        return;
      }
      case "compaction":
        answered = true;
        notice(
          `compacted the conversation (${formatTokens(event.tokensBefore)} tokens before)`,
          "faint",
        );
        return;
      case "run_end":
        running = false;
        finishStreaming();
        for (const block of blocks) {
          if (block.kind === "tool" && !block.done) {
            block.view = { ...block.view, result: { text: "interrupted", isError: true } };
            block.done = true;
          }
        }
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unknown event ${JSON.stringify(unknown)}`);
      }
    }
  }

  return {
    addUser(text) {
      blocks.push({ kind: "user", text, done: true });
    },
    addNotice: notice,
    apply,
    endTurn(end) {
      apply({ type: "run_end", reason: end.reason, text: "", usage: end.usage, turns: 0 });
      if (end.reason === "interrupted") notice("interrupted", "warning");
      if (end.reason === "error") notice(end.error ?? "the run failed", "error");
      if (end.note !== undefined) notice(end.note, "info");
      // A turn that sent no request (a refused command, a failure before the first) has no cost.
      if (answered || end.usage.inputTokens + end.usage.outputTokens > 0) {
        notice(footnote(end), "faint");
      }
      answered = false;
    },
    replay(messages) {
      for (const block of replayBlocks(messages)) blocks.push(block);
    },
    frame(width, now) {
      const commit = reprint;
      reprint = [];
      while (blocks.length > 0) {
        const first = blocks[0]!;
        if (first.done) {
          const rows = render(first, width, now);
          if (
            (first.kind === "thinking" || first.kind === "tool") &&
            render(first, width, now, true).length > rows.length
          ) collapsed = first;
          for (const row of rows) commit.push(row);
          blocks.shift();
          continue;
        }
        if (first.kind === "assistant") {
          const rest = first.text.slice(first.committed);
          let finished = "";
          try {
            finished = splitFinished(rest).finished;
          } catch {
            // nothing commits; the live render shows the error row
          }
          if (finished.trim() !== "") {
            commit.push("");
            const rows = guarded(() => renderMarkdown(finished, width - 1, theme), width);
            for (const row of rows) commit.push(row);
            first.committed += finished.length;
          }
        }
        break;
      }
      return { commit, live: blocks.flatMap((block) => render(block, width, now)) };
    },
    activity() {
      if (!running) return null;
      const tool = blocks.find((block) => block.kind === "tool" && !block.done);
      if (tool?.kind === "tool") return `running ${tool.view.name}`;
      const block = last();
      if (block?.kind === "thinking" && !block.done) return "thinking";
      if (block?.kind === "assistant" && !block.done) return "writing";
      return "waiting for the model";
    },
    lastAnswer: () => answer,
    expandLast(width, now) {
      if (collapsed === null) return;
      for (const row of render(collapsed, width, now, true)) reprint.push(row);
      collapsed = null;
    },
  };
}

function replayBlocks(messages: readonly Message[]): Block[] {
  const blocks: Block[] = [];
  const tools = new Map<string, Extract<Block, { kind: "tool" }>>();
  for (const message of messages) {
    for (const block of message.blocks) {
      switch (block.type) {
        case "text":
          blocks.push(
            message.role === "user"
              ? { kind: "user", text: block.text, done: true }
              : { kind: "assistant", text: block.text, committed: 0, done: true },
          );
          break;
        case "thinking":
          break;
        case "tool_call": {
          const tool = {
            kind: "tool" as const,
            id: block.id,
            view: { name: block.name, args: block.arguments, output: "", result: null },
            done: true,
          };
          tools.set(block.id, tool);
          blocks.push(tool);
          break;
        }
        case "tool_result": {
          const tool = tools.get(block.callId);
          if (tool === undefined) break;
          const text = block.content.map((part) => part.text).join("");
          tool.view = { ...tool.view, result: { text, isError: block.isError } };
          break;
        }
        default:
          block satisfies never;
      }
    }
  }
  for (const tool of tools.values()) {
    if (tool.view.result === null) {
      tool.view = { ...tool.view, result: { text: "", isError: false } };
    }
  }
  return blocks;
}

/**
 * Live output a tool block keeps: its tail, so a frame's work does not grow
 * with the output (a command printing a 30 MB line); the rows it shows are
 * the last few, and the result the model gets is the tool's, kept elsewhere.
 */
export const LIVE_TAIL_CHARS = 16_384;

/** `view` with `text` appended to its live output, cut to the last {@link LIVE_TAIL_CHARS}. */
export function withOutput(view: ToolView, text: string): ToolView {
  const output = view.output + text;
  if (output.length <= LIVE_TAIL_CHARS) return { ...view, output };
  let cut = output.length - LIVE_TAIL_CHARS;
  // Not between the halves of a surrogate pair.
  if (/[\udc00-\udfff]/.test(output[cut] ?? "")) cut++;
  let dropped = 0;
  for (let at = output.indexOf("\n"); at !== -1 && at < cut; at = output.indexOf("\n", at + 1)) {
    dropped++;
  }
  return {
    ...view,
    output: output.slice(cut),
    earlierLines: (view.earlierLines ?? 0) + dropped,
  };
}

/** 24_600 → "24.6k". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  const short = (value: number) => value.toFixed(value < 100 ? 1 : 0).replace(/\.0$/, "");
  if (tokens < 1_000_000) return `${short(tokens / 1000)}k`;
  return `${short(tokens / 1_000_000)}M`;
}

function footnote(end: TurnEnd): string {
  const seconds = (end.durationMs / 1000).toFixed(1);
  const { inputTokens, outputTokens, cacheReadTokens } = end.usage;
  const input = inputTokens + cacheReadTokens;
  return `${seconds}s · ${formatTokens(input)} in · ${formatTokens(outputTokens)} out`;
}
