/**
 * The canonical conversation model every provider translates to and from.
 *
 * - A conversation is a list of {@link Message}s: user messages (prompt text
 *   and tool results) and assistant messages (text, thinking, tool calls).
 * - All results of one model turn travel in one user message, one
 *   `tool_result` block per call, in call order.
 * - Opaque provider data needed for replay (thinking signatures, Responses
 *   item ids and encrypted reasoning) rides in `signature` fields.
 *
 * This folder imports nothing from the rest of `src/`.
 *
 * @module
 */

/** Plain text. `signature` keeps a provider's item id for replay (Responses). */
export interface TextBlock {
  readonly type: "text";
  readonly text: string;
  readonly signature?: string;
}

/**
 * Model reasoning. `signature` is the provider's opaque replay token
 * (Anthropic signature, Responses reasoning item as JSON); a `redacted`
 * block carries only its signature.
 */
export interface ThinkingBlock {
  readonly type: "thinking";
  readonly thinking: string;
  readonly signature?: string;
  readonly redacted?: boolean;
}

/**
 * A tool call as the model made it. `arguments` is always an object; when the
 * model's argument text was not a JSON object, `arguments` is `{}` and
 * `rawArguments` holds that text unchanged.
 */
export interface ToolCallBlock {
  readonly type: "tool_call";
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly rawArguments?: string;
}

/** One piece of a tool result. */
export interface ResultContent {
  readonly type: "text";
  readonly text: string;
}

/** The result of one tool call, answering the call with the same id. */
export interface ToolResultBlock {
  readonly type: "tool_result";
  readonly callId: string;
  readonly content: readonly ResultContent[];
  readonly isError: boolean;
}

/** Blocks a user message may hold. */
export type UserBlock = TextBlock | ToolResultBlock;

/** Blocks an assistant message may hold. */
export type AssistantBlock = TextBlock | ThinkingBlock | ToolCallBlock;

/** Why the model stopped, normalised across providers. */
export type StopReason =
  | "end_turn"
  | "tool_use"
  | "max_tokens"
  | "content_filter"
  | "unknown";

/**
 * Token counts of one response. `inputTokens` excludes cached reads;
 * `reasoningTokens` is included in `outputTokens` when the provider counts it
 * there.
 */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** A prompt or a turn's tool results. */
export interface UserMessage {
  readonly role: "user";
  readonly blocks: readonly UserBlock[];
}

/** One model response. `usage` is null when the provider reported none. */
export interface AssistantMessage {
  readonly role: "assistant";
  readonly blocks: readonly AssistantBlock[];
  readonly model: string;
  readonly stopReason: StopReason;
  readonly usage: Usage | null;
}

/** Any message of a conversation. */
export type Message = UserMessage | AssistantMessage;

/** A usage with every count at zero. */
export const EMPTY_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

/** The sum of two usages. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/** The text blocks of a message joined together. */
export function textOf(message: Message): string {
  let text = "";
  for (const block of message.blocks) {
    if (block.type === "text") text += block.text;
  }
  return text;
}

/** The tool calls of an assistant message, in the order the model gave them. */
export function toolCallsOf(message: AssistantMessage): ToolCallBlock[] {
  return message.blocks.filter((block): block is ToolCallBlock => block.type === "tool_call");
}

/** A fresh call id, for a call that came without one (or with one already used in its turn). */
export function newCallId(): string {
  return `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

/** A user message holding one prompt. */
export function userText(text: string): UserMessage {
  return { role: "user", blocks: [{ type: "text", text }] };
}
