import assert from "node:assert/strict";
import { userText } from "../llm/messages.ts";
import type { BranchContext } from "../sessions/history.ts";
import {
  switchEntries,
  UNANSWERED_CALL_RESULT,
  unansweredCalls,
  UNFINISHED_CALL_RESULT,
} from "./continue_session.ts";

/** A branch whose last answer makes two calls and has no results. */
const CALLS: BranchContext["messages"] = [
  userText("go"),
  {
    role: "assistant",
    blocks: [
      { type: "text", text: "Running." },
      { type: "tool_call", id: "c1", name: "shell", arguments: {} },
      { type: "tool_call", id: "c2", name: "http", arguments: {} },
    ],
    model: "m",
    stopReason: "tool_use",
    usage: null,
  },
];

function branch(
  messages: BranchContext["messages"],
  startedCalls: readonly string[] = [],
): BranchContext {
  return {
    startedCalls: new Set(startedCalls),
    compaction: null,
    messages,
    messageIds: messages.map((_, index) => `m${index}`),
    agent: "coder",
    agentFile: null,
    model: "fake/m",
    thinking: null,
  };
}

Deno.test("unansweredCalls() answers every call of a last assistant message with an error", () => {
  const repair = unansweredCalls(branch(CALLS));
  assert.deepEqual(repair, {
    role: "user",
    blocks: ["c1", "c2"].map((callId) => ({
      type: "tool_result",
      callId,
      content: [{ type: "text", text: UNANSWERED_CALL_RESULT }],
      isError: true,
    })),
  });
});

Deno.test("unansweredCalls() says a call whose tool had started may have had effects", () => {
  const repair = unansweredCalls(branch(CALLS, ["c1"]));
  assert.deepEqual(
    repair?.blocks.map((block) => block.type === "tool_result" ? block.content[0]?.text : ""),
    [UNFINISHED_CALL_RESULT, UNANSWERED_CALL_RESULT],
  );
  assert.equal(UNFINISHED_CALL_RESULT, "the run ended while the tool ran; it may have had effects");
});

Deno.test("unansweredCalls() is null when the branch ends with a prompt, results or an answer", () => {
  assert.equal(unansweredCalls(branch([])), null);
  assert.equal(unansweredCalls(branch([userText("go")])), null);
  assert.equal(
    unansweredCalls(branch([userText("go"), {
      role: "assistant",
      blocks: [{ type: "text", text: "Done." }],
      model: "m",
      stopReason: "end_turn",
      usage: null,
    }])),
    null,
  );
});

Deno.test("switchEntries() writes one entry per changed value, agent first", () => {
  const current = { agent: "coder", agentFile: null, model: "fake/m", thinking: null };
  assert.deepEqual(switchEntries(current, current), []);
  assert.deepEqual(
    switchEntries(current, { agent: "rev", agentFile: null, model: "x/y", thinking: "high" }),
    [
      { kind: "agent", agent: "rev" },
      { kind: "model", model: "x/y" },
      { kind: "thinking", thinking: "high" },
    ],
  );
  // The same id from a file (-f) is a switch that records the file.
  assert.deepEqual(switchEntries(current, { ...current, agentFile: "/work/coder.md" }), [
    { kind: "agent", agent: "coder", agentFile: "/work/coder.md" },
  ]);
  assert.deepEqual(
    switchEntries({ ...current, thinking: "high" }, { ...current, thinking: null }),
    [{ kind: "thinking", thinking: "off" }],
  );
});
