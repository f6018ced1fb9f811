import assert from "node:assert/strict";
import { createKeyParser, type Key } from "./keys.ts";

const key = (
  name: string,
  mods: Partial<{ ctrl: boolean; alt: boolean; shift: boolean }> = {},
) => ({
  type: "key",
  name,
  ctrl: mods.ctrl ?? false,
  alt: mods.alt ?? false,
  shift: mods.shift ?? false,
});

function parse(...chunks: string[]): Key[] {
  const parser = createKeyParser();
  return [...chunks.flatMap((chunk) => parser.feed(chunk)), ...parser.flush()];
}

Deno.test("text and Enter in one read are two keys", () => {
  assert.deepEqual(parse("one chunk\r"), [{ type: "text", text: "one chunk" }, key("enter")]);
});

Deno.test("arrows, Home/End, Delete and modifiers", () => {
  assert.deepEqual(parse("\x1b[A\x1b[1;5D\x1bOH\x1b[4~\x1b[3~"), [
    key("up"),
    key("left", { ctrl: true }),
    key("home"),
    key("end"),
    key("delete"),
  ]);
});

Deno.test("Shift+Enter in kitty and modifyOtherKeys forms, Alt+Enter, Ctrl+J", () => {
  assert.deepEqual(parse("\x1b[13;2u\x1b[27;2;13~\x1b\r\n"), [
    key("enter", { shift: true }),
    key("enter", { shift: true }),
    key("enter", { alt: true }),
    key("j", { ctrl: true }),
  ]);
});

Deno.test("a lone Esc is held until flushed; Alt+letter and Alt+Backspace", () => {
  const parser = createKeyParser();
  assert.deepEqual(parser.feed("\x1b"), []);
  assert.equal(parser.pending, true);
  assert.deepEqual(parser.flush(), [key("escape")]);
  assert.deepEqual(parse("\x1bb\x1b\x7f"), [
    key("b", { alt: true }),
    key("backspace", { alt: true }),
  ]);
});

Deno.test("a bracketed paste spanning reads is one key, CRLF made LF", () => {
  assert.deepEqual(parse("\x1b[200~line 1\r\nli", "ne 2\x1b[20", "1~x"), [
    { type: "paste", text: "line 1\nline 2" },
    { type: "text", text: "x" },
  ]);
});

Deno.test("control characters: Ctrl+C, Ctrl+D, Tab, Backspace", () => {
  assert.deepEqual(parse("\x03\x04\t\x7f"), [
    key("c", { ctrl: true }),
    key("d", { ctrl: true }),
    key("tab"),
    key("backspace"),
  ]);
});
