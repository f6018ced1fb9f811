import assert from "node:assert/strict";
import { compileToolSchema } from "./tool_schema.ts";

async function validator(parameters: Record<string, unknown>) {
  const compiled = await compileToolSchema(parameters);
  if ("problem" in compiled) throw new Error(compiled.problem);
  return compiled.validate;
}

Deno.test("compileToolSchema() runs patterns in linear time with ECMAScript syntax translated", async () => {
  const validate = await validator({
    type: "object",
    properties: {
      word: { type: "string", pattern: "^(a+)+$" },
      accent: { type: "string", pattern: "^caf\\u00e9$" },
      named: { type: "string", pattern: "^(?<year>\\d{4})-\\d{2}$" },
    },
    patternProperties: { "^x-": { type: "number" } },
  });
  assert.equal(validate({ word: `${"a".repeat(100_000)}!` }), false);
  assert.equal(validate({ word: "aaa", accent: "café", named: "2024-05", "x-a": 1 }), true);
  assert.equal(validate({ "x-a": "one" }), false);
});

Deno.test("compileToolSchema() refuses what RE2 cannot do in linear time, naming the pattern", async () => {
  for (const pattern of ["(?=a)b", "(a)\\1"]) {
    const compiled = await compileToolSchema({ type: "string", pattern });
    assert.ok("problem" in compiled);
    assert.match(
      compiled.problem,
      new RegExp(
        `^pattern ${
          JSON.stringify(pattern).replaceAll("\\", "\\\\").replace(/[()?=]/g, "\\$&")
        } cannot run in linear time`,
      ),
    );
  }
});

Deno.test("compileToolSchema() checks uniqueItems like ajv (deep equality) in linear time", async () => {
  const validate = await validator({ type: "array", uniqueItems: true });
  assert.equal(validate([{ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }]), false);
  assert.deepEqual(validate.errors?.map((error) => error.message), [
    "must NOT have duplicate items (items ## 0 and 1 are identical)",
  ]);
  assert.equal(validate([1, "1", [1], { 1: 1 }, null, true]), true);
  assert.equal(validate(Array.from({ length: 200_000 }, (_, i) => i)), true);
  assert.equal((await validator({ type: "array", uniqueItems: false }))([1, 1]), true);
});
