import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { changeOf, lineCountOf, resultSummary } from "./tool_lines.ts";

Deno.test("resultSummary() is one short line per tool", () => {
  strictEqual(resultSummary("shell", "a\nb\nc", "a\nb\nc\n"), "exit 0 · 3 lines");
  strictEqual(resultSummary("shell", "(no output)", ""), "exit 0 · no output");
  strictEqual(resultSummary("shell", "one", ""), "exit 0 · 1 line");
  strictEqual(
    resultSummary("edit", "edited a.ts (1 replacement)\n@@ -1 +1 @@\n-a\n+b", ""),
    "edited a.ts (1 replacement)",
  );
  strictEqual(resultSummary("write", "created a.ts (2 lines)", ""), "created a.ts (2 lines)");
  strictEqual(
    resultSummary("http", "HTTP 200 OK\ncontent-type: text/plain\n\nhi", ""),
    "HTTP 200 OK · 4 lines",
  );
  strictEqual(resultSummary("read", "1\ta\n2\tb", ""), "2 lines");
  strictEqual(resultSummary("mcp__x", "  done  ", ""), "done");
  strictEqual(resultSummary("x", "y".repeat(300), "").length, 100);
});

Deno.test("changeOf() reads the diff of edit and write only", () => {
  deepStrictEqual(changeOf("edit", "edited a (1 replacement)\n@@ -1 +1 @@\n-a\n+b"), {
    summary: "edited a (1 replacement)",
    diff: ["@@ -1 +1 @@", "-a", "+b"],
  });
  deepStrictEqual(changeOf("write", "created a (1 line)"), {
    summary: "created a (1 line)",
    diff: [],
  });
  strictEqual(changeOf("shell", "edited a\n@@ x"), null);
  strictEqual(changeOf("edit", "old_string occurs 2 times\nnot a diff"), null);
});

Deno.test("lineCountOf() counts lines, a final newline ending the last", () => {
  deepStrictEqual(["", "a", "a\n", "a\nb", "a\nb\n", "\n"].map(lineCountOf), [0, 1, 1, 2, 2, 1]);
});
