import {
  deepStrictEqual as assertEquals,
  ok,
  rejects as assertRejects,
  strictEqual,
} from "node:assert/strict";
import type { ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { fakeFetch, type FakeReply } from "../../tests/_testing/fake_fetch.ts";
import { ProviderError } from "./http_errors.ts";
import { responsesStopReason, responsesUsage, streamResponses } from "./openai_responses.ts";
import type { ProtocolOptions } from "./protocol.ts";

const REQUEST: ModelRequest = {
  system: "You answer briefly.",
  messages: [{ role: "user", blocks: [{ type: "text", text: "list files" }] }],
  tools: [],
};

async function run(replies: readonly FakeReply[]) {
  const fake = fakeFetch(replies);
  const options: ProtocolOptions = {
    baseUrl: "http://fake.test/v1",
    apiKey: "sk-test",
    headers: {},
    modelId: "gpt-test",
    fetch: fake.fetch,
  };
  const events = await Array.fromAsync(
    streamResponses(options, REQUEST, new AbortController().signal),
  );
  return { events, requests: fake.requests };
}

function doneOf(events: readonly ModelEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`expected a done event, got ${JSON.stringify(last)}`);
  return last.message;
}

let sequence = 0;
function event(type: string, fields: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${
    JSON.stringify({ type, "sequence_number": sequence++, ...fields })
  }\n\n`;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const USAGE = {
  "input_tokens": 100,
  "input_tokens_details": { "cached_tokens": 60 },
  "output_tokens": 30,
  "output_tokens_details": { "reasoning_tokens": 12 },
  "total_tokens": 130,
};

function response(status: string, output: unknown[], extra: Record<string, unknown> = {}) {
  return { id: "resp_1", object: "response", status, model: "gpt-test-2025", output, ...extra };
}

const REASONING_DONE = {
  id: "rs_1",
  type: "reasoning",
  "encrypted_content": "gAAAA-encrypted",
  summary: [
    { type: "summary_text", text: "Plan: list." },
    { type: "summary_text", text: "Then answer." },
  ],
};
const MESSAGE_DONE = {
  id: "msg_1",
  type: "message",
  status: "completed",
  role: "assistant",
  content: [{ type: "output_text", text: "Running ls.", annotations: [] }],
};
const CALL_DONE = {
  id: "fc_1",
  type: "function_call",
  status: "completed",
  "call_id": "call_1",
  name: "shell",
  arguments: '{"command":"ls"}',
};

/** A recorded stream: a reasoning summary in two parts, a message, a function call. */
const TOOL_STREAM = [
  event("response.created", { response: response("in_progress", []) }),
  event("response.output_item.added", {
    "output_index": 0,
    item: { id: "rs_1", type: "reasoning", summary: [] },
  }),
  event("response.reasoning_summary_text.delta", {
    "item_id": "rs_1",
    "output_index": 0,
    "summary_index": 0,
    delta: "Plan: list.",
  }),
  event("response.reasoning_summary_text.delta", {
    "item_id": "rs_1",
    "output_index": 0,
    "summary_index": 1,
    delta: "Then answer.",
  }),
  event("response.output_item.done", { "output_index": 0, item: REASONING_DONE }),
  event("response.output_item.added", {
    "output_index": 1,
    item: { ...MESSAGE_DONE, status: "in_progress", content: [] },
  }),
  event("response.output_text.delta", {
    "item_id": "msg_1",
    "output_index": 1,
    "content_index": 0,
    delta: "Running ",
  }),
  event("response.output_text.delta", {
    "item_id": "msg_1",
    "output_index": 1,
    "content_index": 0,
    delta: "ls.",
  }),
  event("response.output_item.done", { "output_index": 1, item: MESSAGE_DONE }),
  event("response.output_item.added", {
    "output_index": 2,
    item: { ...CALL_DONE, status: "in_progress", arguments: "" },
  }),
  event("response.function_call_arguments.delta", {
    "item_id": "fc_1",
    "output_index": 2,
    delta: '{"comm',
  }),
  event("response.function_call_arguments.delta", {
    "item_id": "fc_1",
    "output_index": 2,
    delta: 'and":"ls"}',
  }),
  event("response.output_item.done", { "output_index": 2, item: CALL_DONE }),
  event("response.completed", {
    response: response("completed", [REASONING_DONE, MESSAGE_DONE, CALL_DONE], { usage: USAGE }),
  }),
].join("");

Deno.test("streamResponses() decodes reasoning, text and a call, keeping replay data in signatures", async () => {
  const { events, requests } = await run([{ kind: "sse", chunks: pieces(TOOL_STREAM, 11) }]);
  strictEqual(requests[0]?.url, "http://fake.test/v1/responses");
  assertEquals(events.slice(0, -1), [
    { type: "thinking_delta", text: "Plan: list." },
    { type: "thinking_delta", text: "\n\nThen answer." },
    { type: "text_delta", text: "Running " },
    { type: "text_delta", text: "ls." },
  ]);
  assertEquals(doneOf(events), {
    role: "assistant",
    blocks: [
      {
        type: "thinking",
        thinking: "Plan: list.\n\nThen answer.",
        signature: JSON.stringify({
          type: "reasoning",
          id: "rs_1",
          "encrypted_content": "gAAAA-encrypted",
          summary: REASONING_DONE.summary,
        }),
      },
      { type: "text", text: "Running ls.", signature: "msg_1" },
      { type: "tool_call", id: "call_1", name: "shell", arguments: { command: "ls" } },
    ],
    model: "gpt-test-2025",
    stopReason: "tool_use",
    usage: {
      inputTokens: 40,
      outputTokens: 30,
      reasoningTokens: 12,
      cacheReadTokens: 60,
      cacheWriteTokens: 0,
    },
  });
});

Deno.test("streamResponses() reads the output of response.completed when no item events came", async () => {
  const stream = event("response.completed", {
    response: response("completed", [MESSAGE_DONE], { usage: USAGE }),
  });
  const { events } = await run([{ kind: "sse", chunks: [stream] }]);
  const message = doneOf(events);
  assertEquals(message.blocks, [{ type: "text", text: "Running ls.", signature: "msg_1" }]);
  strictEqual(message.stopReason, "end_turn");
});

Deno.test("streamResponses() maps an incomplete response cut at max_output_tokens to max_tokens", async () => {
  const stream = [
    event("response.output_item.added", {
      "output_index": 0,
      item: { id: "msg_2", type: "message", content: [] },
    }),
    event("response.output_text.delta", { "item_id": "msg_2", "output_index": 0, delta: "Part" }),
    event("response.incomplete", {
      response: response("incomplete", [], {
        "incomplete_details": { reason: "max_output_tokens" },
        usage: USAGE,
      }),
    }),
  ].join("");
  const message = doneOf((await run([{ kind: "sse", chunks: [stream] }])).events);
  assertEquals(message.blocks, [{ type: "text", text: "Part", signature: "msg_2" }]);
  strictEqual(message.stopReason, "max_tokens");
});

Deno.test("streamResponses() turns response.failed and error events into ProviderErrors", async () => {
  const failed = event("response.failed", {
    response: response("failed", [], {
      error: { code: "server_error", message: "The server had an error" },
    }),
  });
  await assertRejects(run([{ kind: "sse", chunks: [failed] }]), (error: unknown) => {
    ok(error instanceof ProviderError);
    assertEquals([error.kind, error.message], ["server", "The server had an error"]);
    return true;
  });
  const rateLimited = event("error", {
    code: "rate_limit_exceeded",
    message: "Rate limit reached",
    param: null,
  });
  await assertRejects(run([{ kind: "sse", chunks: [rateLimited] }]), (error: unknown) => {
    ok(error instanceof ProviderError);
    strictEqual(error.message, "Rate limit reached");
    strictEqual(error.retryable, true);
    return true;
  });
});

Deno.test("streamResponses() reports a stream without a final event as cut", async () => {
  const half = TOOL_STREAM.slice(0, TOOL_STREAM.indexOf("event: response.completed"));
  await assertRejects(run([{ kind: "sse", chunks: [half] }]), (error: unknown) => {
    ok(error instanceof ProviderError);
    strictEqual(error.kind, "cut_stream");
    return true;
  });
});

Deno.test("streamResponses() keeps reasoning without encrypted content as unsigned thinking", async () => {
  const reasoning = {
    id: "rs_9",
    type: "reasoning",
    summary: [{ type: "summary_text", text: "Hm." }],
  };
  const stream = event("response.completed", {
    response: response("completed", [reasoning, MESSAGE_DONE], { usage: null }),
  });
  const message = doneOf((await run([{ kind: "sse", chunks: [stream] }])).events);
  assertEquals(message.blocks[0], { type: "thinking", thinking: "Hm." });
  strictEqual(message.usage, null);
});

Deno.test("responsesUsage() subtracts cached input and keeps reasoning inside output", () => {
  assertEquals(responsesUsage(USAGE), {
    inputTokens: 40,
    outputTokens: 30,
    reasoningTokens: 12,
    cacheReadTokens: 60,
    cacheWriteTokens: 0,
  });
  strictEqual(responsesUsage(null), null);
});

Deno.test("responsesStopReason() maps statuses and incomplete reasons", () => {
  strictEqual(responsesStopReason("completed", undefined, false), "end_turn");
  strictEqual(responsesStopReason("completed", undefined, true), "tool_use");
  strictEqual(responsesStopReason("incomplete", "content_filter", false), "content_filter");
  strictEqual(responsesStopReason("incomplete", "max_output_tokens", true), "max_tokens");
});
