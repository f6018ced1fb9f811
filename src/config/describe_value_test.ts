import { strictEqual } from "node:assert/strict";
import { describeKind, describeValue } from "./describe_value.ts";

Deno.test("describeValue() shows scalars as written and collections by kind", () => {
  strictEqual(describeValue(42), "42");
  strictEqual(describeValue(true), "true");
  strictEqual(describeValue("shell"), '"shell"');
  strictEqual(describeValue(null), "nothing");
  strictEqual(describeValue(["a"]), "a list");
  strictEqual(describeValue([]), "an empty list");
  strictEqual(describeValue({ a: 1 }), "a mapping");
});

Deno.test("describeValue() shortens long strings", () => {
  strictEqual(describeValue("x".repeat(100)), JSON.stringify(`${"x".repeat(40)}…`));
});

Deno.test("describeValue() calls a YAML !!binary value binary data, not a mapping", () => {
  strictEqual(describeValue(new Uint8Array([1, 2])), "binary data");
  strictEqual(describeValue(new Date(0)), "a date");
});

Deno.test("describeKind() names the kind and never the value", () => {
  strictEqual(describeKind("sk-live-0123456789"), "a string");
  strictEqual(describeKind(1234567890123), "a number");
  strictEqual(describeKind(false), "a boolean");
  strictEqual(describeKind(["sk"]), "a list");
  strictEqual(describeKind({ key: "sk" }), "a mapping");
});
