/**
 * The message-level hook points: the snapshot `beforeModelRequest` reads and
 * the rewrite `afterModelResponse` applies before a response is printed and
 * stored.
 *
 * @module
 */

import type { AssistantBlock, AssistantMessage, Message } from "../llm/messages.ts";
import { textOf, toolCallsOf } from "../llm/messages.ts";
import { type Chained, done, type HookRunner, type ModelRequestPayload } from "./hooks.ts";

/**
 * The read-only `[{role, text}]` view of a conversation that hooks receive.
 * A message of tool results reads as the results' texts, one per line, so a
 * hook sees what the model saw.
 */
export function requestSnapshot(messages: readonly Message[]): ModelRequestPayload["messages"] {
  return messages.map((message) => ({ role: message.role, text: snapshotText(message) }));
}

function snapshotText(message: Message): string {
  if (message.role === "assistant") return textOf(message);
  return message.blocks.map((block) =>
    block.type === "text" ? block.text : block.content.map((part) => part.text).join("")
  ).join("\n");
}

/**
 * Runs the `afterModelResponse` chain and applies its text and thinking; an
 * unfinished chain (`interrupted`, `withheld`) comes back as it is, and the
 * message must then be neither printed nor stored.
 */
export async function applyResponseHooks(
  message: AssistantMessage,
  hooks: HookRunner,
  signal: AbortSignal,
): Promise<Chained<AssistantMessage>> {
  if (!hooks.has("afterModelResponse")) return done(message);
  const text = textOf(message);
  const thinking = thinkingOf(message);
  const chained = await hooks.afterModelResponse(
    {
      text,
      thinking,
      toolCalls: toolCallsOf(message).map((call) => ({
        id: call.id,
        name: call.name,
        arguments: call.rawArguments ?? call.arguments,
      })),
    },
    signal,
  );
  if (chained.kind !== "done") return chained;
  const rewritten = chained.value;
  if (rewritten.text === text && rewritten.thinking === thinking) return done(message);
  return done({
    ...message,
    blocks: rewriteBlocks(message.blocks, rewritten, { text, thinking }),
  });
}

function thinkingOf(message: AssistantMessage): string {
  let thinking = "";
  for (const block of message.blocks) {
    if (block.type === "thinking") thinking += block.thinking;
  }
  return thinking;
}

/**
 * Replaces the text blocks (and the thinking blocks) by one block holding the
 * rewritten value, at the place of the first one. A changed thinking loses its
 * signature: a provider would reject a signature that no longer matches.
 */
function rewriteBlocks(
  blocks: readonly AssistantBlock[],
  rewritten: { readonly text: string; readonly thinking: string },
  original: { readonly text: string; readonly thinking: string },
): AssistantBlock[] {
  const out: AssistantBlock[] = [];
  let textPlaced = false;
  let thinkingPlaced = false;
  const textChanged = rewritten.text !== original.text;
  const thinkingChanged = rewritten.thinking !== original.thinking;
  for (const block of blocks) {
    if (block.type === "text" && textChanged) {
      if (!textPlaced && rewritten.text !== "") out.push({ type: "text", text: rewritten.text });
      textPlaced = true;
    } else if (block.type === "thinking" && thinkingChanged) {
      if (!thinkingPlaced) out.push({ type: "thinking", thinking: rewritten.thinking });
      thinkingPlaced = true;
    } else {
      out.push(block);
    }
  }
  if (!textPlaced && textChanged && rewritten.text !== "") {
    const firstCall = out.findIndex((block) => block.type === "tool_call");
    out.splice(firstCall === -1 ? out.length : firstCall, 0, {
      type: "text",
      text: rewritten.text,
    });
  }
  return out;
}
