/**
 * The request half of the Anthropic Messages protocol: the conversation as
 * `messages`, the tools, the thinking budget and the headers.
 *
 * @module
 */

import type { AssistantBlock, Message, UserBlock } from "../llm/messages.ts";
import type { ModelRequest, ToolSpec } from "../llm/model_events.ts";
import { type ProtocolOptions, thinkingLevel } from "./protocol.ts";
import { requestHeaders } from "./request.ts";
import { ANTHROPIC_THINKING_BUDGETS, anthropicThinkingBudget } from "./thinking.ts";

/** The `anthropic-version` header every request carries (docs/providers.md). */
export const ANTHROPIC_VERSION = "2023-06-01";

/** `max_tokens` when the model's settings name none (docs/providers.md). */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;

/** One content block on the wire. */
type WireBlock = Record<string, unknown>;

/** One message of the `messages` array. */
interface WireMessage {
  readonly role: "user" | "assistant";
  readonly content: WireBlock[];
}

const EPHEMERAL = { type: "ephemeral" } as const;
const TOOL_ID_REGEXP = /[^a-zA-Z0-9_-]/g;

/** A tool call id in the characters Anthropic accepts (`^[a-zA-Z0-9_-]+$`). */
export function anthropicToolId(id: string): string {
  const cleaned = id.replace(TOOL_ID_REGEXP, "_");
  return cleaned === "" ? "toolu_empty" : cleaned;
}

/** Whether a signature is a Responses reasoning item rather than an Anthropic signature. */
function isForeignSignature(signature: string): boolean {
  return signature.trimStart().startsWith("{");
}

function assistantBlock(block: AssistantBlock): WireBlock | undefined {
  switch (block.type) {
    case "text":
      return block.text === "" ? undefined : { type: "text", text: block.text };
    case "thinking": {
      // Thinking from another protocol has no signature Anthropic would accept.
      const signature = block.signature;
      if (signature === undefined || signature === "" || isForeignSignature(signature)) {
        return undefined;
      }
      if (block.redacted === true) return { type: "redacted_thinking", data: signature };
      return { type: "thinking", thinking: block.thinking, signature };
    }
    case "tool_call":
      return {
        type: "tool_use",
        id: anthropicToolId(block.id),
        name: block.name,
        input: block.arguments,
      };
    default: {
      const unknownBlock: never = block;
      throw new TypeError(`unknown block ${JSON.stringify(unknownBlock)}`);
    }
  }
}

/** Tool results first (they must follow the assistant's calls), then text. */
function userContent(blocks: readonly UserBlock[]): WireBlock[] {
  const results: WireBlock[] = [];
  const texts: WireBlock[] = [];
  for (const block of blocks) {
    if (block.type === "text") {
      if (block.text !== "") texts.push({ type: "text", text: block.text });
      continue;
    }
    const content = block.content.filter((part) => part.text !== "")
      .map((part) => ({ type: "text", text: part.text }));
    results.push({
      type: "tool_result",
      "tool_use_id": anthropicToolId(block.callId),
      ...(content.length === 0 ? {} : { content }),
      "is_error": block.isError,
    });
  }
  return [...results, ...texts];
}

/**
 * The `messages` array: consecutive messages of one role merged (all results
 * of a turn travel in one user message), empty ones dropped, and the last
 * block marked for prompt caching.
 */
export function toAnthropicMessages(messages: readonly Message[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (const message of messages) {
    const content = message.role === "user"
      ? userContent(message.blocks)
      : message.blocks.map(assistantBlock).filter((block) => block !== undefined);
    if (content.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === message.role) last.content.push(...content);
    else out.push({ role: message.role, content });
  }
  const lastBlock = out.at(-1)?.content.at(-1);
  if (lastBlock !== undefined && out.at(-1)?.role === "user") {
    lastBlock["cache_control"] = EPHEMERAL;
  }
  return out;
}

function toAnthropicTool(tool: ToolSpec) {
  return { name: tool.name, description: tool.description, "input_schema": tool.parameters };
}

/** The thinking budget a request sends, or undefined when thinking is off. */
export function thinkingBudget(options: ProtocolOptions): number | undefined {
  const level = thinkingLevel(options);
  if (level === undefined) return undefined;
  return anthropicThinkingBudget(level) ?? ANTHROPIC_THINKING_BUDGETS.medium;
}

/**
 * The JSON body of one streamed request. With thinking on, `max_tokens`
 * grows by the budget (it must exceed it) and `temperature`/`top_p` are
 * dropped (Anthropic rejects them with thinking).
 */
export function anthropicBody(
  options: ProtocolOptions,
  request: ModelRequest,
): Record<string, unknown> {
  const budget = thinkingBudget(options);
  const maxTokens = options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  const body: Record<string, unknown> = {
    model: options.modelId,
    "max_tokens": budget === undefined ? maxTokens : maxTokens + budget,
  };
  if (request.system !== "") {
    body.system = [{ type: "text", text: request.system, "cache_control": EPHEMERAL }];
  }
  body.messages = toAnthropicMessages(request.messages);
  if (request.tools.length > 0) body.tools = request.tools.map(toAnthropicTool);
  body.stream = true;
  if (budget !== undefined) {
    body.thinking = { type: "enabled", "budget_tokens": budget };
  } else {
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.topP !== undefined) body["top_p"] = options.topP;
  }
  return body;
}

/** The headers of a request: rienda's, `anthropic-version`, `x-api-key`, then the provider's. */
export function anthropicHeaders(options: ProtocolOptions): Headers {
  const auth: Record<string, string> = options.apiKey === null || options.apiKey === ""
    ? {}
    : { "x-api-key": options.apiKey };
  return requestHeaders({ "anthropic-version": ANTHROPIC_VERSION }, auth, options.headers);
}
