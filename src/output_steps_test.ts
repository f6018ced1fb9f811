import assert from "node:assert/strict";
import { createYieldPoint, splitOutput } from "./output_steps.ts";

Deno.test("splitOutput() cuts long text after a line break, never inside a surrogate pair", () => {
  assert.deepEqual(splitOutput("short", 8), ["short"]);
  assert.deepEqual(splitOutput("abc\ndefghij", 8), ["abc\ndefg", "hij"]);
  assert.deepEqual(splitOutput("abcde\nfghij", 8), ["abcde\n", "fghij"]);
  assert.deepEqual(splitOutput("abcdefg😀xyz", 8), ["abcdefg", "😀xyz"]);
  const long = "line of output\n".repeat(10_000);
  const pieces = splitOutput(long, 8192);
  assert.equal(pieces.join(""), long);
  assert.ok(pieces.every((piece) => piece.length <= 8192 && piece.endsWith("\n")));
});

Deno.test("createYieldPoint() yields only once the interval passed", async () => {
  const yieldPoint = createYieldPoint(1_000_000);
  assert.equal(yieldPoint(), null);
  const eager = createYieldPoint(0);
  const pause = eager();
  assert.ok(pause instanceof Promise);
  await pause;
});
