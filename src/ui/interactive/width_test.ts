import assert from "node:assert/strict";
import { stripAnsi, textWidth, truncate, wrapLine } from "./width.ts";

Deno.test("widths of ASCII, CJK, emoji, combining marks and escapes", () => {
  assert.equal(textWidth("hello"), 5);
  assert.equal(textWidth("日本語"), 6);
  assert.equal(textWidth("👍"), 2);
  assert.equal(textWidth("👍🏽"), 2);
  assert.equal(textWidth("e\u0301"), 1);
  assert.equal(textWidth("\x1b[1mbold\x1b[22m"), 4);
  assert.equal(textWidth("\x1b]52;c;aGk=\x07x"), 1);
});

Deno.test("wrapLine breaks at spaces and inside long words", () => {
  assert.deepEqual(wrapLine("aaa bbb ccc", 7), ["aaa bbb", "ccc"]);
  assert.deepEqual(wrapLine("abcdefghij", 4), ["abcd", "efgh", "ij"]);
  assert.deepEqual(wrapLine("日本語日本語", 5), ["日本", "語日", "本語"]);
  assert.deepEqual(wrapLine("aa bb cc", 5, "  "), ["aa bb", "  cc"]);
});

Deno.test("wrapLine closes and reopens attributes across rows", () => {
  const rows = wrapLine("\x1b[1maaa bbb\x1b[22m c", 4);
  assert.deepEqual(rows.map(stripAnsi), ["aaa", "bbb", "c"]);
  assert.equal(rows[0], "\x1b[1maaa\x1b[0m");
  assert.ok(rows[1]!.startsWith("\x1b[1m"));
});

Deno.test("truncate ends with an ellipsis within the width", () => {
  assert.equal(truncate("abcdef", 4), "abc…");
  assert.equal(truncate("abc", 4), "abc");
  assert.equal(textWidth(truncate("日本語日本語", 5)), 5);
});
