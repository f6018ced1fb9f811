/**
 * Append-only JSONL session files: one entry per line, a header first
 * (docs/formats.md, "Session files").
 *
 * - Sessions keep their own on-disk types; this module translates them to and
 *   from the canonical `llm/messages.ts` model.
 * - Lines are only ever appended: branching (`leaf`), renaming (`title`),
 *   switches (`agent`, `model`, `thinking`), the start of a tool
 *   (`tool_start`), a hook's refusal (`hook_denial`), a hook's stop of the
 *   run (`hook_stop`) and a run's failure (`failure`) are new entries.
 * - Every entry after the header has a file-unique `id` and a `parentId`
 *   naming the entry it follows (empty for the first).
 * - A reader skips a torn last line and keeps kinds it does not know.
 *
 * ```json
 * {"kind":"header","version":1,"id":"01k5…","createdAt":"2026-01-01T00:00:00.000Z","agent":"coder","model":"openai/gpt-4o-mini","workdir":"/abs/path"}
 * {"kind":"message","id":"3f9a01bc","parentId":"","createdAt":"…","role":"user","blocks":[{"type":"text","text":"hi"}]}
 * ```
 *
 * @module
 */

import type {
  AssistantBlock,
  Message,
  StopReason,
  TextBlock,
  ToolResultBlock,
  Usage,
  UserBlock,
} from "../llm/messages.ts";

/** The format version this code writes and reads. */
export const SESSION_FORMAT_VERSION = 1;

/** The first line of a session file. */
export interface HeaderEntry {
  readonly kind: "header";
  readonly version: typeof SESSION_FORMAT_VERSION;
  readonly id: string;
  readonly createdAt: string;
  readonly agent: string;
  /** The absolute path of the agent file the session started with (`-f FILE`). */
  readonly agentFile?: string;
  readonly model: string;
  readonly workdir: string;
  /** A subagent's session: the session of the run that delegated to it… */
  readonly parentSession?: string;
  /** …and the id of the `agent` call it answers. */
  readonly parentCall?: string;
}

/** A text block on disk; `textSignature` keeps the llm block's signature. */
export interface EntryTextBlock {
  readonly type: "text";
  readonly text: string;
  readonly textSignature?: string;
}

/** A thinking block on disk. */
export interface EntryThinkingBlock {
  readonly type: "thinking";
  readonly thinking: string;
  readonly thinkingSignature?: string;
  readonly redacted?: boolean;
}

/** A tool call on disk; `toolCallRawArguments` keeps argument text that was not an object. */
export interface EntryToolCallBlock {
  readonly type: "tool_call";
  readonly toolCallId: string;
  readonly toolCallName: string;
  readonly toolCallArguments: Readonly<Record<string, unknown>>;
  readonly toolCallRawArguments?: string;
}

/** A tool result on disk, answering the call with `toolResultCallId`. */
export interface EntryToolResultBlock {
  readonly type: "tool_result";
  readonly toolResultCallId: string;
  readonly toolResult: readonly { readonly type: "text"; readonly text: string }[];
  readonly toolResultIsError: boolean;
}

/** Any content block of a message entry. */
export type EntryBlock =
  | EntryTextBlock
  | EntryThinkingBlock
  | EntryToolCallBlock
  | EntryToolResultBlock;

/** Token counts of one response, as stored. */
export interface EntryUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** Fields every entry after the header has. */
interface EntryBase {
  readonly id: string;
  readonly parentId: string;
  readonly createdAt: string;
}

/** A user prompt, a turn's tool results, or one model response. */
export interface MessageEntry extends EntryBase {
  readonly kind: "message";
  readonly role: "user" | "assistant";
  readonly blocks: readonly EntryBlock[];
  readonly responseModel?: string;
  readonly responseStopReason?: string;
  readonly responseUsage?: EntryUsage | null;
}

/** Older history replaced by `summary`; `keptId` is the first entry kept verbatim. */
export interface CompactionEntry extends EntryBase {
  readonly kind: "compaction";
  readonly summary: string;
  readonly keptId: string;
  readonly tokensBefore: number;
}

/** A switch of the agent for the rest of the branch. */
export interface AgentEntry extends EntryBase {
  readonly kind: "agent";
  readonly agent: string;
  /** The absolute path of the agent file switched to (`-f FILE`). */
  readonly agentFile?: string;
}

/** A switch of the model (`provider/model`) for the rest of the branch. */
export interface ModelEntry extends EntryBase {
  readonly kind: "model";
  readonly model: string;
}

/** A switch of the reasoning level for the rest of the branch. */
export interface ThinkingEntry extends EntryBase {
  readonly kind: "thinking";
  readonly thinking: string;
}

/** Moves the active position to `targetId` (empty: before the first entry). */
export interface LeafEntry extends EntryBase {
  readonly kind: "leaf";
  readonly targetId: string;
}

/** The session's name. */
export interface TitleEntry extends EntryBase {
  readonly kind: "title";
  readonly title: string;
}

/**
 * The tool of call `callId` (of the last message before it) is about to
 * start. A call with such an entry and no stored result was cut while it ran.
 */
export interface ToolStartEntry extends EntryBase {
  readonly kind: "tool_start";
  readonly callId: string;
}

/**
 * A hook refused a tool call (`deny`) or gave no verdict and is fail-closed
 * (`failed_closed`); the call's error result follows.
 */
export interface HookDenialEntry extends EntryBase {
  readonly kind: "hook_denial";
  /** The point, such as `beforeToolExecute`. */
  readonly point: string;
  /** The hook, as messages name it (`guard`, `node hooks/policy.mjs`). */
  readonly hook: string;
  readonly outcome: "deny" | "failed_closed";
  /** Its reason, or what failed; absent when it gave none. */
  readonly reason?: string;
  /** The refused call, at the tool points. */
  readonly callId?: string;
}

/**
 * A hook ended the run (a Claude Code hook's `continue: false`): the entries
 * before it are all the run stored, every call with its result.
 */
export interface HookStopEntry extends EntryBase {
  readonly kind: "hook_stop";
  /** The point it stopped at, such as `beforeToolExecute`. */
  readonly point: string;
  /** The hook, as messages name it. */
  readonly hook: string;
  /** What it said (masked, one line); empty when it said nothing. */
  readonly reason: string;
  /** The call it stopped at, at the tool points. */
  readonly callId?: string;
}

/**
 * The run that appended the entries before it ended in an error (a provider
 * that refused, a limit): the session is marked as failed until a later
 * entry follows. Continuing it sends the conversation as it was.
 */
export interface FailureEntry extends EntryBase {
  readonly kind: "failure";
  /** The run's error, as its `rienda:` line said it. */
  readonly error: string;
}

/**
 * A line of a kind this version does not know, kept as read. `id` and
 * `parentId` are set when the line has them as strings, so later entries may
 * still follow it.
 */
export interface UnknownEntry {
  readonly kind: "unknown";
  readonly id: string | null;
  readonly parentId: string | null;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Every entry kind this version writes. */
export type KnownEntry =
  | MessageEntry
  | CompactionEntry
  | AgentEntry
  | ModelEntry
  | ThinkingEntry
  | LeafEntry
  | TitleEntry
  | ToolStartEntry
  | HookDenialEntry
  | HookStopEntry
  | FailureEntry;

/** Any entry after the header, as read. */
export type Entry = KnownEntry | UnknownEntry;

type WithoutBase<T> = T extends KnownEntry ? Omit<T, keyof EntryBase> : never;

/** An entry to append: the writer fills `id`, `parentId` and `createdAt`. */
export type NewEntry = WithoutBase<KnownEntry>;

/** The kind, role, blocks and response fields of a message entry for `message`. */
export function toMessageFields(message: Message): Extract<NewEntry, { kind: "message" }> {
  const blocks = toEntryBlocks(message);
  if (message.role === "user") return { kind: "message", role: "user", blocks };
  return {
    kind: "message",
    role: "assistant",
    blocks,
    responseModel: message.model,
    responseStopReason: message.stopReason,
    responseUsage: message.usage === null ? null : { ...message.usage },
  };
}

/** The on-disk blocks of an llm message, in order. */
function toEntryBlocks(message: Message): EntryBlock[] {
  const blocks: readonly (UserBlock | AssistantBlock)[] = message.blocks;
  return blocks.map(toEntryBlock);
}

function toEntryBlock(block: UserBlock | AssistantBlock): EntryBlock {
  switch (block.type) {
    case "text":
      return block.signature === undefined
        ? { type: "text", text: block.text }
        : { type: "text", text: block.text, textSignature: block.signature };
    case "thinking":
      return {
        type: "thinking",
        thinking: block.thinking,
        ...(block.signature === undefined ? {} : { thinkingSignature: block.signature }),
        ...(block.redacted === true ? { redacted: true } : {}),
      };
    case "tool_call":
      return {
        type: "tool_call",
        toolCallId: block.id,
        toolCallName: block.name,
        toolCallArguments: block.arguments,
        ...(block.rawArguments === undefined ? {} : { toolCallRawArguments: block.rawArguments }),
      };
    case "tool_result":
      return {
        type: "tool_result",
        toolResultCallId: block.callId,
        toolResult: block.content.map((part) => ({ type: "text", text: part.text })),
        toolResultIsError: block.isError,
      };
    default:
      return unreachable(block);
  }
}

const STOP_REASONS: readonly StopReason[] = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "content_filter",
  "unknown",
];

/**
 * The llm message of a message entry. A stop reason this version does not
 * know becomes `unknown`.
 *
 * @throws {Error} when a block is not allowed for the entry's role
 */
export function toMessage(entry: MessageEntry): Message {
  if (entry.role === "user") {
    return { role: "user", blocks: entry.blocks.map(toUserBlock) };
  }
  const stored = entry.responseStopReason ?? "unknown";
  const stopReason = STOP_REASONS.find((reason) => reason === stored) ?? "unknown";
  const storedUsage = entry.responseUsage;
  // Fields are copied one by one: a decoded entry may carry fields of a newer version.
  const usage: Usage | null = storedUsage
    ? {
      inputTokens: storedUsage.inputTokens,
      outputTokens: storedUsage.outputTokens,
      reasoningTokens: storedUsage.reasoningTokens,
      cacheReadTokens: storedUsage.cacheReadTokens,
      cacheWriteTokens: storedUsage.cacheWriteTokens,
    }
    : null;
  return {
    role: "assistant",
    blocks: entry.blocks.map(toAssistantBlock),
    model: entry.responseModel ?? "",
    stopReason,
    usage,
  };
}

function toUserBlock(block: EntryBlock): UserBlock {
  switch (block.type) {
    case "text":
      return toTextBlock(block);
    case "tool_result":
      return toToolResultBlock(block);
    case "thinking":
    case "tool_call":
      throw new Error(`a user message cannot hold a "${block.type}" block`);
    default:
      return unreachable(block);
  }
}

function toAssistantBlock(block: EntryBlock): AssistantBlock {
  switch (block.type) {
    case "text":
      return toTextBlock(block);
    case "thinking":
      return {
        type: "thinking",
        thinking: block.thinking,
        ...(block.thinkingSignature === undefined ? {} : { signature: block.thinkingSignature }),
        ...(block.redacted === true ? { redacted: true } : {}),
      };
    case "tool_call":
      return {
        type: "tool_call",
        id: block.toolCallId,
        name: block.toolCallName,
        arguments: block.toolCallArguments,
        ...(block.toolCallRawArguments === undefined
          ? {}
          : { rawArguments: block.toolCallRawArguments }),
      };
    case "tool_result":
      throw new Error(`an assistant message cannot hold a "tool_result" block`);
    default:
      return unreachable(block);
  }
}

function toTextBlock(block: EntryTextBlock): TextBlock {
  return block.textSignature === undefined
    ? { type: "text", text: block.text }
    : { type: "text", text: block.text, signature: block.textSignature };
}

function toToolResultBlock(block: EntryToolResultBlock): ToolResultBlock {
  return {
    type: "tool_result",
    callId: block.toolResultCallId,
    content: block.toolResult.map((part) => ({ type: "text", text: part.text })),
    isError: block.toolResultIsError,
  };
}

function unreachable(value: never): never {
  throw new Error(`unexpected block: ${JSON.stringify(value)}`);
}
