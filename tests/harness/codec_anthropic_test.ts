import assert from "node:assert/strict";
import { startFakeProvider, type Turn } from "./fake_provider.ts";
import { at } from "./json.ts";
import { postForEvents, type ReadEvent } from "./sse_client.ts";

async function anthropicEvents(turn: Turn): Promise<ReadEvent[]> {
  await using provider = await startFakeProvider([turn]);
  const answer = await postForEvents(`${provider.url}/messages`, { model: "claude-x" });
  assert.equal(answer.status, 200);
  for (const event of answer.events) assert.equal(event.event, at(event.json, "type"));
  return answer.events;
}

function names(events: readonly ReadEvent[]): (string | undefined)[] {
  return events.map((event) => event.event);
}

function blockDeltas(events: readonly ReadEvent[], index: number): unknown[] {
  return events.filter((event) =>
    event.event === "content_block_delta" && at(event.json, "index") === index
  ).map((event) => at(event.json, "delta"));
}

Deno.test("anthropic codec frames a text answer from message_start to message_stop", async () => {
  const events = await anthropicEvents({ text: "hello", chunks: 2 });
  assert.deepEqual(names(events), [
    "message_start",
    "ping",
    "content_block_start",
    "content_block_delta",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
  ]);
  assert.equal(at(events[0]?.json, "message", "model"), "claude-x");
  assert.equal(at(events[0]?.json, "message", "role"), "assistant");
  assert.deepEqual(at(events[2]?.json, "content_block"), { type: "text", text: "" });
  assert.deepEqual(blockDeltas(events, 0), [
    { type: "text_delta", text: "hel" },
    { type: "text_delta", text: "lo" },
  ]);
  assert.deepEqual(at(events[6]?.json, "delta"), { stop_reason: "end_turn", stop_sequence: null });
});

Deno.test("anthropic codec sends thinking with its signature as block 0 before the text", async () => {
  const events = await anthropicEvents({ thinking: "hmm", thinkingSignature: "sig-1", text: "ok" });
  const starts = events.filter((event) => event.event === "content_block_start")
    .map((event) => [at(event.json, "index"), at(event.json, "content_block", "type")]);
  assert.deepEqual(starts, [[0, "thinking"], [1, "text"]]);
  assert.deepEqual(blockDeltas(events, 0), [
    { type: "thinking_delta", thinking: "hmm" },
    { type: "signature_delta", signature: "sig-1" },
  ]);
});

Deno.test("anthropic codec streams tool_use blocks whose input_json_delta pieces reassemble", async () => {
  const events = await anthropicEvents({
    text: "checking",
    toolCalls: [
      { name: "shell", arguments: { command: "ls" }, fragments: 3 },
      { name: "ghost", id: "toolu_2" },
    ],
  });
  const toolStarts = events.filter((event) =>
    at(event.json, "content_block", "type") === "tool_use"
  ).map((event) => at(event.json, "content_block"));
  assert.deepEqual(toolStarts, [
    { type: "tool_use", id: "call_1", name: "shell", input: {} },
    { type: "tool_use", id: "toolu_2", name: "ghost", input: {} },
  ]);
  const pieces = blockDeltas(events, 1).map((delta) => at(delta, "partial_json"));
  assert.equal(pieces.length, 3);
  assert.equal(pieces.join(""), '{"command":"ls"}');
  assert.deepEqual(blockDeltas(events, 2), [{ type: "input_json_delta", partial_json: "{}" }]);
  const messageDelta = events.find((event) => event.event === "message_delta");
  assert.equal(at(messageDelta?.json, "delta", "stop_reason"), "tool_use");
});

Deno.test("anthropic codec splits usage between message_start and message_delta", async () => {
  const events = await anthropicEvents({
    text: "x",
    usage: { input: 12, output: 34, cachedInput: 56, cacheWrite: 78 },
    finishReason: "max_tokens",
  });
  assert.deepEqual(at(events[0]?.json, "message", "usage"), {
    input_tokens: 12,
    cache_creation_input_tokens: 78,
    cache_read_input_tokens: 56,
    output_tokens: 1,
  });
  const messageDelta = events.find((event) => event.event === "message_delta");
  assert.deepEqual(at(messageDelta?.json, "usage"), { output_tokens: 34 });
  assert.equal(at(messageDelta?.json, "delta", "stop_reason"), "max_tokens");
});

Deno.test("anthropic codec answers an empty turn with no content blocks", async () => {
  const events = await anthropicEvents({});
  assert.deepEqual(names(events), ["message_start", "ping", "message_delta", "message_stop"]);
});
