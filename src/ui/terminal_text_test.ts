import { strictEqual } from "node:assert/strict";
import { keepStyling, safeFor, terminalSafe, withoutControls } from "./terminal_text.ts";

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

Deno.test("keepStyling() keeps SGR colour and style, writes out every other control", () => {
  strictEqual(
    keepStyling("\x1b[1;31mred\x1b[0m \x1b[38;5;200mx\x1b[m"),
    "\x1b[1;31mred\x1b[0m \x1b[38;5;200mx\x1b[m",
  );
  strictEqual(
    keepStyling("\x1b[38;2;1;2;3mrgb\x1b[39m \x1b[4:3mcurly"),
    "\x1b[38;2;1;2;3mrgb\x1b[39m \x1b[4:3mcurly",
  );
  strictEqual(keepStyling("a\x1b]0;title\x07b"), "a\\x1b]0;title\\x07b");
  strictEqual(keepStyling("\x1b]52;c;Y3VybA==\x07"), "\\x1b]52;c;Y3VybA==\\x07");
  strictEqual(
    keepStyling("\x1b[2J\x1b[1;1H\x1b[8mhidden\x1b[5mblink"),
    "\\x1b[2J\\x1b[1;1H\\x1b[8mhidden\\x1b[5mblink",
  );
  strictEqual(
    keepStyling("\x1b[38;5m\x1b[38;2;1;2m\x1b[38;5;999m"),
    "\\x1b[38;5m\\x1b[38;2;1;2m\\x1b[38;5;999m",
  );
  strictEqual(keepStyling("\x9b31m\x1b\x1b[1m\r"), "\\x9b31m\\x1b\x1b[1m\\r");
  strictEqual(
    keepStyling("\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\"),
    "\\x1b]8;;https://x\\x1b\\link\\x1b]8;;\\x1b\\",
  );
});

Deno.test("withoutControls() removes escape sequences whole and other controls but newline and tab", () => {
  strictEqual(
    withoutControls("a\x1b]0;title\x07b\x1b[1;31mc\x1b[0m\x9b2Jd\x9d0;t\x07e\r\n\tf\x1b(Bg\x00"),
    "abcde\n\tfg",
  );
  strictEqual(withoutControls("\x1b]52;c;Y3VybA==\x1b\\ok \x1bP1$r\x1b\\."), "ok .");
});
