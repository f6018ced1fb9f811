/**
 * A conversation holding every block type and optional field, for round-trip
 * tests of the session store.
 *
 * @module
 */

import type { Message } from "../../llm/messages.ts";

/** Messages covering text, signed text, thinking (signed, redacted), tool calls and results. */
export const CONVERSATION: readonly Message[] = [
  { role: "user", blocks: [{ type: "text", text: "list the files\nand count them" }] },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "I should run ls.", signature: "sig-1" },
      { type: "thinking", thinking: "", signature: "opaque", redacted: true },
      { type: "thinking", thinking: "no signature here" },
      { type: "text", text: "Running it.", signature: "msg_01" },
      {
        type: "tool_call",
        id: "call_1",
        name: "shell",
        arguments: { command: "ls", nested: { a: [1, null] } },
      },
      { type: "tool_call", id: "call_2", name: "shell", arguments: {}, rawArguments: "{not json" },
    ],
    model: "fake-model-2025",
    stopReason: "tool_use",
    usage: {
      inputTokens: 120,
      outputTokens: 40,
      reasoningTokens: 12,
      cacheReadTokens: 1000,
      cacheWriteTokens: 3,
    },
  },
  {
    role: "user",
    blocks: [
      {
        type: "tool_result",
        callId: "call_1",
        content: [{ type: "text", text: "a.txt\nb.txt\n" }, {
          type: "text",
          text: "command exited with code 0",
        }],
        isError: false,
      },
      {
        type: "tool_result",
        callId: "call_2",
        content: [{
          type: "text",
          text: "the tool was not executed: arguments are not a JSON object",
        }],
        isError: true,
      },
    ],
  },
  {
    role: "assistant",
    blocks: [{ type: "text", text: "Two files: a.txt and b.txt. ✓" }],
    model: "fake-model-2025",
    stopReason: "end_turn",
    usage: null,
  },
];
