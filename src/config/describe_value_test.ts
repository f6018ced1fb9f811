import { strictEqual } from "node:assert/strict";
import { describeValue } from "./describe_value.ts";

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
