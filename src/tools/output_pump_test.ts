import assert from "node:assert/strict";
import { pumpOutput } from "./output_pump.ts";
import { TRUNCATION_MARKER } from "./truncate.ts";

function streamOf(...chunks: number[][]): ReadableStream<Uint8Array> {
  return ReadableStream.from(chunks.map((chunk) => new Uint8Array(chunk)));
}

Deno.test("pumpOutput() joins a 4-byte character split over three chunks", async () => {
  const pieces: string[] = [];
  // "😀" is F0 9F 98 80.
  const pump = pumpOutput(streamOf([0x61, 0xf0], [0x9f], [0x98, 0x80, 0x62]), 100, (text) => {
    pieces.push(text);
  });
  await pump.done;
  assert.deepEqual(pieces, ["a", "😀b"]);
  assert.equal(pump.collected(), "a😀b");
});

Deno.test("pumpOutput() keeps whole characters up to the cap, then the marker", async () => {
  const pieces: string[] = [];
  // "éé" is 4 bytes; a cap of 3 keeps only the first.
  const pump = pumpOutput(streamOf([0xc3, 0xa9, 0xc3], [0xa9]), 3, (text) => pieces.push(text));
  await pump.done;
  assert.equal(pump.collected(), "é" + TRUNCATION_MARKER);
  assert.equal(pieces.join(""), "éé");
});

Deno.test("pumpOutput() turns a dangling partial character into U+FFFD at the end", async () => {
  const pump = pumpOutput(streamOf([0x61, 0xc3]), 100);
  await pump.done;
  assert.equal(pump.collected(), "a\ufffd");
});

Deno.test("pumpOutput() keeps reading when the live callback throws", async () => {
  const pump = pumpOutput(streamOf([0x61], [0x62]), 100, () => {
    throw new Error("front end failed");
  });
  await pump.done;
  assert.equal(pump.collected(), "ab");
});

Deno.test("pumpOutput() cancel() stops a stream that never ends", async () => {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([0x78]));
    },
  });
  const pump = pumpOutput(stream, 100);
  await pump.cancel();
  assert.equal(pump.collected(), "x");
});
