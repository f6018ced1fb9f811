import assert from "node:assert/strict";
import {
  describeGuestValue,
  formatGuestError,
  parseGuestResult,
  userLineOf,
} from "./guest_result.ts";

const limits = { memoryBytes: 64 * 1024 * 1024 };

Deno.test("userLineOf() finds the first frame of the user's index.js", () => {
  const stack =
    "    at call (<rienda>:12:5)\n    at helper (index.js:7:3)\n    at execute (index.js:2:10)\n";
  assert.equal(userLineOf(stack), 7);
  assert.equal(userLineOf("    at index.js:3:15\n"), 3);
  assert.equal(userLineOf("    at run (<rienda>:3:1)\n"), null);
  assert.equal(userLineOf(""), null);
});

Deno.test("parseGuestResult() decodes values, throws and stops", () => {
  assert.deepEqual(
    parseGuestResult({ kind: "value", resultJson: '{"k":"json","v":[1]}' }, limits),
    {
      kind: "value",
      value: { kind: "json", value: [1] },
    },
  );
  assert.deepEqual(parseGuestResult({ kind: "value", resultJson: '{"k":"undefined"}' }, limits), {
    kind: "value",
    value: { kind: "undefined" },
  });
  const threw = JSON.stringify({
    k: "threw",
    name: "RangeError",
    message: "x",
    stack: "    at f (index.js:4:1)",
  });
  assert.deepEqual(parseGuestResult({ kind: "value", resultJson: threw }, limits), {
    kind: "threw",
    error: { name: "RangeError", message: "x", line: 4 },
  });
  assert.deepEqual(parseGuestResult({ kind: "memory" }, limits), {
    kind: "stopped",
    reason: "memory",
    message: "exceeded the memory limit of 64 MiB",
  });
  assert.equal(parseGuestResult({ kind: "value", resultJson: "garbage" }, limits).kind, "stopped");
});

Deno.test("formatGuestError() shows the message, a telling class and the line", () => {
  assert.equal(formatGuestError({ name: "Error", message: "boom", line: 3 }), "boom (index.js:3)");
  assert.equal(
    formatGuestError({ name: "TypeError", message: "x is not a function", line: null }),
    "TypeError: x is not a function",
  );
});

Deno.test("describeGuestValue() names what was returned", () => {
  assert.equal(describeGuestValue({ kind: "json", value: 42 }), "a number");
  assert.equal(describeGuestValue({ kind: "json", value: [] }), "an array");
  assert.equal(describeGuestValue({ kind: "json", value: null }), "null");
  assert.equal(describeGuestValue({ kind: "json", value: {} }), "an object");
  assert.equal(describeGuestValue({ kind: "json", value: true }), "a boolean");
  assert.equal(describeGuestValue({ kind: "undefined" }), "undefined");
  assert.equal(describeGuestValue({ kind: "opaque", type: "function" }), "a function");
});
