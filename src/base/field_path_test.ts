import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { formatFieldPath, parseJsonPointer, valueAt } from "./field_path.ts";

Deno.test("formatFieldPath() dots keys, brackets indexes and quotes odd keys", () => {
  strictEqual(formatFieldPath([]), "");
  strictEqual(formatFieldPath(["providers", "local", "base_url"]), "providers.local.base_url");
  strictEqual(formatFieldPath(["tools", 1]), "tools[1]");
  strictEqual(formatFieldPath(["headers", "x.y"]), 'headers["x.y"]');
  strictEqual(formatFieldPath(["my key", "a"]), '["my key"].a');
});

Deno.test("parseJsonPointer() turns list positions into numbers only inside lists", () => {
  const data = { a: [{ "0": 1 }], "b/c": { "7": true } };
  deepStrictEqual(parseJsonPointer("/a/0/0", data), ["a", 0, "0"]);
  deepStrictEqual(parseJsonPointer("/b~1c/7", data), ["b/c", "7"]);
  deepStrictEqual(parseJsonPointer("", data), []);
  deepStrictEqual(parseJsonPointer("/x~0y"), ["x~y"]);
});

Deno.test("valueAt() walks mappings and lists, and is undefined past a scalar", () => {
  const data = { items: [{ name: "a" }], n: 1 };
  strictEqual(valueAt(data, ["items", 0, "name"]), "a");
  strictEqual(valueAt(data, ["items", "0", "name"]), "a");
  strictEqual(valueAt(data, ["n", "x"]), undefined);
  strictEqual(valueAt(data, []), data);
});
