import { deepStrictEqual as assertEquals, rejects as assertRejects } from "node:assert/strict";
import { readSse, SseLimitError, type SseMessage, SseParseStream } from "./sse.ts";

async function parse(chunks: readonly string[]): Promise<SseMessage[]> {
  const source = ReadableStream.from(chunks).pipeThrough(new SseParseStream());
  return await Array.fromAsync(source);
}

function bytesStream(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return ReadableStream.from(chunks);
}

const RECORDED = [
  ": keep-alive comment\r\n",
  "\r\n",
  "event: delta\r\n",
  'data: {"text":"héllo 👋"}\r\n',
  "\r\n",
  "data: line one\n",
  "data:line two\n",
  "id: 7\n",
  "\n",
  "data\r",
  "\r",
  "event: ping\n",
  "\n",
  "data: [DONE]\n",
  "\n",
].join("");

const EXPECTED: SseMessage[] = [
  { event: "delta", data: '{"text":"héllo 👋"}' },
  { data: "line one\nline two", id: "7" },
  { data: "", id: "7" },
  { data: "[DONE]", id: "7" },
];

Deno.test("SseParseStream parses comments, events, multi-line data, ids and every line end", async () => {
  assertEquals(await parse([RECORDED]), EXPECTED);
});

Deno.test("SseParseStream gives the same messages for a stream split at any character", async () => {
  for (let cut = 0; cut <= RECORDED.length; cut++) {
    const messages = await parse([RECORDED.slice(0, cut), RECORDED.slice(cut)]);
    assertEquals(messages, EXPECTED, `split at ${cut}`);
  }
});

Deno.test("SseParseStream gives the same messages for a stream fed one character at a time", async () => {
  assertEquals(await parse([...RECORDED]), EXPECTED);
});

Deno.test("SseParseStream reads a \\r\\n split across two chunks as one line end", async () => {
  assertEquals(await parse(["data: a\r", "\n", "\r", "\n"]), [{ data: "a" }]);
  assertEquals(await parse(["data: a\r", "data: b\r", "\r"]), [{ data: "a\nb" }]);
});

Deno.test("SseParseStream discards a message not closed by a blank line", async () => {
  assertEquals(await parse(["data: one\n\ndata: torn"]), [{ data: "one" }]);
  assertEquals(await parse(["data: one\n\ndata: torn\n"]), [{ data: "one" }]);
});

Deno.test("SseParseStream drops a leading byte-order mark and keeps unknown fields out", async () => {
  assertEquals(await parse(["\uFEFFdata: x\nretry: 10\nfoo: bar\n\n"]), [{ data: "x" }]);
});

Deno.test("readSse() decodes UTF-8 split inside a character at every byte", async () => {
  const bytes = new TextEncoder().encode(RECORDED);
  for (let cut = 0; cut <= bytes.length; cut += 1) {
    const body = bytesStream([bytes.slice(0, cut), bytes.slice(cut)]);
    const messages = await Array.fromAsync(readSse(body, new AbortController().signal));
    assertEquals(messages, EXPECTED, `split at byte ${cut}`);
  }
});

Deno.test("readSse() stops with the signal's reason when aborted mid-stream", async () => {
  const controller = new AbortController();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      stream.enqueue(new TextEncoder().encode("data: first\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  const reason = new Error("interrupted");
  await assertRejects(async () => {
    for await (const message of readSse(body, controller.signal)) {
      assertEquals(message.data, "first");
      controller.abort(reason);
    }
  }, (error: unknown) => error === reason);
  assertEquals(cancelled, true);
});

Deno.test("readSse() cancels the body when the consumer stops early", async () => {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      stream.enqueue(new TextEncoder().encode("data: a\n\ndata: b\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const message of readSse(body, new AbortController().signal)) {
    assertEquals(message.data, "a");
    break;
  }
  assertEquals(cancelled, true);
});

Deno.test("SseParseStream keeps a line cut across many chunks whole", async () => {
  const line = `data: ${"x".repeat(10_000)}`;
  const chunks = Array.from(
    { length: 100 },
    (_, index) => line.slice(index * 100, index * 100 + 100),
  );
  assertEquals(await parse([...chunks, line.slice(10_000), "\n\n"]), [{
    data: "x".repeat(10_000),
  }]);
});

Deno.test("SseParseStream fails with SseLimitError past the event or the stream limit", async () => {
  const limits = { maxEventChars: 20, maxStreamChars: 60 };
  const run = (chunks: readonly string[]) =>
    Array.fromAsync(ReadableStream.from(chunks).pipeThrough(new SseParseStream(limits)));
  assertEquals(await run(["data: 123456789\n\n", "data: 123456789\n\n"]), [
    { data: "123456789" },
    { data: "123456789" },
  ]);
  await assertRejects(run(["data: 12345", "6789012345678\n\n"]), SseLimitError);
  await assertRejects(run(["data: 123456789\ndata: 123456789\n\n"]), SseLimitError);
  await assertRejects(run(["data: 1\n\n".repeat(7)]), SseLimitError);
});
