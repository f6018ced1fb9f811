import assert from "node:assert/strict";
import { applyPatch } from "diff";
import { MAX_DIFF_LINES, shortDiff } from "./short_diff.ts";

/** Applies the hunks of `shortDiff` to `before` with the diff package, to check they are right. */
function roundTrip(before: string, after: string): void {
  const hunks = shortDiff(before, after);
  const patch = `--- a\n+++ b\n${hunks}\n`;
  assert.equal(applyPatch(before, patch), after, `${JSON.stringify([before, after])}\n${hunks}`);
}

Deno.test("shortDiff() hunks turn the old text into the new one, wherever the change is", () => {
  const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join("\n") + "\n";
  const cases: [string, string][] = [
    [lines, lines.replace("line 10\n", "ten\n")],
    [lines, `new first\n${lines}`],
    [lines, `${lines}new last\n`],
    [lines, lines.replace("line 1\n", "")],
    [lines, lines.slice(0, -1)],
    ["a\nb\n", "a\nxb\n"],
    ["ab\n", "aab\n"],
    ["x\nab\n", "x\naab\n"],
    ["", "created\n"],
    ["gone\n", ""],
    [lines, lines.replaceAll("line 1", "LINE 1")],
  ];
  for (const [before, after] of cases) roundTrip(before, after);
});

Deno.test("shortDiff() numbers hunks in the whole file and cuts long diffs", () => {
  const lines = Array.from({ length: 1000 }, (_, index) => `line ${index + 1}`);
  const before = lines.join("\n") + "\n";
  assert.match(shortDiff(before, before.replace("line 500\n", "x\n")), /^@@ -497,7 \+497,7 @@\n/);
  const rewritten = lines.slice(0, 100).map((line) => `${line}!`).join("\n") + "\n";
  const long = shortDiff(lines.slice(0, 100).join("\n") + "\n", rewritten).split("\n");
  assert.equal(long.length, MAX_DIFF_LINES + 1);
  assert.match(long.at(-1) ?? "", /^\[\d+ more diff lines not shown\]$/);
  assert.equal(shortDiff(before, before), "");
});

Deno.test("shortDiff() names the changed lines when the diff takes too long", () => {
  const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index + 1}`);
  const before = lines.join("\n") + "\n";
  const after = lines.map((line, index) => index < 2 ? line : `${line}!`).join("\n") + "\n";
  assert.equal(
    shortDiff(before, after),
    "[the change spans lines 1–20000; its diff is too large to show: read those lines to check them]",
  );
});
