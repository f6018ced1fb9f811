import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { escapePieces, incompleteTail, MAX_PENDING, stripEscapes } from "./escape_sequences.ts";

Deno.test("stripEscapes() removes CSI, OSC, DCS, APC and two-byte escapes in 7-bit and C1 forms", () => {
  strictEqual(stripEscapes("\x1b[1;31mred\x1b[0m \x1b[?25lhidden\x1b[K"), "red hidden");
  strictEqual(stripEscapes("\x1b]0;title\x07a\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\"), "alink");
  strictEqual(stripEscapes("\x9b2J\x9d0;t\x9cb\x1bPq#0\x1b\\c\x1b_apc\x1b\\d"), "bcd");
  strictEqual(stripEscapes("\x1b(0line\x1b(B\x1b7\x1b8\x1bc"), "line");
  strictEqual(stripEscapes("tab\tline\r\nbell\x07"), "tab\tline\r\nbell\x07");
  strictEqual(stripEscapes("plain é 漢 😀"), "plain é 漢 😀");
});

Deno.test("escapePieces() tells SGR from the other sequences", () => {
  deepStrictEqual(escapePieces("a\x1b[38;5;208mb\x1b[0m\x1b]0;t\x07\x1b[2Jc"), [
    { kind: "text", text: "a" },
    { kind: "sgr", text: "\x1b[38;5;208m" },
    { kind: "text", text: "b" },
    { kind: "sgr", text: "\x1b[0m" },
    { kind: "escape", text: "\x1b]0;t\x07" },
    { kind: "escape", text: "\x1b[2J" },
    { kind: "text", text: "c" },
  ]);
  // The C1 form, private parameters and an absurdly long SGR are not colour a command means.
  for (const sequence of ["\x9b31m", "\x1b[?31m", `\x1b[${"1;".repeat(40)}m`]) {
    deepStrictEqual(escapePieces(sequence).map((piece) => piece.kind), ["escape"], sequence);
  }
  deepStrictEqual(escapePieces(""), []);
});

Deno.test("incompleteTail() finds a sequence cut at the end of a chunk", () => {
  strictEqual(incompleteTail("ok\x1b[3"), 2);
  strictEqual(incompleteTail("ok\x1b"), 2);
  strictEqual(incompleteTail("ok\x1b]0;title"), 2);
  strictEqual(incompleteTail("ok\x1b[31m"), 7);
  strictEqual(incompleteTail("ok\x1b[31mred"), 10);
  strictEqual(incompleteTail("plain"), 5);
  // An unfinished sequence longer than the window is not held back.
  const long = `\x1b]0;${"x".repeat(MAX_PENDING)}`;
  strictEqual(incompleteTail(long), long.length);
});
