import assert from "node:assert/strict";
import { startFakeProvider, type Turn } from "./fake_provider.ts";
import { at } from "./json.ts";
import { postForEvents, type ReadEvent } from "./sse_client.ts";

async function chatEvents(turn: Turn): Promise<ReadEvent[]> {
  await using provider = await startFakeProvider([turn]);
  const answer = await postForEvents(`${provider.url}/chat/completions`, { model: "fake-model" });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get("content-type"), "text/event-stream; charset=utf-8");
  return answer.events;
}

function deltas(events: readonly ReadEvent[], field: string): string {
  return events.map((event) => at(event.json, "choices", 0, "delta", field))
    .filter((value) => typeof value === "string").join("");
}

function finishReasons(events: readonly ReadEvent[]): unknown[] {
  return events.map((event) => at(event.json, "choices", 0, "finish_reason"))
    .filter((value) => value !== null && value !== undefined);
}

Deno.test("chat codec streams text in the asked number of content deltas and ends with [DONE]", async () => {
  const events = await chatEvents({ text: "hello world", chunks: 3 });
  assert.deepEqual(at(events[0]?.json, "choices", 0, "delta"), { role: "assistant", content: "" });
  const contents = events.slice(1, 4).map((event) =>
    at(event.json, "choices", 0, "delta", "content")
  );
  assert.equal(contents.length, 3);
  assert.equal(contents.join(""), "hello world");
  assert.equal(at(events[0]?.json, "object"), "chat.completion.chunk");
  assert.deepEqual(finishReasons(events), ["stop"]);
  assert.equal(events.at(-1)?.data, "[DONE]");
  assert.ok(events.every((event) => event.event === undefined));
});

Deno.test("chat codec sends thinking as reasoning_content before the text", async () => {
  const events = await chatEvents({ thinking: "let me think", text: "ok", chunks: 2 });
  assert.equal(deltas(events, "reasoning_content"), "let me think");
  const firstText = events.findIndex((event) =>
    at(event.json, "choices", 0, "delta", "content") === "o"
  );
  const lastThinking = events.findLastIndex((event) =>
    at(event.json, "choices", 0, "delta", "reasoning_content") !== undefined
  );
  assert.ok(lastThinking < firstText);
});

Deno.test("chat codec streams tool calls by index with fragmented arguments that reassemble", async () => {
  const events = await chatEvents({
    toolCalls: [
      { name: "shell", arguments: { command: "echo hi" }, fragments: 4 },
      { name: "shell", id: "second", rawArguments: '{"command":', fragments: 2 },
    ],
  });
  const calls = new Map<number, { id: unknown; name: unknown; args: string; pieces: number }>();
  for (const event of events) {
    const call = at(event.json, "choices", 0, "delta", "tool_calls", 0);
    const index = at(call, "index");
    if (typeof index !== "number") continue;
    const known = calls.get(index);
    if (known === undefined) {
      assert.equal(at(call, "type"), "function");
      assert.equal(at(call, "function", "arguments"), "");
      calls.set(index, {
        id: at(call, "id"),
        name: at(call, "function", "name"),
        args: "",
        pieces: 0,
      });
    } else {
      known.args += String(at(call, "function", "arguments"));
      known.pieces += 1;
    }
  }
  assert.deepEqual([...calls.entries()], [
    [0, { id: "call_1", name: "shell", args: '{"command":"echo hi"}', pieces: 4 }],
    [1, { id: "second", name: "shell", args: '{"command":', pieces: 2 }],
  ]);
  assert.deepEqual(finishReasons(events), ["tool_calls"]);
});

Deno.test("chat codec reports usage in a last chunk with no choices", async () => {
  const events = await chatEvents({
    text: "x",
    usage: { input: 100, output: 20, cachedInput: 40, reasoning: 5 },
  });
  const usageEvent = events.at(-2);
  assert.deepEqual(at(usageEvent?.json, "choices"), []);
  assert.deepEqual(at(usageEvent?.json, "usage"), {
    prompt_tokens: 140,
    completion_tokens: 20,
    total_tokens: 160,
    prompt_tokens_details: { cached_tokens: 40, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 5, audio_tokens: 0 },
  });
});

Deno.test("chat codec sends no usage chunk when the turn's usage is null", async () => {
  const events = await chatEvents({ text: "x", usage: null });
  assert.ok(events.every((event) => at(event.json, "usage") === undefined));
  assert.equal(events.at(-1)?.data, "[DONE]");
});

Deno.test("chat codec uses the finishReason override verbatim", async () => {
  const events = await chatEvents({ text: "x", finishReason: "length" });
  assert.deepEqual(finishReasons(events), ["length"]);
});

Deno.test("chat codec answers an empty turn with a valid stream without content", async () => {
  const events = await chatEvents({});
  assert.equal(deltas(events, "content"), "");
  assert.deepEqual(finishReasons(events), ["stop"]);
  assert.equal(events.length, 4);
  assert.equal(events.at(-1)?.data, "[DONE]");
});
