import assert from "node:assert/strict";
import { startFakeProvider, type Turn } from "./fake_provider.ts";
import { at } from "./json.ts";
import { postForEvents, type ReadEvent } from "./sse_client.ts";

async function responsesEvents(turn: Turn): Promise<ReadEvent[]> {
  await using provider = await startFakeProvider([turn]);
  const answer = await postForEvents(`${provider.url}/responses`, { model: "gpt-x" });
  assert.equal(answer.status, 200);
  answer.events.forEach((event, index) => {
    assert.equal(event.event, at(event.json, "type"));
    assert.equal(at(event.json, "sequence_number"), index);
  });
  return answer.events;
}

function named(events: readonly ReadEvent[], name: string): unknown[] {
  return events.filter((event) => event.event === name).map((event) => event.json);
}

Deno.test("responses codec streams a message item between created and completed", async () => {
  const events = await responsesEvents({ text: "hello", chunks: 2 });
  assert.deepEqual(events.map((event) => event.event), [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
    "response.completed",
  ]);
  assert.deepEqual(
    named(events, "response.output_text.delta").map((event) => at(event, "delta")),
    ["hel", "lo"],
  );
  const done = named(events, "response.output_item.done")[0];
  assert.deepEqual(at(done, "item"), {
    id: "msg_fake1",
    type: "message",
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", annotations: [], text: "hello" }],
  });
  const completed = named(events, "response.completed")[0];
  assert.equal(at(completed, "response", "status"), "completed");
  assert.equal(at(completed, "response", "model"), "gpt-x");
  assert.deepEqual(at(completed, "response", "output"), [at(done, "item")]);
});

Deno.test("responses codec sends reasoning as a summary with encrypted content first", async () => {
  const events = await responsesEvents({ thinking: "think", thinkingSignature: "enc", text: "ok" });
  const items = named(events, "response.output_item.done").map((event) => at(event, "item"));
  assert.deepEqual(items[0], {
    id: "rs_fake1",
    type: "reasoning",
    encrypted_content: "enc",
    summary: [{ type: "summary_text", text: "think" }],
  });
  assert.equal(at(items[1], "type"), "message");
  assert.deepEqual(
    named(events, "response.reasoning_summary_text.delta").map((event) => at(event, "delta")),
    ["think"],
  );
});

Deno.test("responses codec streams function_call items whose argument deltas reassemble", async () => {
  const events = await responsesEvents({
    toolCalls: [{ name: "shell", arguments: { command: "pwd" }, fragments: 3 }],
  });
  const deltas = named(events, "response.function_call_arguments.delta");
  assert.equal(deltas.length, 3);
  assert.equal(deltas.map((event) => at(event, "delta")).join(""), '{"command":"pwd"}');
  const added = named(events, "response.output_item.added")[0];
  assert.deepEqual(at(added, "item"), {
    id: "fc_fake1_1",
    type: "function_call",
    call_id: "call_1",
    name: "shell",
    status: "in_progress",
    arguments: "",
  });
  const done = named(events, "response.output_item.done")[0];
  assert.equal(at(done, "item", "arguments"), '{"command":"pwd"}');
  assert.equal(at(done, "item", "call_id"), "call_1");
});

Deno.test("responses codec puts the usage in response.completed", async () => {
  const events = await responsesEvents({
    text: "x",
    usage: { input: 100, output: 20, cachedInput: 40, reasoning: 5 },
  });
  const completed = named(events, "response.completed")[0];
  assert.deepEqual(at(completed, "response", "usage"), {
    input_tokens: 140,
    input_tokens_details: { cached_tokens: 40 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 5 },
    total_tokens: 160,
  });
});

Deno.test("responses codec ends with response.incomplete when a finishReason is given", async () => {
  const events = await responsesEvents({ text: "x", finishReason: "max_output_tokens" });
  const last = events.at(-1);
  assert.equal(last?.event, "response.incomplete");
  assert.equal(at(last?.json, "response", "status"), "incomplete");
  assert.deepEqual(at(last?.json, "response", "incomplete_details"), {
    reason: "max_output_tokens",
  });
});

Deno.test("responses codec answers an empty turn with a completed response without output", async () => {
  const events = await responsesEvents({});
  assert.deepEqual(events.map((event) => event.event), [
    "response.created",
    "response.in_progress",
    "response.completed",
  ]);
  assert.deepEqual(at(events[2]?.json, "response", "output"), []);
});
