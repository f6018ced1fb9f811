import assert from "node:assert/strict";
import { MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH, payloadProblem } from "./payload_limits.ts";

function nested(levels: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
}

Deno.test("payloadProblem() accepts 64 levels and refuses 65, however deep the value goes", () => {
  assert.equal(payloadProblem({ pad: nested(MAX_PAYLOAD_DEPTH - 1) }), null);
  assert.equal(payloadProblem({ pad: nested(MAX_PAYLOAD_DEPTH) }), "nested deeper than 64 levels");
  // Deeper than V8's JSON.stringify can go: the walk stops at the limit.
  assert.equal(payloadProblem({ pad: nested(200_000) }), "nested deeper than 64 levels");
});

Deno.test("payloadProblem() counts a text's UTF-8 bytes and other values' JSON", () => {
  assert.equal(payloadProblem("a".repeat(MAX_PAYLOAD_BYTES)), null);
  assert.equal(payloadProblem("a".repeat(MAX_PAYLOAD_BYTES + 1)), "larger than 1 MiB");
  assert.equal(payloadProblem("é".repeat(MAX_PAYLOAD_BYTES / 2)), null);
  assert.equal(payloadProblem("é".repeat(MAX_PAYLOAD_BYTES / 2 + 1)), "larger than 1 MiB");
  assert.equal(payloadProblem({ a: "a".repeat(MAX_PAYLOAD_BYTES - 8) }), null);
  assert.equal(payloadProblem({ a: "a".repeat(MAX_PAYLOAD_BYTES - 7) }), "larger than 1 MiB");
  assert.equal(payloadProblem(null), null);
});
