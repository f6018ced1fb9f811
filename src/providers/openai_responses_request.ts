/**
 * The request half of the OpenAI Responses protocol: the conversation as
 * typed `input` items, the tools, the reasoning settings.
 *
 * - `store: false` always: nothing is kept on the server, so reasoning items
 *   travel back with their `encrypted_content` (requested with `include`
 *   when reasoning is on) and assistant messages with their item ids.
 * - Thinking from another protocol (no reasoning item in its signature) is
 *   not sent.
 *
 * @module
 */

import type { AssistantBlock, Message, ThinkingBlock, UserBlock } from "../llm/messages.ts";
import type { ModelRequest, ToolSpec } from "../llm/model_events.ts";
import { type ProtocolOptions, thinkingLevel } from "./protocol.ts";
import { requestHeaders } from "./request.ts";
import { arrayAt, isRecord, stringAt } from "./wire_json.ts";

/** One item of the `input` array. */
type InputItem = Record<string, unknown>;

/** The reasoning item a thinking block's signature holds, ready to send back; else undefined. */
export function reasoningItemOf(block: ThinkingBlock): InputItem | undefined {
  if (block.signature === undefined || !block.signature.trimStart().startsWith("{")) {
    return undefined;
  }
  let item: unknown;
  try {
    item = JSON.parse(block.signature);
  } catch {
    return undefined;
  }
  const id = stringAt(item, "id");
  const encrypted = stringAt(item, "encrypted_content");
  // With store: false the server cannot look an item up: without its
  // encrypted content it would be rejected.
  if (stringAt(item, "type") !== "reasoning" || !id || !encrypted) return undefined;
  const summary = arrayAt(item, "summary").filter(isRecord)
    .map((part) => ({ type: "summary_text", text: stringAt(part, "text") ?? "" }));
  return { type: "reasoning", id, "encrypted_content": encrypted, summary };
}

const MESSAGE_ID_REGEXP = /^msg_[A-Za-z0-9_-]+$/;

function assistantItem(block: AssistantBlock): InputItem | undefined {
  switch (block.type) {
    case "text": {
      if (block.text === "") return undefined;
      const id = block.signature !== undefined && MESSAGE_ID_REGEXP.test(block.signature)
        ? { id: block.signature }
        : {};
      return {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: block.text, annotations: [] }],
        status: "completed",
        ...id,
      };
    }
    case "thinking":
      return reasoningItemOf(block);
    case "tool_call":
      return {
        type: "function_call",
        "call_id": block.id,
        name: block.name,
        arguments: block.rawArguments ?? JSON.stringify(block.arguments),
      };
    default: {
      const unknownBlock: never = block;
      throw new TypeError(`unknown block ${JSON.stringify(unknownBlock)}`);
    }
  }
}

/** Tool outputs first (they answer the previous calls), then the user's text. */
function userItems(blocks: readonly UserBlock[]): InputItem[] {
  const outputs: InputItem[] = [];
  const texts: { type: "input_text"; text: string }[] = [];
  for (const block of blocks) {
    if (block.type === "text") {
      if (block.text !== "") texts.push({ type: "input_text", text: block.text });
      continue;
    }
    outputs.push({
      type: "function_call_output",
      "call_id": block.callId,
      output: block.content.map((part) => part.text).join("\n"),
    });
  }
  if (texts.length === 0) return outputs;
  return [...outputs, { type: "message", role: "user", content: texts }];
}

/** The `input` array for a conversation. */
export function toResponsesInput(messages: readonly Message[]): InputItem[] {
  const items: InputItem[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      items.push(...userItems(message.blocks));
      continue;
    }
    for (const block of message.blocks) {
      const item = assistantItem(block);
      if (item !== undefined) items.push(item);
    }
  }
  return items;
}

function toResponsesTool(tool: ToolSpec) {
  return {
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  } as const;
}

/** The JSON body of one streamed request. */
export function responsesBody(
  options: ProtocolOptions,
  request: ModelRequest,
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: options.modelId };
  if (request.system !== "") body.instructions = request.system;
  body.input = toResponsesInput(request.messages);
  if (request.tools.length > 0) body.tools = request.tools.map(toResponsesTool);
  body.stream = true;
  body.store = false;
  if (options.maxTokens !== undefined) body["max_output_tokens"] = options.maxTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body["top_p"] = options.topP;
  const level = thinkingLevel(options);
  if (level !== undefined) {
    body.reasoning = { effort: level, summary: "auto" };
    body.include = ["reasoning.encrypted_content"];
  }
  return body;
}

/** The headers of a request: rienda's, then `Authorization` when keyed, then the provider's. */
export function responsesHeaders(options: ProtocolOptions): Headers {
  const auth: Record<string, string> = options.apiKey === null || options.apiKey === ""
    ? {}
    : { authorization: `Bearer ${options.apiKey}` };
  return requestHeaders(auth, options.headers);
}
