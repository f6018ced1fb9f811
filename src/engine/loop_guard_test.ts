import { strictEqual as assertEquals } from "node:assert/strict";
import { createLoopGuard, loopNote, withLoopNote } from "./loop_guard.ts";
import type { CallOutcome } from "./tool_batch.ts";

function round(command: string, text: string): CallOutcome[] {
  return [{
    call: { type: "tool_call", id: crypto.randomUUID(), name: "shell", arguments: { command } },
    result: { text, isError: false },
  }];
}

Deno.test("createLoopGuard() counts identical rounds in a row", () => {
  const guard = createLoopGuard();
  for (const expected of [1, 2, 3, 4, 5]) assertEquals(guard.observe(round("ls", "a")), expected);
});

Deno.test("createLoopGuard() ignores call ids and resets when the result changes", () => {
  const guard = createLoopGuard();
  guard.observe(round("ls", "a"));
  guard.observe(round("ls", "a"));
  assertEquals(guard.observe(round("ls", "b")), 1);
  assertEquals(guard.observe(round("ls", "b")), 2);
});

Deno.test("createLoopGuard() resets when the arguments change", () => {
  const guard = createLoopGuard();
  guard.observe(round("ls", "a"));
  guard.observe(round("ls", "a"));
  assertEquals(guard.observe(round("ls -l", "a")), 1);
});

Deno.test("withLoopNote() appends the note to every result and keeps the rest", () => {
  const [noted] = withLoopNote(round("ls", "a"), 3);
  assertEquals(noted?.result.text, `a\n\n${loopNote(3)}`);
  assertEquals(noted?.result.isError, false);
});
