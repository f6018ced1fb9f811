import assert from "node:assert/strict";
import { readAtMost, readTextFileAtMost } from "./read_at_most.ts";

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
