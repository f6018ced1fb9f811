/**
 * Reading recorded Chat Completions requests in the terms tests assert on:
 * roles, text, tool calls and tool results, with the freedom the protocol
 * allows (string or parts content, `null` or absent content) folded away.
 *
 * @module
 */

import type { RecordedRequest } from "./fake_provider.ts";
import { arrayAt, at, isRecord } from "./json.ts";

/** The text of a message `content`: a string, text parts joined, or "" for null/absent. */
export function textContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content)) throw new Error(`unexpected content ${JSON.stringify(content)}`);
  return content.map((part) => {
    const text = at(part, "text");
    if (at(part, "type") !== "text" || typeof text !== "string") {
      throw new Error(`unexpected content part ${JSON.stringify(part)}`);
    }
    return text;
  }).join("");
}

/**
 * One chat message as `{role, content}` with `content` as text, plus
 * `tool_calls` and `tool_call_id` unchanged when present.
 */
export function normalizeChatMessage(message: unknown): Record<string, unknown> {
  if (!isRecord(message)) throw new Error(`a message is not an object: ${message}`);
  const normal: Record<string, unknown> = {
    role: message.role,
    content: textContent(message.content),
  };
  if (message.tool_calls !== undefined) normal.tool_calls = message.tool_calls;
  if (message.tool_call_id !== undefined) normal.tool_call_id = message.tool_call_id;
  return normal;
}

/** The `messages` of a chat request, normalised. */
export function chatMessages(request: RecordedRequest | undefined): Record<string, unknown>[] {
  if (request === undefined) throw new Error("no such request");
  return arrayAt(request.body, "messages").map(normalizeChatMessage);
}

/** The text of the system message (first message, role `system`). */
export function systemPromptOf(request: RecordedRequest | undefined): string {
  const [first] = chatMessages(request);
  if (first?.role !== "system") throw new Error(`the first message is not a system message`);
  return String(first.content);
}

/** The text of the first user message: the prompt. */
export function promptOf(request: RecordedRequest | undefined): string {
  const user = chatMessages(request).find((message) => message.role === "user");
  if (user === undefined) throw new Error("the request has no user message");
  return String(user.content);
}

/** The names of the tools a chat request offers (none when `tools` is absent). */
export function toolNamesOf(request: RecordedRequest | undefined): string[] {
  const tools = at(request?.body, "tools");
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) throw new Error(`tools is not an array: ${JSON.stringify(tools)}`);
  return tools.map((tool) => String(at(tool, "function", "name")));
}

/** The `tool` messages of a chat request as `{id, content}`, in order. */
export function toolResultsOf(
  request: RecordedRequest | undefined,
): { id: unknown; content: unknown }[] {
  return chatMessages(request).filter((message) => message.role === "tool")
    .map((message) => ({ id: message.tool_call_id, content: message.content }));
}

/** A `tool_calls` entry of an assistant message as Chat Completions sends it back. */
export function wireToolCall(id: string, name: string, args: string): Record<string, unknown> {
  return { id, type: "function", function: { name, arguments: args } };
}

/** The `model` field of a request body. */
export function modelOf(request: RecordedRequest | undefined): unknown {
  return at(request?.body, "model");
}
