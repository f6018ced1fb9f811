import assert from "node:assert/strict";
import { DEFAULT_ERROR_MESSAGE, OUT_OF_TURNS_MESSAGE, startFakeProvider } from "./fake_provider.ts";
import { at } from "./json.ts";
import { postForEvents } from "./sse_client.ts";

Deno.test("startFakeProvider() listens on 127.0.0.1 with a base url ending in /v1", async () => {
  await using provider = await startFakeProvider();
  assert.match(provider.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
});

Deno.test("the fake provider records method, path, lower-cased headers and both bodies", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await postForEvents(`${provider.url}/chat/completions`, { model: "x", n: 1 }, {
    "X-Custom-Header": "Value",
  });
  await fetch(`${provider.url}/messages`, { method: "POST", body: "not json" }).then((r) =>
    r.text()
  );
  const [first, second] = provider.requests;
  assert.equal(provider.requests.length, 2);
  assert.equal(first?.method, "POST");
  assert.equal(first?.path, "/v1/chat/completions");
  assert.equal(first?.headers["x-custom-header"], "Value");
  assert.equal(first?.headers["content-type"], "application/json");
  assert.deepEqual(first?.body, { model: "x", n: 1 });
  assert.equal(first?.rawBody, '{"model":"x","n":1}');
  assert.equal(second?.path, "/v1/messages");
  assert.equal(second?.body, null);
  assert.equal(second?.rawBody, "not json");
});

Deno.test("the fake provider answers 500 in each protocol's error shape once the script is empty", async () => {
  await using provider = await startFakeProvider();
  const chat = await postForEvents(`${provider.url}/chat/completions`);
  assert.equal(chat.status, 500);
  assert.equal(at(chat.json, "error", "message"), OUT_OF_TURNS_MESSAGE);
  assert.equal(at(chat.json, "error", "type"), "server_error");
  const responses = await postForEvents(`${provider.url}/responses`);
  assert.equal(responses.status, 500);
  assert.equal(at(responses.json, "error", "message"), OUT_OF_TURNS_MESSAGE);
  const anthropic = await postForEvents(`${provider.url}/messages`);
  assert.equal(anthropic.status, 500);
  assert.deepEqual(anthropic.json, {
    type: "error",
    error: { type: "api_error", message: OUT_OF_TURNS_MESSAGE },
  });
});

Deno.test("every protocol route consumes the next turn of one shared script", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "two" }]);
  const chat = await postForEvents(`${provider.url}/chat/completions`);
  const anthropic = await postForEvents(`${provider.url}/messages`);
  const third = await postForEvents(`${provider.url}/responses`);
  assert.ok(chat.text.includes('"content":"one"'));
  assert.ok(anthropic.text.includes('"text":"two"'));
  assert.equal(third.status, 500);
});

Deno.test("push() appends turns to the script", async () => {
  await using provider = await startFakeProvider([{ text: "one" }]);
  provider.push({ text: "two" }, { text: "three" });
  const texts = [];
  for (let index = 0; index < 3; index++) {
    texts.push((await postForEvents(`${provider.url}/chat/completions`)).text);
  }
  assert.deepEqual(texts.map((text) => /"content":"(\w+)"/.exec(text)?.[1]), [
    "one",
    "two",
    "three",
  ]);
});

Deno.test("an unknown path answers 404, is recorded and consumes no turn", async () => {
  await using provider = await startFakeProvider([{ text: "kept" }]);
  const missing = await postForEvents(`${provider.url}/completions`);
  assert.equal(missing.status, 404);
  assert.equal(provider.requests.length, 1);
  const chat = await postForEvents(`${provider.url}/chat/completions`);
  assert.ok(chat.text.includes('"content":"kept"'));
});

Deno.test("a status turn answers that status with the protocol's error body and extra headers", async () => {
  await using provider = await startFakeProvider([
    { status: 429, errorMessage: "slow down", headers: { "retry-after": "2" } },
    { status: 529, errorMessage: "busy" },
    { status: 503 },
    { status: 400, errorBody: "plain text failure" },
  ]);
  const chat = await postForEvents(`${provider.url}/chat/completions`);
  assert.equal(chat.status, 429);
  assert.equal(chat.headers.get("retry-after"), "2");
  assert.deepEqual(chat.json, {
    error: { message: "slow down", type: "requests", code: "rate_limit_exceeded", param: null },
  });
  const anthropic = await postForEvents(`${provider.url}/messages`);
  assert.equal(anthropic.status, 529);
  assert.deepEqual(anthropic.json, {
    type: "error",
    error: { type: "overloaded_error", message: "busy" },
  });
  const responses = await postForEvents(`${provider.url}/responses`);
  assert.equal(responses.status, 503);
  assert.equal(at(responses.json, "error", "message"), DEFAULT_ERROR_MESSAGE);
  const raw = await postForEvents(`${provider.url}/chat/completions`);
  assert.equal(raw.status, 400);
  assert.equal(raw.text, "plain text failure");
});

Deno.test("a cut turn sends the first half of the events and no finishing event", async () => {
  await using provider = await startFakeProvider([
    { text: "abcdefgh", chunks: 4, cut: true },
    { text: "abcdefgh", chunks: 4, cut: true },
    { text: "abcdefgh", chunks: 4, cut: true },
  ]);
  const chat = await postForEvents(`${provider.url}/chat/completions`);
  assert.equal(chat.status, 200);
  assert.ok(!chat.text.includes("[DONE]"));
  assert.ok(!chat.text.includes('"finish_reason":"stop"'));
  assert.ok(chat.text.includes('"content":"ab"'));
  assert.ok(!chat.text.includes('"content":"gh"'));
  const anthropic = await postForEvents(`${provider.url}/messages`);
  const names = anthropic.events.map((event) => event.event);
  assert.ok(names.includes("content_block_delta"));
  assert.ok(!names.includes("message_delta") && !names.includes("message_stop"));
  const responses = await postForEvents(`${provider.url}/responses`);
  const kinds = responses.events.map((event) => event.event);
  assert.ok(kinds.includes("response.output_text.delta"));
  assert.ok(!kinds.includes("response.completed"));
});

Deno.test("chunkDelayMs spaces the events and firstByteDelayMs holds the headers back", async () => {
  await using provider = await startFakeProvider([
    { text: "abcd", chunks: 4, chunkDelayMs: 40 },
    { text: "x", firstByteDelayMs: 150 },
  ]);
  const spaced = await postForEvents(`${provider.url}/chat/completions`);
  // role chunk, 4 text chunks, finish, usage, [DONE]: 7 gaps of 40 ms
  assert.equal(spaced.events.length, 8);
  assert.ok(spaced.doneAfterMs >= 7 * 40 - 5, `took ${spaced.doneAfterMs}ms`);
  const held = await postForEvents(`${provider.url}/chat/completions`);
  assert.ok(held.headersAfterMs >= 145, `headers after ${held.headersAfterMs}ms`);
});

Deno.test("waitForRequests() resolves once n requests arrived and rejects after its timeout", async () => {
  await using provider = await startFakeProvider([{ text: "a", firstByteDelayMs: 300 }]);
  const waiting = provider.waitForRequests(1);
  const answer = postForEvents(`${provider.url}/chat/completions`, { model: "m" });
  const [request] = await waiting;
  assert.deepEqual(request?.body, { model: "m" });
  await answer;
  await assert.rejects(provider.waitForRequests(2, 50), /got 1 of 2 requests in 50ms/);
});

Deno.test("close() ends a slow stream in flight promptly", async () => {
  const provider = await startFakeProvider([{
    text: "x".repeat(50),
    chunks: 50,
    chunkDelayMs: 100,
  }]);
  const response = await fetch(`${provider.url}/chat/completions`, { method: "POST", body: "{}" });
  const reading = response.text();
  await provider.waitForRequests(1);
  const started = performance.now();
  await provider.close();
  const text = await reading.catch(() => "");
  assert.ok(performance.now() - started < 1000);
  assert.ok(!text.includes("[DONE]"));
});

Deno.test("tool call ids default to call_<n>, numbered across the whole script", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "a" }, { name: "b", id: "mine" }, { name: "c" }] },
    { toolCalls: [{ name: "d" }] },
  ]);
  const first = await postForEvents(`${provider.url}/chat/completions`);
  const second = await postForEvents(`${provider.url}/chat/completions`);
  const ids = [...first.events, ...second.events].flatMap((event) => {
    const id = at(event.json, "choices", 0, "delta", "tool_calls", 0, "id");
    return typeof id === "string" ? [id] : [];
  });
  assert.deepEqual(ids, ["call_1", "mine", "call_2", "call_3"]);
});

Deno.test("the stream echoes the request's model unless the turn names one", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b", model: "other" }, {
    text: "c",
  }]);
  const echoed = await postForEvents(`${provider.url}/chat/completions`, { model: "wire-id" });
  const named = await postForEvents(`${provider.url}/chat/completions`, { model: "wire-id" });
  const fallback = await postForEvents(`${provider.url}/chat/completions`, {});
  assert.equal(at(echoed.events[0]?.json, "model"), "wire-id");
  assert.equal(at(named.events[0]?.json, "model"), "other");
  assert.equal(at(fallback.events[0]?.json, "model"), "fake-model");
});
