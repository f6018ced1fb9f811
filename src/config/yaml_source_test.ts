import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { parseYaml } from "./yaml_source.ts";

Deno.test("parseYaml() reports the first syntax error with its line and column", () => {
  const result = parseYaml("a: 1\nb: [1, 2\n");
  strictEqual(result.ok, false);
  if (result.ok) return;
  deepStrictEqual(result.position, { line: 3, column: 1 });
  strictEqual(result.message.startsWith("flow sequence"), true);
});

Deno.test("parseYaml() rejects duplicate keys at the second one", () => {
  const result = parseYaml("a: 1\na: 2\n");
  deepStrictEqual(
    result.ok ? undefined : [result.message, result.position],
    ["map keys must be unique", { line: 2, column: 1 }],
  );
});

Deno.test("parseYaml() gives null for an empty or comment-only document", () => {
  for (const text of ["", "\n", "# nothing\n"]) {
    const result = parseYaml(text);
    strictEqual(result.ok && result.source.value, null);
  }
});

Deno.test("parseYaml() keeps YAML 1.2 scalars: yes stays a string", () => {
  const result = parseYaml("a: yes\nb: 0x10\nc: ~\n");
  deepStrictEqual(result.ok && result.source.value, { a: "yes", b: 16, c: null });
});

Deno.test("locate() finds values, keys and list items", () => {
  const result = parseYaml("x:\n  y: [1, {z: 3}]\n  w:\n");
  if (!result.ok) throw new Error(result.message);
  const { source } = result;
  deepStrictEqual(source.locate(["x", "y", 1, "z"]), { line: 2, column: 14 });
  deepStrictEqual(source.locate(["x", "y"], { key: true }), { line: 2, column: 3 });
  deepStrictEqual(source.locate(["x", "w"], { key: true }), { line: 3, column: 3 });
  strictEqual(source.locate(["x", "missing"]), undefined);
  strictEqual(source.locate(["x", "y", 5]), undefined);
});

Deno.test("parseYaml() refuses documents that expand aliases without bound", () => {
  const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 8; i++) {
    const refs = Array.from({ length: 10 }, () => `*a${i - 1}`).join(", ");
    lines.push(`a${i}: &a${i} [${refs}]`);
  }
  strictEqual(parseYaml(lines.join("\n")).ok, false);
});
