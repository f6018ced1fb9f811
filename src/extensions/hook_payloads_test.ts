import assert from "node:assert/strict";
import { isHookPoint, parseHookPayload } from "./hook_payloads.ts";

Deno.test("parseHookPayload() fills what a run would give", () => {
  assert.deepEqual(
    parseHookPayload("beforeToolExecute", { name: "shell", arguments: { command: "ls" } }),
    {
      ok: true,
      args: [{ id: "call_test", name: "shell", arguments: { command: "ls" } }],
    },
  );
  assert.deepEqual(parseHookPayload("afterRun", {}), { ok: true, args: [{ reason: "end_turn" }] });
  assert.deepEqual(
    parseHookPayload("afterToolExecute", {
      call: { name: "http", arguments: {} },
      result: { text: "t" },
    }),
    {
      ok: true,
      args: [{ id: "call_test", name: "http", arguments: {} }, { text: "t", isError: false }],
    },
  );
  assert.deepEqual(
    parseHookPayload("beforeModelRequest", {
      system: "s",
      messages: [{ role: "user", text: "hi" }],
    }),
    {
      ok: true,
      args: [{ system: "s", model: "test/test", messages: [{ role: "user", text: "hi" }] }],
    },
  );
});

Deno.test("parseHookPayload() names the wrong part", () => {
  assert.deepEqual(parseHookPayload("afterRun", { reason: "done" }), {
    ok: false,
    message: "invalid afterRun payload: reason must be one of end_turn, interrupted, error",
  });
  assert.deepEqual(parseHookPayload("afterModelResponse", { thinking: "t" }), {
    ok: false,
    message: "invalid afterModelResponse payload: text must be a string",
  });
  assert.deepEqual(
    parseHookPayload("beforeModelRequest", { messages: [{ role: "system", text: "x" }] }),
    {
      ok: false,
      message: 'invalid beforeModelRequest payload: messages[0].role must be "user" or "assistant"',
    },
  );
  assert.deepEqual(parseHookPayload("beforeToolExecute", { arguments: {} }), {
    ok: false,
    message: "invalid beforeToolExecute payload: name must be a string",
  });
  assert.deepEqual(parseHookPayload("afterToolExecute", { call: {}, result: { text: "" } }), {
    ok: false,
    message: "invalid afterToolExecute payload: call.name must be a string",
  });
  assert.deepEqual(parseHookPayload("beforeRun", [1]), {
    ok: false,
    message: "invalid beforeRun payload: the payload must be an object",
  });
});

Deno.test("isHookPoint() knows the seven points", () => {
  assert.equal(isHookPoint("afterToolExecute"), true);
  assert.equal(isHookPoint("beforeToolExecution"), false);
});

Deno.test("parseHookPayload() refuses a value a run would never hand to a hook", () => {
  let deep: unknown = [];
  for (let level = 0; level < 100; level++) deep = [deep];
  assert.deepEqual(parseHookPayload("beforeToolExecute", { name: "t", arguments: { deep } }), {
    ok: false,
    message: "invalid beforeToolExecute payload: arguments is nested deeper than 64 levels",
  });
  const toolCalls = [{ name: "t", arguments: { deep } }];
  assert.deepEqual(parseHookPayload("afterModelResponse", { text: "", toolCalls }), {
    ok: false,
    message:
      "invalid afterModelResponse payload: toolCalls[0].arguments is nested deeper than 64 levels",
  });
  const text = "x".repeat(2 * 1024 * 1024);
  assert.deepEqual(parseHookPayload("afterModelResponse", { text }), {
    ok: false,
    message: "invalid afterModelResponse payload: text is larger than 1 MiB",
  });
});
