import { strictEqual } from "node:assert/strict";
import { safeFor, terminalSafe } from "./terminal_text.ts";

Deno.test("terminalSafe() writes out C0 (but newline and tab), DEL and C1 controls", () => {
  strictEqual(terminalSafe("a\x1b[31mred\x1b]0;title\x07"), "a\\x1b[31mred\\x1b]0;title\\x07");
  strictEqual(terminalSafe("line\r\nnext\ttab"), "line\\r\nnext\ttab");
  strictEqual(terminalSafe("\x9b2J\x7f\x00"), "\\x9b2J\\x7f\\x00");
  strictEqual(terminalSafe("plain é 漢 😀"), "plain é 漢 😀");
});

Deno.test("safeFor() leaves text for a pipe byte for byte", () => {
  strictEqual(safeFor(false, "\x1b[31m"), "\x1b[31m");
  strictEqual(safeFor(true, "\x1b[31m"), "\\x1b[31m");
});
