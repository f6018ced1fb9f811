import assert from "node:assert/strict";
import { readAtMost, readTextFileAtMost, readWhileProducing } from "./read_at_most.ts";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return ReadableStream.from(chunks.map((chunk) => encoder.encode(chunk)));
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("readAtMost() keeps the first bytes and says whether the body ended within them", async () => {
  const short = await readAtMost(streamOf("ab", "cd"), 4);
  assert.deepEqual([text(short.bytes), short.complete], ["abcd", true]);
  const long = await readAtMost(streamOf("ab", "cde", "fgh"), 4);
  assert.deepEqual([text(long.bytes), long.complete], ["abcd", false]);
  const none = await readAtMost(null, 4);
  assert.deepEqual([none.bytes.length, none.complete], [0, true]);
});

Deno.test("readAtMost() stops reading past the cap and cancels the body", async () => {
  let pulls = 0;
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new Uint8Array(1024));
    },
    cancel() {
      cancelled = true;
    },
  });
  const part = await readAtMost(endless, 4096);
  assert.equal(part.bytes.length, 4096);
  assert.equal(part.complete, false);
  assert.ok(pulls <= 7, `${pulls} reads`);
  assert.ok(cancelled);
});

Deno.test("readTextFileAtMost() reads a device without end only up to the cap", async () => {
  const zero = await readTextFileAtMost("/dev/zero", 1024);
  assert.deepEqual([zero.text.length, zero.complete], [1024, false]);
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.txt`, "héllo");
  const small = await readTextFileAtMost(`${dir}/a.txt`, 1024);
  assert.deepEqual([small.text, small.complete], ["héllo", true]);
  await Deno.remove(dir, { recursive: true });
});

/** A body that sends nothing until `send` is called, then sends `text` and ends. */
function silentUntilSent(): { body: ReadableStream<Uint8Array>; send(text: string): void } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    body,
    send(text) {
      controller?.enqueue(new TextEncoder().encode(text));
      controller?.close();
    },
  };
}

Deno.test("readWhileProducing() gives up on a body silent for the wait, and cancels it", async () => {
  let cancelled = false;
  const silent = new ReadableStream<Uint8Array>({ cancel: () => void (cancelled = true) });
  assert.equal(await readWhileProducing(silent, 16, { firstBytesWithinMs: 1 }), null);
  assert.ok(cancelled);
});

Deno.test("readWhileProducing() reads to the end once the first bytes came in time", async () => {
  const slow = silentUntilSent();
  const reading = readWhileProducing(slow.body, 16, {});
  slow.send("late but whole");
  const part = await reading;
  assert.deepEqual([text(part?.bytes ?? new Uint8Array()), part?.complete], [
    "late but whole",
    true,
  ]);
  const capped = await readWhileProducing(streamOf("abc", "def"), 4, { firstBytesWithinMs: 1_000 });
  assert.deepEqual([text(capped?.bytes ?? new Uint8Array()), capped?.complete], ["abcd", false]);
});

Deno.test("readWhileProducing() rejects with the signal's reason as soon as it aborts", async () => {
  const never = silentUntilSent();
  const stop = new AbortController();
  const reading = readWhileProducing(never.body, 16, { signal: stop.signal });
  stop.abort(new Error("interrupted"));
  await assert.rejects(reading, /interrupted/);
});
