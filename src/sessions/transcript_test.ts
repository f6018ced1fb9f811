import assert from "node:assert/strict";
import type { Entry, HeaderEntry } from "./entries.ts";
import { formatTranscript } from "./transcript.ts";

const HEADER: HeaderEntry = {
  kind: "header",
  version: 1,
  id: "01k5aaaaaaaaaaaaaaaaaaaaaa",
  createdAt: "2026-01-01T00:00:00.000Z",
  agent: "coder",
  model: "fake/m",
  workdir: "/w",
};

const base = (id: string, parentId: string) => ({ id, parentId, createdAt: "" });

Deno.test("formatTranscript() shows prompts, answers, tool calls, results, compactions and switches in order", () => {
  const entries: Entry[] = [
    {
      kind: "message",
      ...base("a", ""),
      role: "user",
      blocks: [{ type: "text", text: "list the files" }],
    },
    {
      kind: "message",
      ...base("b", "a"),
      role: "assistant",
      responseModel: "fake-model",
      blocks: [
        { type: "thinking", thinking: "ls will do" },
        { type: "text", text: "Looking." },
        {
          type: "tool_call",
          toolCallId: "c1",
          toolCallName: "shell",
          toolCallArguments: { command: "ls" },
        },
        { type: "tool_call", toolCallId: "c2", toolCallName: "shell", toolCallArguments: {} },
      ],
    },
    {
      kind: "message",
      ...base("c", "b"),
      role: "user",
      blocks: [
        {
          type: "tool_result",
          toolResultCallId: "c1",
          toolResult: [{ type: "text", text: "a.txt\n" }],
          toolResultIsError: false,
        },
        {
          type: "tool_result",
          toolResultCallId: "c2",
          toolResult: [],
          toolResultIsError: true,
        },
      ],
    },
    {
      kind: "compaction",
      ...base("d", "c"),
      summary: "## Objective\nfiles\n",
      keptId: "c",
      tokensBefore: 900,
    },
    { kind: "model", ...base("e", "d"), model: "fake/other" },
    { kind: "agent", ...base("f", "e"), agent: "reviewer" },
    { kind: "title", ...base("g", "f"), title: "Files" },
    { kind: "unknown", id: "h", parentId: "g", raw: { kind: "bookmark" } },
  ];
  assert.equal(
    formatTranscript({ header: HEADER, entries }),
    [
      "session 01k5aaaaaaaaaaaaaaaaaaaaaa",
      "agent coder, model fake/m, started 2026-01-01T00:00:00.000Z in /w",
      "",
      "── user ──",
      "list the files",
      "",
      "── assistant (fake-model) ──",
      "(thinking) ls will do",
      "Looking.",
      'tool call shell {"command":"ls"}',
      "tool call shell {}",
      "",
      "── tool results ──",
      "shell:",
      "a.txt",
      "",
      "shell failed:",
      "(no output)",
      "",
      "── compaction (about 900 tokens summarised) ──",
      "## Objective",
      "files",
      "",
      "── model switched to fake/other ──",
      "",
      "── agent switched to reviewer ──",
      "",
      '── titled "Files" ──',
      "",
      '── entry of unknown kind "bookmark" ──',
      "",
    ].join("\n"),
  );
});

Deno.test("formatTranscript() shows only the active branch after a rewind", () => {
  const entries: Entry[] = [
    { kind: "message", ...base("a", ""), role: "user", blocks: [{ type: "text", text: "one" }] },
    {
      kind: "message",
      ...base("b", "a"),
      role: "user",
      blocks: [{ type: "text", text: "abandoned" }],
    },
    { kind: "leaf", ...base("l", "b"), targetId: "a" },
    { kind: "message", ...base("c", "a"), role: "user", blocks: [{ type: "text", text: "two" }] },
  ];
  const text = formatTranscript({ header: HEADER, entries });
  assert.ok(text.includes("one") && text.includes("two"), text);
  assert.ok(!text.includes("abandoned"), text);
});
