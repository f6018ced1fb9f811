import assert from "node:assert/strict";
import { findDeepNesting, MAX_SOURCE_NESTING } from "./source_nesting.ts";

const deep = (open: string, close: string, n = MAX_SOURCE_NESTING + 1) =>
  open.repeat(n) + "1" + close.repeat(n);

Deno.test("findDeepNesting() finds brackets nested past the limit, with the line", () => {
  assert.equal(findDeepNesting(deep("(", ")")), 1);
  assert.equal(findDeepNesting(deep("[", "]")), 1);
  assert.equal(findDeepNesting(deep("({a:", "})", 129)), 1);
  assert.equal(findDeepNesting("var ok = 1;\n\n" + deep("`${", "}`")), 3);
  assert.equal(findDeepNesting(deep("-(", ")")), 1);
});

Deno.test("findDeepNesting() accepts nesting up to the limit and ordinary code", () => {
  assert.equal(findDeepNesting(deep("(", ")", MAX_SOURCE_NESTING)), null);
  const code = `function f(a, b) { return [a, { b: (a + b) / 2 }].map((x) => x); }\n`.repeat(50);
  assert.equal(findDeepNesting(code), null);
});

Deno.test("findDeepNesting() skips strings, comments, template text and regular expressions", () => {
  const brackets = "(".repeat(MAX_SOURCE_NESTING + 1);
  for (
    const source of [
      `var s = "${brackets}";`,
      `var s = '${brackets}\\'';`,
      `// ${brackets}\nvar x = 1;`,
      `/* ${brackets} */ var x = 1;`,
      `var t = \`${brackets}\${1}${brackets}\`;`,
      `var r = /${brackets}[/]/g.test(s);`,
      `if (x) return /${brackets}/;`,
    ]
  ) {
    assert.equal(findDeepNesting(source), null, source);
  }
});

Deno.test("findDeepNesting() reads an unsure slash as a division, so brackets after it count", () => {
  const source = `var x = {} / ${deep("(", ")")} / 1;`;
  assert.equal(findDeepNesting(source), 1);
  assert.equal(findDeepNesting(`a[0] / ${deep("(", ")")}`), 1);
});
