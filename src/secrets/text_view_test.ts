import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { viewOf } from "./text_view.ts";

Deno.test("viewOf() leaves out escapes, controls and zero-width characters, and maps back", () => {
  const text = "ab\x1b[31mcd\x1b[0m\u200be\x07f\tg";
  const view = viewOf(text, "invisible");
  strictEqual(view.text, "abcdef\tg");
  deepStrictEqual(view.original({ start: 1, end: 5 }), { start: 1, end: text.indexOf("e") + 1 });
  deepStrictEqual(view.original({ start: 0, end: 1 }), { start: 0, end: 1 });
  deepStrictEqual(view.original({ start: 5, end: 8 }), {
    start: text.indexOf("f"),
    end: text.length,
  });
});

Deno.test("viewOf() with line breaks joins lines without their indentation", () => {
  const text = "one\n    two\r\n\tthree\n";
  const view = viewOf(text, "lineBreaks");
  strictEqual(view.text, "onetwothree");
  deepStrictEqual(view.original({ start: 2, end: 4 }), { start: 2, end: text.indexOf("t") + 1 });
  strictEqual(viewOf("plain", "lineBreaks").text, "plain");
});

Deno.test("viewOf() keeps the text of an OSC title, so a key cannot hide inside one", () => {
  strictEqual(viewOf("\x1b]0;sk-title\x07rest", "invisible").text, "0;sk-titlerest");
});
