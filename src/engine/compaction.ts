/**
 * Automatic compaction of a run's conversation (docs/sessions.md, "Compaction").
 *
 * - Before each request the size of the next request (system + messages +
 *   tools, UTF-8 bytes / 4; a message counts its texts, arguments and
 *   signatures plus 32 bytes of framing per message and per block) is
 *   compared with `contextWindow - reserveTokens`;
 *   past it, the older part is summarised, at most once per run.
 * - The cut keeps at least `keepRecentTokens` of the newest messages and
 *   falls on a turn boundary: the kept part starts with a prompt or an
 *   assistant message, never with tool results, so a call stays with its result.
 * - The summary is sent as a user message ({@link summaryMessage}) before the
 *   kept messages; the system prompt is never part of what is summarised.
 * - The app supplies the summary request and stores the entry
 *   ({@link Compactor}); this module never imports `sessions/` or `providers/`.
 *
 * @module
 */

import type { AssistantBlock, Message, Usage, UserBlock, UserMessage } from "../llm/messages.ts";
import { textOf } from "../llm/messages.ts";
import type { ModelClient, ModelRequest, ToolSpec } from "../llm/model_events.ts";
import type { EventSink } from "./events.ts";
import { streamModelTurn } from "./model_turn.ts";
import { errorMessage } from "../base/unknown.ts";

/** The sizes compaction works with, in estimated tokens. */
export interface CompactionSettings {
  /** The model's context window. */
  readonly contextWindow: number;
  /** Tokens kept free for the answer: compaction starts past `contextWindow - reserveTokens`. */
  readonly reserveTokens: number;
  /** Tokens of the newest history kept verbatim, at least. */
  readonly keepRecentTokens: number;
}

/** What a summary request covers. */
export interface SummaryInput {
  /** The older messages to summarise, oldest first. */
  readonly messages: readonly Message[];
  /** The summary of an earlier compaction of the branch, to fold in; null when none. */
  readonly previousSummary: string | null;
}

/** A compaction the engine made, for the app to store. */
export interface CompactionRecord {
  readonly summary: string;
  /**
   * The first message kept verbatim, as an index into the run's conversation:
   * `RunOptions.history` followed by the messages this run appended.
   */
  readonly keptIndex: number;
  /** The estimated tokens of the request before compaction. */
  readonly tokensBefore: number;
}

/** What the app provides so the engine can compact. */
export interface Compactor {
  readonly settings: CompactionSettings;
  /** The request that asks the model for a summary of `input`. */
  summaryRequest(input: SummaryInput): Promise<ModelRequest>;
  /** Stores the compaction (a failure fails the run). */
  record(compaction: CompactionRecord): Promise<void>;
}

/** The words that introduce a summary to the model. */
export const SUMMARY_INTRO =
  "Summary of the earlier conversation (older messages were compacted into it to save context):";

/** The user message that presents a summary to the model, before the kept messages. */
function summaryMessage(summary: string): UserMessage {
  return { role: "user", blocks: [{ type: "text", text: `${SUMMARY_INTRO}\n\n${summary}` }] };
}

const encoder = new TextEncoder();
const BYTES_PER_TOKEN = 4;

// deno-lint-ignore no-control-regex
const NON_ASCII_REGEXP = /[^\x00-\x7f]/;

/** UTF-8 bytes of `text`; ASCII text (the common case) is not encoded. */
function bytesOf(text: string): number {
  return NON_ASCII_REGEXP.test(text) ? encoder.encode(text).length : text.length;
}

/** Bytes counted for the wire framing of one message or block (keys, quotes, braces). */
const FRAMING_BYTES = 32;

function blockBytes(block: UserBlock | AssistantBlock): number {
  switch (block.type) {
    case "text":
      return bytesOf(block.text) + (block.signature?.length ?? 0);
    case "thinking":
      return bytesOf(block.thinking) + (block.signature?.length ?? 0);
    case "tool_call":
      return block.id.length + block.name.length +
        bytesOf(block.rawArguments ?? JSON.stringify(block.arguments));
    case "tool_result": {
      let bytes = block.callId.length;
      for (const part of block.content) bytes += bytesOf(part.text) + FRAMING_BYTES;
      return bytes;
    }
    default:
      return block satisfies never;
  }
}

/** Bytes of messages already estimated: messages are immutable and re-estimated every turn. */
const estimatedBytes = new WeakMap<Message, number>();

/**
 * The bytes of one message on the wire, estimated from its texts, arguments
 * and signatures plus framing (no JSON is built: long histories are estimated
 * before every request, so each message is measured once).
 */
function messageBytesOf(message: Message): number {
  const known = estimatedBytes.get(message);
  if (known !== undefined) return known;
  let bytes = FRAMING_BYTES;
  const blocks: readonly (UserBlock | AssistantBlock)[] = message.blocks;
  for (const block of blocks) bytes += FRAMING_BYTES + blockBytes(block);
  estimatedBytes.set(message, bytes);
  return bytes;
}

/** The estimated tokens of one message (UTF-8 bytes / 4). */
export function messageTokens(message: Message): number {
  return Math.ceil(messageBytesOf(message) / BYTES_PER_TOKEN);
}

/** The estimated tokens of a request: system, messages and tools, UTF-8 bytes / 4. */
export function estimateTokens(request: ModelRequest): number {
  let bytes = bytesOf(request.system) + bytesOf(JSON.stringify(request.tools));
  for (const message of request.messages) bytes += messageBytesOf(message);
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** Whether the kept part of a conversation may start at `message`. */
function startsTurn(message: Message): boolean {
  return message.role === "assistant" || message.blocks.every((block) => block.type === "text");
}

/**
 * The index of the first message to keep: the latest turn boundary that keeps
 * at least `keepRecentTokens`; 0 when nothing can be summarised.
 *
 * @example
 * ```ts
 * import { userText } from "../llm/messages.ts";
 * findCut([userText("a".repeat(400)), userText("b".repeat(400))], 10); // 1
 * ```
 */
export function findCut(messages: readonly Message[], keepRecentTokens: number): number {
  let kept = 0;
  for (let index = messages.length - 1; index > 0; index--) {
    const message = messages[index];
    if (message === undefined) break;
    kept += messageTokens(message);
    if (kept < keepRecentTokens) continue;
    for (let cut = index; cut > 0; cut--) {
      const candidate = messages[cut];
      if (candidate !== undefined && startsTurn(candidate)) return cut;
    }
    return 0;
  }
  return 0;
}

/** Options of {@link createRunContext}. */
export interface RunContextOptions {
  /** Earlier messages of the branch. */
  readonly history: readonly Message[];
  /** The summary of the branch's compacted past, or null. */
  readonly summary: string | null;
  /** Absent when compaction is disabled. */
  readonly compactor: Compactor | undefined;
  readonly model: ModelClient;
  readonly emit: EventSink;
  readonly signal: AbortSignal;
}

/** The conversation of one run and what the next request sends. */
export interface RunContext {
  /** The conversation: the history, then what the run appends (push to it). */
  readonly messages: Message[];
  /**
   * The messages of the next request (the summary first, when there is one),
   * compacting first when the request would not fit; `usage` is the summary
   * request's, when one was made.
   *
   * @throws {Error} `compaction failed: …` when the summary cannot be made or stored
   */
  prepare(
    system: string,
    tools: readonly ToolSpec[],
  ): Promise<{ messages: Message[]; usage: Usage | null }>;
  /**
   * Compacts now, whatever the size of the next request (a person's
   * `/compact`); `compacted` is false when compaction is disabled or nothing
   * can be summarised (the whole conversation is within `keepRecentTokens`).
   *
   * @throws {Error} `compaction failed: …` as {@link prepare}
   */
  compactNow(
    system: string,
    tools: readonly ToolSpec[],
  ): Promise<{ compacted: boolean; usage: Usage | null }>;
}

/** The conversation of a run, compacted at most once. */
export function createRunContext(options: RunContextOptions): RunContext {
  const { compactor, model, emit, signal } = options;
  const messages: Message[] = [...options.history];
  let summary = options.summary;
  let compacted = false;
  const sent = () => summary === null ? [...messages] : [summaryMessage(summary), ...messages];

  async function compact(
    tokensBefore: number,
    cut: number,
    active: Compactor,
  ): Promise<Usage | null> {
    compacted = true;
    let text: string;
    let usage: Usage | null;
    try {
      const request = await active.summaryRequest({
        messages: messages.slice(0, cut),
        previousSummary: summary,
      });
      const answer = await streamModelTurn({ model, request, emit, signal, withholdDeltas: true });
      text = textOf(answer).trim();
      usage = answer.usage;
      if (text === "") throw new Error("the model returned an empty summary");
      await active.record({ summary: text, keptIndex: cut, tokensBefore });
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = errorMessage(error);
      throw new Error(`compaction failed: ${reason}`, { cause: error });
    }
    messages.splice(0, cut);
    summary = text;
    emit({ type: "compaction", tokensBefore, summary: text });
    return usage;
  }

  return {
    messages,
    async prepare(system, tools) {
      if (compactor === undefined || compacted) return { messages: sent(), usage: null };
      const { contextWindow, reserveTokens, keepRecentTokens } = compactor.settings;
      const tokensBefore = estimateTokens({ system, messages: sent(), tools });
      if (tokensBefore <= contextWindow - reserveTokens) return { messages: sent(), usage: null };
      const cut = findCut(messages, keepRecentTokens);
      if (cut === 0) return { messages: sent(), usage: null };
      const usage = await compact(tokensBefore, cut, compactor);
      return { messages: sent(), usage };
    },
    async compactNow(system, tools) {
      if (compactor === undefined) return { compacted: false, usage: null };
      const cut = findCut(messages, compactor.settings.keepRecentTokens);
      if (cut === 0) return { compacted: false, usage: null };
      const tokensBefore = estimateTokens({ system, messages: sent(), tools });
      return { compacted: true, usage: await compact(tokensBefore, cut, compactor) };
    },
  };
}
