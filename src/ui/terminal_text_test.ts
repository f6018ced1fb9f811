import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  commandLines,
  commandText,
  createCommandStream,
  keepStyling,
  safeFor,
  terminalSafe,
  terminalSafeSink,
  withoutControls,
} from "./terminal_text.ts";

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

const OUTPUT = "\x1b[32mok\x1b[0m \x1b]0;title\x07\x1b[2Jx\x9b2J\r";

Deno.test("commandText() renders SGR in colour mode and writes out every other control", () => {
  strictEqual(
    commandText(OUTPUT, "colour"),
    "\x1b[32mok\x1b[0m \\x1b]0;title\\x07\\x1b[2Jx\\x9b2J\\r",
  );
  strictEqual(commandText(OUTPUT, "plain"), "ok \\x1b]0;title\\x07\\x1b[2Jx\\x9b2J\\r");
  strictEqual(commandText(OUTPUT, "strip"), "ok x\\r");
});

Deno.test("commandLines() carries a colour over a line break and closes every styled line", () => {
  deepStrictEqual(commandLines("\x1b[31mred\nstill\x1b[0m\nplain", "colour"), [
    "\x1b[31mred\x1b[0m",
    "\x1b[31mstill\x1b[0m\x1b[0m",
    "plain",
  ]);
  deepStrictEqual(commandLines("\x1b[31mred\nplain", "plain"), ["red", "plain"]);
});

Deno.test("a command stream holds back a sequence cut between chunks, and resets at the end", () => {
  const stream = createCommandStream("colour");
  strictEqual(stream.push("a\x1b[3"), "a");
  strictEqual(stream.push("1mred"), "\x1b[31mred");
  strictEqual(stream.push("\x1b]0;ti"), "");
  strictEqual(stream.end(), "\\x1b]0;ti\x1b[0m");
  strictEqual(stream.push("plain"), "plain");
  strictEqual(stream.end(), "");
});

Deno.test("terminalSafeSink() writes out controls to a pipe when asked to always (stderr)", () => {
  const written: string[] = [];
  const pipe = { isTerminal: false, write: (text: string) => void written.push(text) };
  terminalSafeSink(pipe).write("\x1b[31m");
  terminalSafeSink(pipe, true).write("\x1b[31m");
  deepStrictEqual(written, ["\x1b[31m", "\\x1b[31m"]);
});
