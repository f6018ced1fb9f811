import {
  deepStrictEqual as assertEquals,
  ok,
  rejects as assertRejects,
  strictEqual,
} from "node:assert/strict";
import type { ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { fakeFetch, type FakeReply, sseText } from "../../tests/_testing/fake_fetch.ts";
import { ProviderError } from "./http_errors.ts";
import { chatUsage, streamChatCompletions } from "./openai_chat.ts";
import type { ProtocolOptions } from "./protocol.ts";

const REQUEST: ModelRequest = {
  system: "You answer briefly.",
  messages: [{ role: "user", blocks: [{ type: "text", text: "hi" }] }],
  tools: [],
};

function options(fetch: typeof globalThis.fetch, extra: Partial<ProtocolOptions> = {}) {
  const base: ProtocolOptions = {
    baseUrl: "http://fake.test/v1",
    apiKey: "sk-test",
    headers: {},
    modelId: "fake-model",
    fetch,
  };
  return { ...base, ...extra };
}

async function run(
  replies: readonly FakeReply[],
  request: ModelRequest = REQUEST,
  extra: Partial<ProtocolOptions> = {},
) {
  const fake = fakeFetch(replies);
  const events = await Array.fromAsync(
    streamChatCompletions(options(fake.fetch, extra), request, new AbortController().signal),
  );
  return { events, requests: fake.requests };
}

function doneOf(events: readonly ModelEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`expected a done event, got ${JSON.stringify(last)}`);
  return last.message;
}

/** Splits text into pieces of `size` characters, so events straddle chunk boundaries. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    model: "fake-model-2024",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    usage: null,
  };
}

const USAGE_CHUNK = {
  id: "chatcmpl-1",
  model: "fake-model-2024",
  choices: [],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 20,
    prompt_tokens_details: { cached_tokens: 60 },
    completion_tokens_details: { reasoning_tokens: 5 },
  },
};

const TEXT_STREAM = sseText([
  chunk({ role: "assistant", content: "" }),
  chunk({ content: "Hel" }),
  chunk({ content: "lo" }),
  chunk({ content: " world" }),
  chunk({}, "stop"),
  USAGE_CHUNK,
]);

Deno.test("streamChatCompletions() streams text deltas and ends with the complete message", async () => {
  const { events } = await run([{ kind: "sse", chunks: pieces(TEXT_STREAM, 7) }]);
  assertEquals(events, [
    { type: "text_delta", text: "Hel" },
    { type: "text_delta", text: "lo" },
    { type: "text_delta", text: " world" },
    {
      type: "done",
      message: {
        role: "assistant",
        blocks: [{ type: "text", text: "Hello world" }],
        model: "fake-model-2024",
        stopReason: "end_turn",
        usage: {
          inputTokens: 40,
          outputTokens: 20,
          reasoningTokens: 5,
          cacheReadTokens: 60,
          cacheWriteTokens: 0,
        },
      },
    },
  ]);
});

Deno.test("streamChatCompletions() keeps reasoning_content and reasoning as thinking before the text", async () => {
  const stream = sseText([
    chunk({ role: "assistant", reasoning_content: "Let me " }),
    chunk({ reasoning: "think." }),
    chunk({ content: "42" }),
    chunk({}, "stop"),
  ]);
  const { events } = await run([{ kind: "sse", chunks: [stream] }]);
  assertEquals(events.slice(0, 3), [
    { type: "thinking_delta", text: "Let me " },
    { type: "thinking_delta", text: "think." },
    { type: "text_delta", text: "42" },
  ]);
  const message = doneOf(events);
  assertEquals(message.blocks, [
    { type: "thinking", thinking: "Let me think." },
    { type: "text", text: "42" },
  ]);
  strictEqual(message.usage, null);
});

const TWO_CALLS_STREAM = sseText([
  chunk({ role: "assistant", content: "Running." }),
  chunk({
    tool_calls: [{
      index: 0,
      id: "call_a",
      type: "function",
      function: { name: "shell", arguments: "" },
    }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"comm' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'and":"ec' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'ho hi"}' } }] }),
  chunk({
    tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "shell" } }],
  }),
  chunk({
    tool_calls: [{ index: 2, id: "call_c", function: { name: "shell", arguments: "ls -la" } }],
  }),
  chunk({}, "tool_calls"),
]);

Deno.test("streamChatCompletions() assembles fragmented tool calls, several in one turn", async () => {
  for (const size of [1, 5, 64, TWO_CALLS_STREAM.length]) {
    const { events } = await run([{ kind: "sse", chunks: pieces(TWO_CALLS_STREAM, size) }]);
    const message = doneOf(events);
    assertEquals(message.blocks, [
      { type: "text", text: "Running." },
      { type: "tool_call", id: "call_a", name: "shell", arguments: { command: "echo hi" } },
      { type: "tool_call", id: "call_b", name: "shell", arguments: {} },
      { type: "tool_call", id: "call_c", name: "shell", arguments: {}, rawArguments: "ls -la" },
    ], `chunks of ${size}`);
    strictEqual(message.stopReason, "tool_use");
  }
});

Deno.test("streamChatCompletions() numbers calls without index by id and invents missing ids", async () => {
  const stream = sseText([
    chunk({ tool_calls: [{ id: "x1", function: { name: "a", arguments: '{"n":' } }] }),
    chunk({ tool_calls: [{ function: { arguments: "1}" } }] }),
    chunk({ tool_calls: [{ id: "x2", function: { name: "b", arguments: "{}" } }] }),
    chunk({ tool_calls: [{ index: 5, function: { name: "c", arguments: "{}" } }] }),
    chunk({}, "stop"),
  ]);
  const message = doneOf((await run([{ kind: "sse", chunks: [stream] }])).events);
  const calls = message.blocks.filter((block) => block.type === "tool_call");
  assertEquals(calls.slice(0, 2), [
    { type: "tool_call", id: "x1", name: "a", arguments: { n: 1 } },
    { type: "tool_call", id: "x2", name: "b", arguments: {} },
  ]);
  const third = calls[2];
  ok(third !== undefined && third.name === "c" && /^call_[0-9a-f]{24}$/.test(third.id));
  // A turn that made calls is tool_use even when the server says "stop".
  strictEqual(message.stopReason, "tool_use");
});

Deno.test("streamChatCompletions() maps every finish_reason", async () => {
  const cases: [string, string][] = [
    ["stop", "end_turn"],
    ["length", "max_tokens"],
    ["content_filter", "content_filter"],
    ["something_new", "unknown"],
  ];
  for (const [finishReason, stopReason] of cases) {
    const stream = sseText([chunk({ content: "x" }, finishReason)]);
    const message = doneOf((await run([{ kind: "sse", chunks: [stream] }])).events);
    strictEqual(message.stopReason, stopReason, finishReason);
  }
});

Deno.test("chatUsage() normalises cached, DeepSeek and absent usage", () => {
  assertEquals(chatUsage({ prompt_tokens: 10, completion_tokens: 3 }), {
    inputTokens: 10,
    outputTokens: 3,
    reasoningTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  assertEquals(
    chatUsage({
      prompt_tokens: 50,
      completion_tokens: 7,
      prompt_cache_hit_tokens: 30,
      prompt_cache_miss_tokens: 20,
    }),
    {
      inputTokens: 20,
      outputTokens: 7,
      reasoningTokens: 0,
      cacheReadTokens: 30,
      cacheWriteTokens: 0,
    },
  );
  strictEqual(chatUsage(null), null);
  strictEqual(chatUsage("12"), null);
});

Deno.test("streamChatCompletions() accepts a stream with a finish_reason but no [DONE]", async () => {
  const stream = sseText([chunk({ content: "ok" }, "stop")], false);
  const message = doneOf((await run([{ kind: "sse", chunks: [stream] }])).events);
  assertEquals(message.blocks, [{ type: "text", text: "ok" }]);
});

function isProviderError(kind: string, message: string | RegExp, status?: number) {
  return (error: unknown) => {
    ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
    strictEqual(error.kind, kind);
    if (typeof message === "string") strictEqual(error.message, message);
    else ok(message.test(error.message), error.message);
    strictEqual(error.status, status);
    return true;
  };
}

Deno.test("streamChatCompletions() throws cut_stream for a stream with neither finish_reason nor [DONE]", async () => {
  const stream = sseText([chunk({ content: "partial" })], false);
  const fake = fakeFetch([{ kind: "sse", chunks: [stream] }]);
  const seen: ModelEvent[] = [];
  await assertRejects(
    async () => {
      const signal = new AbortController().signal;
      for await (const event of streamChatCompletions(options(fake.fetch), REQUEST, signal)) {
        seen.push(event);
      }
    },
    isProviderError("cut_stream", "the stream ended before the response was complete"),
  );
  assertEquals(seen, [{ type: "text_delta", text: "partial" }]);
});

Deno.test("streamChatCompletions() throws cut_stream when the connection drops mid-body", async () => {
  await assertRejects(
    run([{ kind: "broken", chunks: [sseText([chunk({ content: "a" })], false)] }]),
    isProviderError(
      "cut_stream",
      "the stream ended before the response was complete: error reading a body from connection",
    ),
  );
});

Deno.test("streamChatCompletions() surfaces the provider's message and status of an error response", async () => {
  const body = JSON.stringify({
    error: { message: "The server had an error", type: "server_error" },
  });
  const fake = fakeFetch([{
    kind: "status",
    status: 500,
    body,
    headers: { "retry-after": "2", "content-type": "application/json" },
  }]);
  await assertRejects(
    Array.fromAsync(
      streamChatCompletions(options(fake.fetch), REQUEST, new AbortController().signal),
    ),
    (error: unknown) => {
      isProviderError("server", "The server had an error (status 500)", 500)(error);
      return error instanceof ProviderError && error.retryable && error.retryAfterMs === 2000;
    },
  );
});

Deno.test("streamChatCompletions() turns an error chunk into a ProviderError", async () => {
  const stream = sseText([
    chunk({ content: "a" }),
    { error: { message: "upstream timed out", code: 504 } },
  ]);
  await assertRejects(
    run([{ kind: "sse", chunks: [stream] }]),
    isProviderError("server", "upstream timed out (status 504)", 504),
  );
});

Deno.test("streamChatCompletions() rejects an event that is not JSON as a server error", async () => {
  await assertRejects(
    run([{ kind: "sse", chunks: ["data: {oops\n\n"] }]),
    isProviderError("server", "the provider sent an event that is not JSON: {oops"),
  );
});

Deno.test("streamChatCompletions() reads an error sent as JSON with status 200", async () => {
  const body = JSON.stringify({ error: { message: "model is loading" } });
  await assertRejects(
    run([{ kind: "status", status: 200, body, headers: { "content-type": "application/json" } }]),
    isProviderError("server", "model is loading"),
  );
});

Deno.test("streamChatCompletions() reports a refused connection as a network error", async () => {
  await assertRejects(
    run([{ kind: "network", message: "tcp connect error: Connection refused (os error 111)" }]),
    isProviderError(
      "network",
      "cannot reach http://fake.test: tcp connect error: Connection refused (os error 111)",
    ),
  );
});

Deno.test("streamChatCompletions() stops with the signal's reason when aborted", async () => {
  const controller = new AbortController();
  const reason = new Error("interrupted");
  const fake = fakeFetch([{ kind: "sse", chunks: [TEXT_STREAM] }]);
  await assertRejects(async () => {
    for await (const _ of streamChatCompletions(options(fake.fetch), REQUEST, controller.signal)) {
      controller.abort(reason);
    }
  }, (error: unknown) => error === reason);
});
