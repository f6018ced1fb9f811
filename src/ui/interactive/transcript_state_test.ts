import assert from "node:assert/strict";
import type { RunEvent } from "../../engine/events.ts";
import type { Usage } from "../../llm/messages.ts";
import {
  activityOf,
  applyEvent,
  emptyState,
  endTurnBlocks,
  LIVE_TAIL_CHARS,
  replayBlocks,
  type TranscriptState,
  withOutput,
} from "./transcript_state.ts";

const NO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

function run(...events: RunEvent[]): TranscriptState {
  const state = emptyState();
  for (const event of events) applyEvent(state, event, 0);
  return state;
}

const start: RunEvent = {
  type: "run_start",
  sessionId: "s",
  agent: "a",
  model: "m",
  diagnostics: [],
};
const end = (text: string): RunEvent => ({
  type: "message_end",
  text,
  model: "m",
  stopReason: "end_turn",
  usage: null,
});

Deno.test("applyEvent() gathers deltas into one streamed answer, which message_end finishes", () => {
  const state = run(
    start,
    { type: "thinking_delta", text: "hm" },
    { type: "thinking_delta", text: "m" },
    { type: "text_delta", text: "Hel" },
    { type: "text_delta", text: "lo" },
  );
  assert.deepEqual(state.blocks, [
    { kind: "thinking", text: "hmm", done: true },
    { kind: "assistant", text: "Hello", committed: 0, done: false },
  ]);
  applyEvent(state, end("Hello!"), 0);
  // A hook changed the answer before anything was committed: the stored text is shown.
  assert.deepEqual(state.blocks[1], {
    kind: "assistant",
    text: "Hello!",
    committed: 0,
    done: true,
  });
  assert.equal(state.answer, "Hello!");
  assert.equal(state.answered, true);
});

Deno.test("applyEvent() keeps what was committed of an answer a hook changed afterwards", () => {
  const state = run(start, { type: "text_delta", text: "Hello" });
  const block = state.blocks[0];
  assert.ok(block?.kind === "assistant");
  block.committed = 5;
  applyEvent(state, end("Bye"), 0);
  assert.equal(block.text, "Hello");
  assert.equal(state.answer, "Bye");
});

Deno.test("applyEvent() on retry drops the streamed blocks nothing of which was committed, and says so", () => {
  const state = run(
    start,
    { type: "thinking_delta", text: "x" },
    { type: "text_delta", text: "partial" },
  );
  applyEvent(state, { type: "retry", attempt: 1, delayMs: 1500, error: "status 503" }, 0);
  // The thinking ended when the answer began: it stays; the answer goes.
  assert.deepEqual(state.blocks, [
    { kind: "thinking", text: "x", done: true },
    { kind: "notice", text: "retrying in 1.5s: status 503", tone: "warning", done: true },
  ]);
  const shown = run(start, { type: "text_delta", text: "partial" });
  const block = shown.blocks[0];
  assert.ok(block?.kind === "assistant");
  block.committed = 3;
  applyEvent(shown, { type: "retry", attempt: 1, delayMs: 500, error: "cut" }, 0);
  assert.equal(shown.blocks.length, 2);
  assert.match(
    shown.blocks[1]?.kind === "notice" ? shown.blocks[1].text : "",
    /\(the partial answer above is discarded\)$/,
  );
});

Deno.test("activityOf() follows the turn: waiting, thinking, writing, running a tool, idle", () => {
  const state = emptyState();
  assert.equal(activityOf(state), null);
  const steps: [RunEvent, string | null][] = [
    [start, "waiting for the model"],
    [{ type: "thinking_delta", text: "t" }, "thinking"],
    [{ type: "text_delta", text: "a" }, "writing"],
    [{ type: "tool_call", id: "c1", name: "shell", arguments: {} }, "running shell"],
    [
      { type: "tool_result", id: "c1", name: "shell", text: "ok", isError: false },
      "waiting for the model",
    ],
    [{ type: "run_end", reason: "end_turn", text: "", usage: NO_USAGE, turns: 1 }, null],
  ];
  for (const [event, activity] of steps) {
    applyEvent(state, event, 0);
    assert.equal(activityOf(state), activity, event.type);
  }
});

Deno.test("endTurnBlocks() ends unfinished tools as interrupted, notes the end, and adds a footnote only after a request", () => {
  const state = run(start, { type: "tool_call", id: "c1", name: "shell", arguments: {} });
  endTurnBlocks(state, { reason: "interrupted", usage: NO_USAGE, durationMs: 1234 }, 0);
  assert.deepEqual(
    state.blocks.map((block) =>
      block.kind === "tool" ? block.view.result : block.kind === "notice" ? block.text : block.kind
    ),
    [{ text: "interrupted", isError: true }, "interrupted"],
  );
  const answered = run(start, end("hi"));
  endTurnBlocks(answered, {
    reason: "error",
    error: "boom",
    usage: { ...NO_USAGE, inputTokens: 24_600, outputTokens: 12 },
    durationMs: 2500,
  }, 0);
  const notices = answered.blocks.flatMap((block) => block.kind === "notice" ? [block.text] : []);
  assert.deepEqual(notices, ["boom", "2.5s · 24.6k in · 12 out"]);
  assert.equal(answered.answered, false);
});

Deno.test("replayBlocks() pairs tool calls with their results, leaves thinking out, and finishes a call left without one", () => {
  const blocks = replayBlocks(
    [
      { role: "user", blocks: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "plan" },
          { type: "text", text: "ok" },
          { type: "tool_call", id: "c1", name: "ls", arguments: {} },
          { type: "tool_call", id: "c2", name: "read", arguments: {} },
        ],
      },
      {
        role: "user",
        blocks: [{
          type: "tool_result",
          callId: "c1",
          content: [{ type: "text", text: "a b" }],
          isError: false,
        }],
      },
    ] as Parameters<typeof replayBlocks>[0],
  );
  assert.deepEqual(
    blocks.map((block) => block.kind === "tool" ? [block.id, block.view.result] : [block.kind]),
    [["user"], ["assistant"], ["c1", { text: "a b", isError: false }], ["c2", {
      text: "",
      isError: false,
    }]],
  );
});

Deno.test("withOutput() keeps the tail of live output and counts the lines it dropped", () => {
  const view = { name: "shell", args: {}, output: "", result: null };
  const lines = "line\n".repeat(4000); // 20,000 characters: the first 3,616 are cut
  const cut = withOutput(view, lines);
  assert.equal(cut.output.length, LIVE_TAIL_CHARS);
  // 723 whole lines end before the cut; the 724th is cut inside and shows its end.
  assert.equal(cut.earlierLines, 723);
  // Never between the halves of a surrogate pair.
  const emoji = withOutput(view, "😀".repeat(LIVE_TAIL_CHARS));
  assert.ok(!/^[\udc00-\udfff]/.test(emoji.output));
});
