import assert from "node:assert/strict";
import type { Message } from "../llm/messages.ts";
import { type MessageEntry, toMessage, toMessageFields } from "./entries.ts";
import { parseEntry } from "./parse_entry.ts";
import { CONVERSATION } from "./testdata/conversation.ts";

function asEntry(message: Message): MessageEntry {
  return {
    ...toMessageFields(message),
    id: "00000001",
    parentId: "",
    createdAt: "2026-01-01T00:00:00.000Z",
  };
}

Deno.test("toMessage() inverts toMessageFields() for every block type, through JSON", () => {
  for (const message of CONVERSATION) {
    const decoded = parseEntry(JSON.parse(JSON.stringify(asEntry(message))));
    assert.equal(decoded.kind, "message");
    if (decoded.kind !== "message") continue;
    assert.deepEqual(toMessage(decoded), message);
  }
});

Deno.test("toMessageFields() uses the on-disk field names of docs/formats.md", () => {
  const [, assistant, results] = CONVERSATION;
  assert.ok(assistant && results);
  assert.deepEqual(toMessageFields(assistant).blocks, [
    { type: "thinking", thinking: "I should run ls.", thinkingSignature: "sig-1" },
    { type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
    { type: "thinking", thinking: "no signature here" },
    { type: "text", text: "Running it.", textSignature: "msg_01" },
    {
      type: "tool_call",
      toolCallId: "call_1",
      toolCallName: "shell",
      toolCallArguments: { command: "ls", nested: { a: [1, null] } },
    },
    {
      type: "tool_call",
      toolCallId: "call_2",
      toolCallName: "shell",
      toolCallArguments: {},
      toolCallRawArguments: "{not json",
    },
  ]);
  assert.deepEqual(toMessageFields(results).blocks[1], {
    type: "tool_result",
    toolResultCallId: "call_2",
    toolResult: [{
      type: "text",
      text: "the tool was not executed: arguments are not a JSON object",
    }],
    toolResultIsError: true,
  });
});

Deno.test("toMessageFields() stores the response fields of assistant messages only", () => {
  const [user, assistant] = CONVERSATION;
  assert.ok(user && assistant);
  assert.deepEqual(Object.keys(toMessageFields(user)), ["kind", "role", "blocks"]);
  const fields = toMessageFields(assistant);
  assert.equal(fields.responseModel, "fake-model-2025");
  assert.equal(fields.responseStopReason, "tool_use");
  assert.deepEqual(fields.responseUsage, {
    inputTokens: 120,
    outputTokens: 40,
    reasoningTokens: 12,
    cacheReadTokens: 1000,
    cacheWriteTokens: 3,
  });
});

Deno.test("toMessage() maps a stop reason it does not know to unknown", () => {
  const entry: MessageEntry = {
    kind: "message",
    id: "a",
    parentId: "",
    createdAt: "",
    role: "assistant",
    blocks: [],
    responseModel: "m",
    responseStopReason: "pause_turn",
    responseUsage: null,
  };
  const message = toMessage(entry);
  assert.equal(message.role === "assistant" ? message.stopReason : "", "unknown");
});

const base = { id: "e1", parentId: "", createdAt: "2026-01-01T00:00:00.000Z" };

Deno.test("parseEntry() reads every kind of the spec", () => {
  const lines = [
    { kind: "compaction", ...base, summary: "s", keptId: "e0", tokensBefore: 900 },
    { kind: "agent", ...base, agent: "reviewer" },
    { kind: "model", ...base, model: "openai/gpt-4o" },
    { kind: "thinking", ...base, thinking: "high" },
    { kind: "leaf", ...base, targetId: "e0" },
    { kind: "title", ...base, title: "Fix the build" },
  ];
  for (const line of lines) assert.deepEqual(parseEntry(line), line);
});

Deno.test("parseEntry() keeps a kind it does not know as an unknown entry", () => {
  const raw = { kind: "label", id: "x1", parentId: "e1", createdAt: "", label: "ok" };
  assert.deepEqual(parseEntry(raw), { kind: "unknown", id: "x1", parentId: "e1", raw });
  assert.deepEqual(parseEntry({ kind: "future" }), {
    kind: "unknown",
    id: null,
    parentId: null,
    raw: { kind: "future" },
  });
});

Deno.test("parseEntry() names the field that is wrong", () => {
  const cases: [unknown, RegExp][] = [
    [[1], /must be an object \(found \[1\]\)/],
    [{ ...base }, /: kind: must be a string \(found nothing\)/],
    [
      { kind: "message", ...base, role: "system", blocks: [] },
      /: role: must be "user" or "assistant"/,
    ],
    [{ kind: "message", ...base, id: "", role: "user", blocks: [] }, /: id: must not be empty/],
    [
      { kind: "message", ...base, role: "user", blocks: [{ type: "text", text: 3 }] },
      /: blocks\[0\]\.text: must be a string \(found 3\)/,
    ],
    [
      { kind: "message", ...base, role: "user", blocks: [{ type: "tool_call" }] },
      /: blocks\[0\]\.type: a user message holds only "text", "tool_result" blocks/,
    ],
    [
      { kind: "message", ...base, role: "assistant", blocks: [{ type: "tool_result" }] },
      /: blocks\[0\]\.type: an assistant message holds only/,
    ],
    [
      {
        kind: "message",
        ...base,
        role: "user",
        blocks: [{
          type: "tool_result",
          toolResultCallId: "c",
          toolResult: [{ type: "image" }],
          toolResultIsError: false,
        }],
      },
      /: blocks\[0\]\.toolResult\[0\]\.type: must be "text"/,
    ],
    [
      {
        kind: "message",
        ...base,
        role: "assistant",
        blocks: [{
          type: "tool_call",
          toolCallId: "c",
          toolCallName: "n",
          toolCallArguments: "{}",
        }],
      },
      /: blocks\[0\]\.toolCallArguments: must be an object/,
    ],
    [
      {
        kind: "message",
        ...base,
        role: "assistant",
        blocks: [],
        responseUsage: { inputTokens: -1 },
      },
      /: responseUsage\.inputTokens: must be a whole number/,
    ],
    [
      { kind: "compaction", ...base, summary: "s", keptId: "", tokensBefore: "9" },
      /: tokensBefore:/,
    ],
    [{ kind: "header", version: 1 }, /a header is only allowed on the first line/],
  ];
  for (const [value, pattern] of cases) {
    assert.throws(() => parseEntry(value), pattern, JSON.stringify(value));
  }
});
