import {
  deepStrictEqual as assertEquals,
  ok,
  rejects as assertRejects,
  strictEqual,
} from "node:assert/strict";
import type { ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { anthropicStopReason, streamAnthropic } from "./anthropic.ts";
import { fakeFetch, type FakeReply } from "../../tests/_testing/fake_fetch.ts";
import { ProviderError } from "./http_errors.ts";
import type { ProtocolOptions } from "./protocol.ts";

const REQUEST: ModelRequest = {
  system: "You answer briefly.",
  messages: [{ role: "user", blocks: [{ type: "text", text: "list files" }] }],
  tools: [],
};

async function run(replies: readonly FakeReply[], extra: Partial<ProtocolOptions> = {}) {
  const fake = fakeFetch(replies);
  const options: ProtocolOptions = {
    baseUrl: "http://fake.test/v1",
    apiKey: "sk-ant-test",
    headers: {},
    modelId: "claude-test",
    fetch: fake.fetch,
    ...extra,
  };
  const events = await Array.fromAsync(
    streamAnthropic(options, REQUEST, new AbortController().signal),
  );
  return { events, requests: fake.requests };
}

function doneOf(events: readonly ModelEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`expected a done event, got ${JSON.stringify(last)}`);
  return last.message;
}

function event(type: string, fields: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const MESSAGE_START = event("message_start", {
  message: {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-test-20250101",
    content: [],
    "stop_reason": null,
    usage: {
      "input_tokens": 25,
      "cache_creation_input_tokens": 100,
      "cache_read_input_tokens": 400,
      "output_tokens": 1,
    },
  },
});

/** A recorded stream: signed thinking, text, then a tool call whose JSON arrives in pieces. */
const TOOL_STREAM = [
  MESSAGE_START,
  event("ping"),
  event("content_block_start", {
    index: 0,
    "content_block": { type: "thinking", thinking: "", signature: "" },
  }),
  event("content_block_delta", {
    index: 0,
    delta: { type: "thinking_delta", thinking: "I should " },
  }),
  event("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "list." } }),
  event("content_block_delta", { index: 0, delta: { type: "signature_delta", signature: "EqQB" } }),
  event("content_block_stop", { index: 0 }),
  event("content_block_start", { index: 1, "content_block": { type: "text", text: "" } }),
  event("content_block_delta", { index: 1, delta: { type: "text_delta", text: "Running " } }),
  event("content_block_delta", { index: 1, delta: { type: "text_delta", text: "ls." } }),
  event("content_block_stop", { index: 1 }),
  event("content_block_start", {
    index: 2,
    "content_block": { type: "tool_use", id: "toolu_01", name: "shell", input: {} },
  }),
  event("content_block_delta", {
    index: 2,
    delta: { type: "input_json_delta", "partial_json": '{"comma' },
  }),
  event("content_block_delta", {
    index: 2,
    delta: { type: "input_json_delta", "partial_json": 'nd":"ls"}' },
  }),
  event("content_block_stop", { index: 2 }),
  event("message_delta", {
    delta: { "stop_reason": "tool_use", "stop_sequence": null },
    usage: { "output_tokens": 42 },
  }),
  event("message_stop"),
].join("");

Deno.test("streamAnthropic() decodes signed thinking, text and a tool call across chunk boundaries", async () => {
  const { events, requests } = await run([{ kind: "sse", chunks: pieces(TOOL_STREAM, 7) }]);
  strictEqual(requests[0]?.url, "http://fake.test/v1/messages");
  assertEquals(events.slice(0, -1), [
    { type: "thinking_delta", text: "I should " },
    { type: "thinking_delta", text: "list." },
    { type: "text_delta", text: "Running " },
    { type: "text_delta", text: "ls." },
  ]);
  assertEquals(doneOf(events), {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "I should list.", signature: "EqQB" },
      { type: "text", text: "Running ls." },
      { type: "tool_call", id: "toolu_01", name: "shell", arguments: { command: "ls" } },
    ],
    model: "claude-test-20250101",
    stopReason: "tool_use",
    usage: {
      inputTokens: 25,
      outputTokens: 42,
      reasoningTokens: 0,
      cacheReadTokens: 400,
      cacheWriteTokens: 100,
    },
  });
});

Deno.test("streamAnthropic() keeps a redacted thinking block's data as its signature", async () => {
  const stream = [
    MESSAGE_START,
    event("content_block_start", {
      index: 0,
      "content_block": { type: "redacted_thinking", data: "opaque-data" },
    }),
    event("content_block_stop", { index: 0 }),
    event("content_block_start", { index: 1, "content_block": { type: "text", text: "Done." } }),
    event("content_block_stop", { index: 1 }),
    event("message_delta", { delta: { "stop_reason": "end_turn" }, usage: { "output_tokens": 3 } }),
    event("message_stop"),
  ].join("");
  const { events } = await run([{ kind: "sse", chunks: [stream] }]);
  const message = doneOf(events);
  assertEquals(message.blocks, [
    { type: "thinking", thinking: "", signature: "opaque-data", redacted: true },
    { type: "text", text: "Done." },
  ]);
  strictEqual(message.stopReason, "end_turn");
});

Deno.test("streamAnthropic() turns an overloaded error event into a retryable ProviderError", async () => {
  const stream = MESSAGE_START +
    event("error", { error: { type: "overloaded_error", message: "Overloaded" } });
  await assertRejects(run([{ kind: "sse", chunks: [stream] }]), (error: unknown) => {
    ok(error instanceof ProviderError);
    strictEqual(error.kind, "overloaded");
    strictEqual(error.retryable, true);
    strictEqual(error.message, "Overloaded");
    return true;
  });
});

Deno.test("streamAnthropic() maps HTTP 529 to overloaded and 401 to auth", async () => {
  const overloaded = JSON.stringify({
    type: "error",
    error: { type: "overloaded_error", message: "Overloaded" },
  });
  await assertRejects(run([{ kind: "status", status: 529, body: overloaded }]), (error) => {
    ok(error instanceof ProviderError);
    assertEquals([error.kind, error.retryable, error.status], ["overloaded", true, 529]);
    return true;
  });
  const auth = JSON.stringify({
    type: "error",
    error: { type: "authentication_error", message: "invalid x-api-key" },
  });
  await assertRejects(run([{ kind: "status", status: 401, body: auth }]), (error) => {
    ok(error instanceof ProviderError);
    assertEquals([error.kind, error.retryable, error.message], [
      "auth",
      false,
      "invalid x-api-key (status 401)",
    ]);
    return true;
  });
});

Deno.test("streamAnthropic() reports a stream that ends before message_stop as cut", async () => {
  const half = TOOL_STREAM.slice(0, TOOL_STREAM.indexOf("event: message_delta"));
  await assertRejects(run([{ kind: "sse", chunks: [half] }]), (error: unknown) => {
    ok(error instanceof ProviderError);
    strictEqual(error.kind, "cut_stream");
    return true;
  });
});

Deno.test("streamAnthropic() keeps invalid tool JSON as rawArguments", async () => {
  const stream = [
    MESSAGE_START,
    event("content_block_start", {
      index: 0,
      "content_block": { type: "tool_use", id: "toolu_02", name: "shell", input: {} },
    }),
    event("content_block_delta", {
      index: 0,
      delta: { type: "input_json_delta", "partial_json": "ls -la" },
    }),
    event("content_block_stop", { index: 0 }),
    event("message_delta", { delta: { "stop_reason": "tool_use" }, usage: { "output_tokens": 3 } }),
    event("message_stop"),
  ].join("");
  const { events } = await run([{ kind: "sse", chunks: [stream] }]);
  assertEquals(doneOf(events).blocks, [
    { type: "tool_call", id: "toolu_02", name: "shell", arguments: {}, rawArguments: "ls -la" },
  ]);
});

Deno.test("anthropicStopReason() maps Anthropic's reasons and prefers tool_use when calls were made", () => {
  assertEquals(
    ["end_turn", "stop_sequence", "max_tokens", "refusal", "pause_turn", undefined].map((reason) =>
      anthropicStopReason(reason, false)
    ),
    ["end_turn", "end_turn", "max_tokens", "content_filter", "unknown", "unknown"],
  );
  strictEqual(anthropicStopReason("end_turn", true), "tool_use");
});
