import assert from "node:assert/strict";
import { type OutputFile, streamSink } from "./stream_sink.ts";

/** A pipe whose writes finish when the test lets them: at most `chunk` bytes each. */
function slowPipe(chunk: number) {
  const received: Uint8Array[] = [];
  let fail: unknown = undefined;
  const file: OutputFile & { received: Uint8Array[]; failWith(error: unknown): void } = {
    received,
    failWith: (error) => fail = error,
    isTerminal: () => false,
    writeSync: () => {
      throw new Error("a pipe is never written synchronously");
    },
    write: async (bytes) => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (fail !== undefined) throw fail;
      const part = bytes.slice(0, chunk);
      received.push(part);
      return part.length;
    },
  };
  return file;
}

const text = (parts: Uint8Array[]) =>
  new TextDecoder().decode(new Uint8Array(parts.flatMap((p) => [...p])));

Deno.test("streamSink() writes a pipe asynchronously, in order, across partial writes", async () => {
  const pipe = slowPipe(3);
  const sink = streamSink(pipe);
  sink.write("hello ");
  sink.write("world");
  assert.equal(pipe.received.length, 0);
  await sink.drained();
  assert.equal(text(pipe.received), "hello world");
});

Deno.test("streamSink() drops output once the reader is gone, and reports any other failure", async () => {
  const gone = slowPipe(100);
  const sink = streamSink(gone);
  gone.failWith(new Deno.errors.BrokenPipe("closed"));
  sink.write("lost");
  await sink.drained();
  sink.write("ignored");
  await sink.drained();
  assert.equal(gone.received.length, 0);

  const full = slowPipe(100);
  const failing = streamSink(full);
  full.failWith(new Error("No space left on device"));
  failing.write("x");
  await assert.rejects(failing.drained(), /No space left/);
});

Deno.test("streamSink() writes a terminal synchronously", () => {
  const written: string[] = [];
  const sink = streamSink({
    isTerminal: () => true,
    writeSync: (bytes) => {
      written.push(new TextDecoder().decode(bytes));
      return bytes.length;
    },
    write: () => Promise.reject(new Error("a terminal is written synchronously")),
  });
  sink.write("now");
  assert.deepEqual(written, ["now"]);
});
