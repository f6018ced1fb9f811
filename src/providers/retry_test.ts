import {
  deepStrictEqual as assertEquals,
  rejects as assertRejects,
  strictEqual,
} from "node:assert/strict";
import type { AssistantMessage } from "../llm/messages.ts";
import type { ModelEvent } from "../llm/model_events.ts";
import { ProviderError } from "./http_errors.ts";
import { abortableSleep, isEmptyMessage, retryDelayMs, retryingStream } from "./retry.ts";

function answer(text: string): AssistantMessage {
  return {
    role: "assistant",
    blocks: text === "" ? [] : [{ type: "text", text }],
    model: "m",
    stopReason: "end_turn",
    usage: null,
  };
}

/** A scripted attempt: each entry is what attempt N does. */
type Step = { readonly events: readonly ModelEvent[]; readonly error?: unknown };

function scripted(steps: readonly Step[]) {
  const calls: number[] = [];
  const attempt = async function* (number: number): AsyncGenerator<ModelEvent> {
    calls.push(number);
    const step = steps[number - 1];
    if (step === undefined) throw new Error(`no step for attempt ${number}`);
    for (const event of step.events) yield await Promise.resolve(event);
    if (step.error !== undefined) throw step.error;
  };
  return { attempt, calls };
}

function fakeSleep() {
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    return Promise.resolve();
  };
  return { sleep, waits };
}

const SERVER_ERROR = new ProviderError("server", "boom (status 500)", { status: 500 });

Deno.test("retryDelayMs() doubles from 500 ms, jitters by ±20 % and caps at 8 s", () => {
  assertEquals([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, () => 0.5)), [
    500,
    1000,
    2000,
    4000,
    8000,
    8000,
  ]);
  assertEquals([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, () => 0)), [400, 800, 1600, 3200, 6400]);
  assertEquals(
    [1, 2, 3, 4, 5].map((n) => retryDelayMs(n, () => 0.999999)),
    [600, 1200, 2400, 4800, 8000],
  );
  assertEquals(retryDelayMs(2, () => 0.5, { baseDelayMs: 10, maxDelayMs: 15 }), 15);
  assertEquals(retryDelayMs(1000, () => 0.5), 8000);
});

Deno.test("retryingStream() makes 5 attempts in all, then throws the last error", async () => {
  const { attempt, calls } = scripted(Array(5).fill({ events: [], error: SERVER_ERROR }));
  const { sleep, waits } = fakeSleep();
  const seen: ModelEvent[] = [];
  await assertRejects(async () => {
    for await (
      const event of retryingStream(attempt, {
        signal: new AbortController().signal,
        sleep,
        random: () => 0.5,
      })
    ) {
      seen.push(event);
    }
  }, (error: unknown) => error === SERVER_ERROR);
  assertEquals(calls, [1, 2, 3, 4, 5]);
  assertEquals(waits, [500, 1000, 2000, 4000]);
  assertEquals(
    seen,
    [1, 2, 3, 4].map((n, i) => ({
      type: "retry",
      attempt: n,
      delayMs: waits[i],
      error: "boom (status 500)",
    })),
  );
});

Deno.test("retryingStream() passes the partial events, a retry, then the next attempt's answer", async () => {
  const done: ModelEvent = { type: "done", message: answer("hello") };
  const { attempt, calls } = scripted([
    {
      events: [{ type: "text_delta", text: "hel" }],
      error: new ProviderError("cut_stream", "cut"),
    },
    { events: [{ type: "text_delta", text: "hello" }, done] },
  ]);
  const { sleep } = fakeSleep();
  const events = await Array.fromAsync(
    retryingStream(attempt, { signal: new AbortController().signal, sleep, random: () => 0 }),
  );
  assertEquals(events, [
    { type: "text_delta", text: "hel" },
    { type: "retry", attempt: 1, delayMs: 400, error: "cut" },
    { type: "text_delta", text: "hello" },
    done,
  ]);
  assertEquals(calls, [1, 2]);
});

Deno.test("retryingStream() never retries a non-retryable error", async () => {
  const badRequest = new ProviderError("bad_request", "bad (status 400)", { status: 400 });
  const { attempt, calls } = scripted([{ events: [], error: badRequest }]);
  const { sleep, waits } = fakeSleep();
  await assertRejects(
    Array.fromAsync(retryingStream(attempt, { signal: new AbortController().signal, sleep })),
    (error: unknown) => error === badRequest,
  );
  assertEquals([calls, waits], [[1], []]);
  const bug = new TypeError("a bug");
  const second = scripted([{ events: [], error: bug }]);
  await assertRejects(
    Array.fromAsync(
      retryingStream(second.attempt, { signal: new AbortController().signal, sleep }),
    ),
    (error: unknown) => error === bug,
  );
  assertEquals(second.calls, [1]);
});

Deno.test("retryingStream() retries an empty response and gives up with the empty message", async () => {
  const empty: Step = { events: [{ type: "done", message: answer("") }] };
  const { attempt, calls } = scripted([empty, empty, empty]);
  const { sleep } = fakeSleep();
  const events: ModelEvent[] = [];
  await assertRejects(async () => {
    for await (
      const event of retryingStream(attempt, {
        signal: new AbortController().signal,
        sleep,
        maxAttempts: 3,
      })
    ) {
      events.push(event);
    }
  }, (error: unknown) =>
    error instanceof ProviderError && error.kind === "empty" &&
    error.message === "the model returned an empty response");
  assertEquals(calls, [1, 2, 3]);
  assertEquals(events.map((event) => event.type), ["retry", "retry"]);
});

Deno.test("retryingStream() treats an attempt that ends without done as a cut stream", async () => {
  const done: ModelEvent = { type: "done", message: answer("ok") };
  const { attempt } = scripted([{ events: [] }, { events: [done] }]);
  const { sleep } = fakeSleep();
  const events = await Array.fromAsync(
    retryingStream(attempt, { signal: new AbortController().signal, sleep, random: () => 0.5 }),
  );
  assertEquals(events, [
    {
      type: "retry",
      attempt: 1,
      delayMs: 500,
      error: "the stream ended before the response was complete",
    },
    done,
  ]);
});

Deno.test("retryingStream() waits what retry-after asks, up to 60 s", async () => {
  const done: ModelEvent = { type: "done", message: answer("ok") };
  const { attempt } = scripted([
    { events: [], error: new ProviderError("rate_limit", "slow", { retryAfterMs: 3000 }) },
    { events: [], error: new ProviderError("rate_limit", "slower", { retryAfterMs: 60_000 }) },
    { events: [], error: new ProviderError("rate_limit", "now", { retryAfterMs: 0 }) },
    { events: [done] },
  ]);
  const { sleep, waits } = fakeSleep();
  await Array.fromAsync(retryingStream(attempt, { signal: new AbortController().signal, sleep }));
  assertEquals(waits, [3000, 60_000, 0]);
});

Deno.test("retryingStream() fails at once when retry-after asks for more than 60 s", async () => {
  const { attempt, calls } = scripted([
    {
      events: [],
      error: new ProviderError("rate_limit", "quota (status 429)", {
        status: 429,
        retryAfterMs: 3_600_000,
      }),
    },
  ]);
  const { sleep, waits } = fakeSleep();
  await assertRejects(
    Array.fromAsync(retryingStream(attempt, { signal: new AbortController().signal, sleep })),
    (error: unknown) =>
      error instanceof ProviderError && error.status === 429 &&
      error.message ===
        "quota (status 429); the provider asks to retry after 3600 s, longer than rienda waits (60 s): try again later",
  );
  assertEquals([calls, waits], [[1], []]);
});

Deno.test("retryingStream() ends the wait with the signal's reason on abort", async () => {
  const controller = new AbortController();
  const reason = new Error("interrupted");
  const { attempt, calls } = scripted([{ events: [], error: SERVER_ERROR }]);
  const stream = retryingStream(attempt, { signal: controller.signal, baseDelayMs: 60_000 });
  const first = await stream.next();
  strictEqual(first.value?.type, "retry");
  const pending = stream.next();
  controller.abort(reason);
  await assertRejects(pending, (error: unknown) => error === reason);
  assertEquals(calls, [1]);
});

Deno.test("retryingStream() does not retry an attempt failing after the abort", async () => {
  const controller = new AbortController();
  const reason = new Error("interrupted");
  const attempt = async function* (): AsyncGenerator<ModelEvent> {
    yield { type: "text_delta", text: "a" };
    controller.abort(reason);
    throw SERVER_ERROR;
  };
  await assertRejects(
    Array.fromAsync(retryingStream(attempt, { signal: controller.signal })),
    (error: unknown) => error === reason,
  );
});

Deno.test("retryingStream() rejects a maxAttempts that is not a positive integer", async () => {
  const { attempt } = scripted([]);
  await assertRejects(
    Array.fromAsync(
      retryingStream(attempt, { signal: new AbortController().signal, maxAttempts: 0 }),
    ),
    /"maxAttempts" must be a positive integer \(found 0\)/,
  );
});

Deno.test("abortableSleep() resolves after the wait and rejects at once when aborted", async () => {
  await abortableSleep(1, new AbortController().signal);
  const controller = new AbortController();
  const reason = new Error("stop");
  const waiting = abortableSleep(60_000, controller.signal);
  controller.abort(reason);
  await assertRejects(waiting, (error: unknown) => error === reason);
  await assertRejects(abortableSleep(10, controller.signal), (error: unknown) => error === reason);
});

Deno.test("isEmptyMessage() counts tool calls, text and redacted thinking as content", () => {
  assertEquals(isEmptyMessage(answer("")), true);
  assertEquals(
    isEmptyMessage({
      ...answer(""),
      blocks: [{ type: "text", text: "" }, { type: "thinking", thinking: "" }],
    }),
    true,
  );
  assertEquals(isEmptyMessage(answer("hi")), false);
  assertEquals(
    isEmptyMessage({
      ...answer(""),
      blocks: [{ type: "tool_call", id: "c", name: "shell", arguments: {} }],
    }),
    false,
  );
  assertEquals(
    isEmptyMessage({
      ...answer(""),
      blocks: [{ type: "thinking", thinking: "", signature: "s", redacted: true }],
    }),
    false,
  );
});
