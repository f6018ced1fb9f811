import assert from "node:assert/strict";
import { createProbe, eventLog, scriptedModel } from "../../tests/_testing/engine_fakes.ts";
import type { ModelClient, ModelEvent } from "../llm/model_events.ts";
import { streamModelTurn } from "./model_turn.ts";

const REQUEST = { system: "s", messages: [], tools: [] };

function streaming(events: readonly ModelEvent[]): ModelClient {
  return {
    ref: "fake/m",
    async *stream() {
      for (const event of events) {
        await Promise.resolve();
        yield event;
      }
    },
  };
}

Deno.test("streamModelTurn() forwards deltas and retries, and returns the message", async () => {
  const probe = createProbe();
  const log = eventLog();
  const message = await streamModelTurn({
    model: scriptedModel(probe, [{ text: "hi" }]),
    request: REQUEST,
    emit: log.emit,
    signal: probe.signal,
    withholdDeltas: false,
  });
  assert.deepEqual(message.blocks, [{ type: "text", text: "hi" }]);
  assert.deepEqual(log.events, [{ type: "text_delta", text: "hi" }]);
});

Deno.test("streamModelTurn() withholds text for a rewriting hook but not retries", async () => {
  const log = eventLog();
  await streamModelTurn({
    model: streaming([
      { type: "text_delta", text: "raw" },
      { type: "retry", attempt: 1, delayMs: 10, error: "HTTP 500" },
      { type: "thinking_delta", text: "raw" },
      {
        type: "done",
        message: { role: "assistant", blocks: [], model: "m", stopReason: "end_turn", usage: null },
      },
    ]),
    request: REQUEST,
    emit: log.emit,
    signal: new AbortController().signal,
    withholdDeltas: true,
  });
  assert.deepEqual(log.events, [{ type: "retry", attempt: 1, delayMs: 10, error: "HTTP 500" }]);
});

Deno.test("streamModelTurn() fails on a stream without a response, and on an interrupt", async () => {
  const options = { request: REQUEST, emit: () => {}, withholdDeltas: false };
  await assert.rejects(
    streamModelTurn({
      ...options,
      model: streaming([{ type: "text_delta", text: "cut" }]),
      signal: new AbortController().signal,
    }),
    /the model stream ended without a response/,
  );
  const probe = createProbe(2);
  await assert.rejects(
    streamModelTurn({
      ...options,
      model: scriptedModel(probe, [{ text: "hi" }]),
      signal: probe.signal,
    }),
    (error: unknown) => error instanceof DOMException && error.name === "AbortError",
  );
});
