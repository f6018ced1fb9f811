/**
 * `session/load`: a stored session's active branch → the `session/update`s
 * that show it again — user text as `user_message_chunk`, answers and
 * thinking as agent chunks, each tool call as `tool_call` followed by a
 * `tool_call_update` with its final status and result text. A compacted
 * branch starts with its summary as an agent chunk.
 *
 * @module
 */

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Message } from "../llm/messages.ts";
import { toolCallView } from "./tool_call_view.ts";

/** The updates that replay `messages` (after `summary`, if the branch was compacted). */
export function replayUpdates(
  messages: readonly Message[],
  summary: string | null,
  workdir: string,
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const chunk = (
    kind: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk",
    text: string,
  ) => {
    if (text !== "") updates.push({ sessionUpdate: kind, content: { type: "text", text } });
  };
  if (summary !== null) {
    chunk("agent_message_chunk", `(earlier conversation, summarised)\n\n${summary}`);
  }
  for (const message of messages) {
    for (const block of message.blocks) {
      switch (block.type) {
        case "text":
          chunk(message.role === "user" ? "user_message_chunk" : "agent_message_chunk", block.text);
          break;
        case "thinking":
          chunk("agent_thought_chunk", block.thinking);
          break;
        case "tool_call": {
          const view = toolCallView(block.name, block.arguments, workdir);
          updates.push({
            sessionUpdate: "tool_call",
            toolCallId: block.id,
            title: view.title,
            kind: view.kind,
            status: "in_progress",
            locations: view.locations,
            rawInput: block.arguments,
          });
          break;
        }
        case "tool_result":
          updates.push({
            sessionUpdate: "tool_call_update",
            toolCallId: block.callId,
            status: block.isError ? "failed" : "completed",
            content: [{
              type: "content",
              content: { type: "text", text: block.content.map((part) => part.text).join("") },
            }],
          });
          break;
        default:
          block satisfies never;
      }
    }
  }
  return updates;
}
