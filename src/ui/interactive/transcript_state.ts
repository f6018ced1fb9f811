/**
 * The state of the chat's transcript and the one step that changes it: the
 * blocks of the conversation and what the running turn has said so far,
 * moved by each run event ({@link applyEvent}), by the end of a turn
 * ({@link endTurnBlocks}) and by a resumed session's messages
 * ({@link replayBlocks}). Nothing here renders; `transcript_render.ts` turns
 * blocks into rows and `transcript.ts` decides which rows are committed.
 *
 * - A retried response drops what was not committed yet; a row says so.
 * - An interrupted turn keeps what was shown; its unfinished tools end as
 *   `interrupted`.
 * - A turn ends with a footnote of its time and tokens, unless it sent no
 *   request (no answer, retry or compaction came back and nothing was used).
 *
 * @module
 */

import type { RunEvent } from "../../engine/events.ts";
import type { Message, Usage } from "../../llm/messages.ts";
import type { NoticeTone, ToolView } from "./blocks.ts";
import {
  createSubagentActivity,
  type SubagentActivity,
  withSubagentChange,
} from "./subagent_activity.ts";

/** One block of the conversation; `done` blocks no longer change. */
export type Block =
  | { kind: "user"; text: string; done: true }
  /** `committed`: how many characters of `text` were written to the scrollback already. */
  | { kind: "assistant"; text: string; committed: number; done: boolean }
  | { kind: "thinking"; text: string; done: boolean }
  | { kind: "tool"; id: string; view: ToolView; done: boolean }
  | { kind: "notice"; text: string; tone: NoticeTone; done: true };

/** The blocks not committed yet, and what the running turn has said. */
export interface TranscriptState {
  /** The blocks not yet committed, oldest first. */
  blocks: Block[];
  /** The text of the last answer (`/copy`). */
  answer: string;
  /** Whether a turn runs. */
  running: boolean;
  /** Whether the running turn got an answer to a request (a footnote is then due). */
  answered: boolean;
  /** The subagents of the running turn's `agent` calls. */
  readonly subagents: SubagentActivity;
}

/** How a turn ended, for the rows that close it. */
export interface TurnEnd {
  readonly reason: "end_turn" | "interrupted" | "error" | "hook_stop";
  readonly error?: string | undefined;
  /** With `hook_stop`: the line naming the hook and its reason. */
  readonly stopped?: string | undefined;
  /** A neutral word on how it ended, shown as an info row. */
  readonly note?: string | undefined;
  readonly usage: Usage;
  readonly durationMs: number;
}

/** An empty transcript's state. */
export function emptyState(): TranscriptState {
  return {
    blocks: [],
    answer: "",
    running: false,
    answered: false,
    subagents: createSubagentActivity(),
  };
}

/** Adds a one-line row. */
export function addNotice(state: TranscriptState, text: string, tone: NoticeTone): void {
  state.blocks.push({ kind: "notice", text, tone, done: true });
}

/** Marks the streamed answer and thinking as done. */
function finishStreaming(state: TranscriptState): void {
  for (const block of state.blocks) {
    if (block.kind === "assistant" || block.kind === "thinking") block.done = true;
  }
}

/** Applies one event of the running turn (`now`: the time of a subagent's change). */
export function applyEvent(state: TranscriptState, event: RunEvent, now: number): void {
  if (event.parent !== undefined) {
    // A subagent's event changes the block of the `agent` call it serves.
    const change = state.subagents.apply(event, now);
    const block = state.blocks.find((one) => one.kind === "tool" && one.id === change?.callId);
    if (change !== null && block?.kind === "tool" && !block.done) {
      block.view = withSubagentChange(block.view, change);
    }
    return;
  }
  const last = state.blocks.at(-1);
  switch (event.type) {
    case "run_start":
      state.running = true;
      for (const diagnostic of event.diagnostics) addNotice(state, diagnostic, "warning");
      return;
    case "thinking_delta":
      if (last?.kind === "thinking" && !last.done) last.text += event.text;
      else state.blocks.push({ kind: "thinking", text: event.text, done: false });
      return;
    case "text_delta":
      if (last?.kind === "assistant" && !last.done) {
        last.text += event.text;
        return;
      }
      if (last?.kind === "thinking") last.done = true;
      state.blocks.push({ kind: "assistant", text: event.text, committed: 0, done: false });
      return;
    case "message_end":
      state.answered = true;
      if (event.text !== "") {
        if (last?.kind === "assistant" && !last.done) {
          // Hooks may have changed the answer: show what is stored, if nothing was committed.
          if (last.committed === 0) last.text = event.text;
        } else {
          state.blocks.push({ kind: "assistant", text: event.text, committed: 0, done: true });
        }
        state.answer = event.text;
      }
      finishStreaming(state);
      return;
    case "tool_call":
      finishStreaming(state);
      state.blocks.push({
        kind: "tool",
        id: event.id,
        view: { name: event.name, args: event.arguments, output: "", result: null },
        done: false,
      });
      return;
    case "tool_output":
    case "tool_result": {
      const block = state.blocks.find((one) => one.kind === "tool" && one.id === event.id);
      if (block?.kind !== "tool") return;
      if (event.type === "tool_output") block.view = withOutput(block.view, event.text);
      else {
        block.view = { ...block.view, result: { text: event.text, isError: event.isError } };
        block.done = true;
      }
      return;
    }
    case "notice":
      addNotice(state, event.text, "warning");
      return;
    case "retry":
      retry(state, event.delayMs, event.error);
      return;
    case "compaction":
      state.answered = true;
      addNotice(
        state,
        `compacted the conversation (${formatTokens(event.tokensBefore)} tokens before)`,
        "faint",
      );
      return;
    case "run_end":
      state.running = false;
      finishStreaming(state);
      for (const block of state.blocks) {
        if (block.kind === "tool" && !block.done) {
          block.view = { ...block.view, result: { text: "interrupted", isError: true } };
          block.done = true;
        }
      }
      return;
    case "hook": // telemetry: refusals show as tool results
      return;
    default: {
      const unknown: never = event;
      throw new Error(`unknown event ${JSON.stringify(unknown)}`);
    }
  }
}

/** Drops the streamed blocks nothing of which was committed, and says a retry comes. */
function retry(state: TranscriptState, delayMs: number, error: string): void {
  state.answered = true;
  const shown = state.blocks.some((block) =>
    block.kind === "assistant" && !block.done && block.committed > 0
  );
  state.blocks = state.blocks.filter((block) =>
    !((block.kind === "assistant" || block.kind === "thinking") && !block.done &&
      !(block.kind === "assistant" && block.committed > 0))
  );
  finishStreaming(state);
  const seconds = (delayMs / 1000).toFixed(1);
  const discarded = shown ? " (the partial answer above is discarded)" : "";
  addNotice(state, `retrying in ${seconds}s: ${error}${discarded}`, "warning");
}

/** Ends the turn: everything is done; notes an interrupt or an error, then the footnote. */
export function endTurnBlocks(state: TranscriptState, end: TurnEnd, now: number): void {
  applyEvent(
    state,
    { type: "run_end", reason: end.reason, text: "", usage: end.usage, turns: 0 },
    now,
  );
  if (end.reason === "interrupted") addNotice(state, "interrupted", "warning");
  if (end.reason === "error") addNotice(state, end.error ?? "the run failed", "error");
  if (end.reason === "hook_stop") {
    addNotice(state, end.stopped ?? "a hook stopped the run", "warning");
  }
  if (end.note !== undefined) addNotice(state, end.note, "info");
  // A turn that sent no request (a refused command, a failure before the first) has no cost.
  if (state.answered || end.usage.inputTokens + end.usage.outputTokens > 0) {
    addNotice(state, footnote(end), "faint");
  }
  state.answered = false;
}

/** What the turn is doing, for the status line; null when idle. */
export function activityOf(state: TranscriptState): string | null {
  if (!state.running) return null;
  const tool = state.blocks.find((block) => block.kind === "tool" && !block.done);
  if (tool?.kind === "tool") return `running ${tool.view.name}`;
  const block = state.blocks.at(-1);
  if (block?.kind === "thinking" && !block.done) return "thinking";
  if (block?.kind === "assistant" && !block.done) return "writing";
  return "waiting for the model";
}

/** Stored messages (a resumed session) as finished blocks; thinking is left out. */
export function replayBlocks(messages: readonly Message[]): Block[] {
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
