import {
  deepStrictEqual as assertEquals,
  ok,
  rejects as assertRejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import type { ModelRequest } from "../llm/model_events.ts";
import { createModelClient, type ModelClientOptions, UnsupportedProtocolError } from "./client.ts";
import { fakeFetch, type FakeReply, sseText } from "../../tests/_testing/fake_fetch.ts";
import { ProviderError } from "./http_errors.ts";
import { SecretSet } from "../secrets/secrets.ts";

const REQUEST: ModelRequest = {
  system: "",
  messages: [{ role: "user", blocks: [{ type: "text", text: "hi" }] }],
  tools: [],
};

const ANSWER = sseText([
  { model: "m", choices: [{ index: 0, delta: { content: "hello" }, finish_reason: null }] },
  { model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
]);

function client(replies: readonly FakeReply[], extra: Partial<ModelClientOptions> = {}) {
  const fake = fakeFetch(replies);
  const waits: number[] = [];
  const options: ModelClientOptions = {
    ref: "fake/m",
    protocol: "openai_chat_completions",
    baseUrl: "http://fake.test/v1",
    apiKey: "k",
    headers: {},
    modelId: "m",
    fetch: fake.fetch,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
  return {
    model: createModelClient({ ...options, ...extra }, new SecretSet()),
    requests: fake.requests,
    waits,
  };
}

Deno.test("createModelClient() retries a 500 and streams the answer of the next attempt", async () => {
  const { model, requests, waits } = client([
    { kind: "status", status: 500, body: '{"error":{"message":"boom"}}' },
    { kind: "sse", chunks: [ANSWER] },
  ]);
  strictEqual(model.ref, "fake/m");
  const events = await Array.fromAsync(model.stream(REQUEST, new AbortController().signal));
  assertEquals(events.map((event) => event.type), ["retry", "text_delta", "done"]);
  assertEquals(events[0], {
    type: "retry",
    attempt: 1,
    delayMs: waits[0],
    error: "boom (status 500)",
  });
  strictEqual(requests.length, 2);
  ok(waits[0] !== undefined && waits[0] >= 400 && waits[0] <= 600);
});

Deno.test("createModelClient() gives up after exactly 5 attempts", async () => {
  const reply: FakeReply = { kind: "status", status: 503, body: "" };
  const { model, requests, waits } = client(Array(6).fill(reply));
  await assertRejects(
    Array.fromAsync(model.stream(REQUEST, new AbortController().signal)),
    (error: unknown) => error instanceof ProviderError && error.message === "status 503",
  );
  strictEqual(requests.length, 5);
  strictEqual(waits.length, 4);
});

Deno.test("createModelClient() does not retry a 400", async () => {
  const { model, requests } = client([
    { kind: "status", status: 400, body: '{"error":{"message":"bad"}}' },
    { kind: "sse", chunks: [ANSWER] },
  ]);
  await assertRejects(
    Array.fromAsync(model.stream(REQUEST, new AbortController().signal)),
    (error: unknown) => error instanceof ProviderError && error.message === "bad (status 400)",
  );
  strictEqual(requests.length, 1);
});

Deno.test("createModelClient() retries an empty answer and a cut stream", async () => {
  const empty = sseText([{
    model: "m",
    choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
  }]);
  const cut = sseText([{ model: "m", choices: [{ index: 0, delta: { content: "par" } }] }], false);
  const { model, requests } = client([
    { kind: "sse", chunks: [empty] },
    { kind: "sse", chunks: [cut] },
    { kind: "sse", chunks: [ANSWER] },
  ], { retry: { baseDelayMs: 1 } });
  const events = await Array.fromAsync(model.stream(REQUEST, new AbortController().signal));
  assertEquals(
    events.flatMap((event) => event.type === "retry" ? [event.error] : []),
    ["the model returned an empty response", "the stream ended before the response was complete"],
  );
  strictEqual(requests.length, 3);
});

/** Each wait is 0.5 s doubling (0.5, 1, 2, 4), give or take the ±20 % jitter. */
function assertBackoff(waits: readonly number[]): void {
  waits.forEach((wait, index) => {
    const nominal = 500 * 2 ** index;
    ok(wait >= nominal * 0.8 && wait <= nominal * 1.2, `wait ${index + 1}: ${wait} ms (${waits})`);
  });
}

Deno.test("createModelClient() retries 408, 409, 429 and 503 on the backoff schedule, in 5 attempts", async () => {
  const { model, requests, waits } = client([
    ...[408, 409, 429, 503].map((status): FakeReply => ({
      kind: "status",
      status,
      body: `{"error":{"message":"failure ${status}"}}`,
    })),
    { kind: "sse", chunks: [ANSWER] },
  ]);
  const events = await Array.fromAsync(model.stream(REQUEST, new AbortController().signal));
  assertEquals(events.flatMap((event) => event.type === "retry" ? [event.error] : []), [
    "failure 408 (status 408)",
    "failure 409 (status 409)",
    "failure 429 (status 429)",
    "failure 503 (status 503)",
  ]);
  strictEqual(events.at(-1)?.type, "done");
  strictEqual(requests.length, 5);
  assertBackoff(waits);
});

Deno.test("createModelClient() gives up on five empty answers with the empty-response message", async () => {
  const empty = sseText([{
    model: "m",
    choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
  }]);
  const { model, requests, waits } = client(Array(6).fill({ kind: "sse", chunks: [empty] }));
  await assertRejects(
    Array.fromAsync(model.stream(REQUEST, new AbortController().signal)),
    (error: unknown) =>
      error instanceof ProviderError && error.message === "the model returned an empty response",
  );
  strictEqual(requests.length, 5);
  assertBackoff(waits);
});

Deno.test("createModelClient() retries a provider it cannot reach, then names its origin", async () => {
  const { model, requests, waits } = client(
    Array(5).fill({ kind: "network", message: "tcp connect error: Connection refused" }),
  );
  await assertRejects(
    Array.fromAsync(model.stream(REQUEST, new AbortController().signal)),
    (error: unknown) =>
      error instanceof ProviderError && error.kind === "network" &&
      error.message === "cannot reach http://fake.test: tcp connect error: Connection refused",
  );
  strictEqual(requests.length, 5);
  assertBackoff(waits);
});

Deno.test("createModelClient() sends each protocol to its own endpoint", async () => {
  const anthropic = client([], { protocol: "anthropic" });
  const responses = client([], { protocol: "openai_responses" });
  const chat = client([]);
  for (const { model } of [anthropic, responses, chat]) {
    await assertRejects(Array.fromAsync(model.stream(REQUEST, new AbortController().signal)));
  }
  strictEqual(anthropic.requests[0]?.url, "http://fake.test/v1/messages");
  strictEqual(responses.requests[0]?.url, "http://fake.test/v1/responses");
  strictEqual(chat.requests[0]?.url, "http://fake.test/v1/chat/completions");
});

Deno.test("createModelClient() throws UnsupportedProtocolError for a protocol it does not know", () => {
  const protocol: unknown = "grpc";
  throws(
    () => client([], { protocol: protocol as "anthropic" }),
    (error: unknown) =>
      error instanceof UnsupportedProtocolError &&
      error.message ===
        'protocol "grpc" is not supported yet (supported: openai_chat_completions, openai_responses, anthropic); set the provider\'s "protocol" to one of them',
  );
});

Deno.test("createModelClient() streams from a real HTTP server on 127.0.0.1 and stops on abort", async () => {
  const encoder = new TextEncoder();
  let cancelled!: () => void;
  const bodyCancelled = new Promise<void>((resolve) => cancelled = resolve);
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const slow = new URL(request.url).pathname.startsWith("/slow/");
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const piece of [ANSWER.slice(0, 30), ANSWER.slice(30)]) {
          controller.enqueue(encoder.encode(slow ? 'data: {"choices":[]}\n\n' : piece));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        if (!slow) controller.close();
      },
      cancel() {
        cancelled();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  const { model } = client([], { fetch: globalThis.fetch, baseUrl: `${baseUrl}/v1` });
  const events = await Array.fromAsync(model.stream(REQUEST, new AbortController().signal));
  assertEquals(events.map((event) => event.type), ["text_delta", "done"]);

  const slowModel = client([], { fetch: globalThis.fetch, baseUrl: `${baseUrl}/slow/v1` }).model;
  const controller = new AbortController();
  const reason = new Error("interrupted");
  const stream = slowModel.stream(REQUEST, controller.signal);
  setTimeout(() => controller.abort(reason), 30);
  await assertRejects(Array.fromAsync(stream), (error: unknown) => error === reason);
  await bodyCancelled;
});
