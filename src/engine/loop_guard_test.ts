import { strictEqual as assertEquals } from "node:assert/strict";
import { createLoopGuard } from "./loop_guard.ts";
import type { CallOutcome } from "./tool_batch.ts";

function round(command: string, text: string): CallOutcome[] {
  return [{
    call: { type: "tool_call", id: crypto.randomUUID(), name: "shell", arguments: { command } },
    result: { text, isError: false },
  }];
}

Deno.test("createLoopGuard() trips on the third identical round", () => {
  const guard = createLoopGuard();
  assertEquals(guard.observe(round("ls", "a")), false);
  assertEquals(guard.observe(round("ls", "a")), false);
  assertEquals(guard.observe(round("ls", "a")), true);
});

Deno.test("createLoopGuard() ignores call ids and resets when the result changes", () => {
  const guard = createLoopGuard();
  guard.observe(round("ls", "a"));
  guard.observe(round("ls", "a"));
  assertEquals(guard.observe(round("ls", "b")), false);
  assertEquals(guard.observe(round("ls", "b")), false);
  assertEquals(guard.observe(round("ls", "b")), true);
});

Deno.test("createLoopGuard() resets when the arguments change", () => {
  const guard = createLoopGuard();
  guard.observe(round("ls", "a"));
  guard.observe(round("ls", "a"));
  assertEquals(guard.observe(round("ls -l", "a")), false);
});
