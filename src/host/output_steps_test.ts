import assert from "node:assert/strict";
import {
  BACKLOG_HIGH_BYTES,
  BACKLOG_LOW_BYTES,
  changeOutputBacklog,
  createYieldPoint,
  splitOutput,
} from "./output_steps.ts";

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

Deno.test("createYieldPoint() waits while the output backlog is high, until it drains or is released", async () => {
  const yieldPoint = createYieldPoint(1_000_000);
  changeOutputBacklog(BACKLOG_HIGH_BYTES + 1);
  const waiting = yieldPoint();
  assert.ok(waiting instanceof Promise);
  let resumed = false;
  void waiting.then(() => resumed = true);
  changeOutputBacklog(-(BACKLOG_HIGH_BYTES + 1 - BACKLOG_LOW_BYTES));
  await waiting;
  assert.ok(resumed);
  changeOutputBacklog(-BACKLOG_LOW_BYTES);
  assert.equal(yieldPoint(), null);
});
