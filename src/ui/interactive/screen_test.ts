import assert from "node:assert/strict";
import xterm from "@xterm/headless";
import { createScreen } from "./screen.ts";

function terminal(cols = 40, rows = 10) {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 100 });
  let written = "";
  const write = (text: string) => {
    written += text;
    term.write(text);
  };
  const all = async () => {
    await new Promise<void>((resolve) => term.write("", resolve));
    const buffer = term.buffer.active;
    return Array.from(
      { length: buffer.length },
      (_, index) => buffer.getLine(index)!.translateToString(true),
    ).join("\n").trimEnd();
  };
  return { term, write, all, taken: () => written, reset: () => (written = "") };
}

Deno.test("committed rows are written once above the live region", async () => {
  const t = terminal();
  const screen = createScreen(t.write, 40);
  screen.draw(["live 1", "status"], null);
  screen.commit(["done A", "done B"]);
  screen.draw(["live 2", "status"], null);
  screen.draw(["live 3", "status"], null);
  assert.equal(await t.all(), "done A\ndone B\nlive 3\nstatus");
});

Deno.test("only changed rows are rewritten, inside synchronized output", async () => {
  const t = terminal();
  const screen = createScreen(t.write, 40);
  screen.draw(["aaa", "bbb", "ccc"], null);
  t.reset();
  screen.draw(["aaa", "BBB", "ccc"], null);
  const written = t.taken();
  assert.ok(written.startsWith("\x1b[?2026h") && written.endsWith("\x1b[?2026l"), written);
  assert.ok(written.includes("BBB") && !written.includes("aaa") && !written.includes("ccc"));
  assert.equal(await t.all(), "aaa\nBBB\nccc");
});

Deno.test("a shrinking live region leaves nothing behind; the caret is placed", async () => {
  const t = terminal();
  const screen = createScreen(t.write, 40);
  screen.draw(["one", "two", "three", "four"], null);
  screen.draw(["one", "TWO"], { row: 1, col: 2 });
  assert.equal(await t.all(), "one\nTWO");
  assert.equal(t.term.buffer.active.cursorY, 1);
  assert.equal(t.term.buffer.active.cursorX, 2);
});

Deno.test("after the terminal narrows, the reflowed live region is redrawn in place", async () => {
  const t = terminal(40, 10);
  const screen = createScreen(t.write, 40);
  screen.commit(["kept"]);
  screen.draw(["x".repeat(39), "status"], null);
  t.term.resize(20, 10);
  screen.resize(20);
  screen.draw(["x".repeat(19), "x".repeat(19), "status"], null);
  assert.equal(await t.all(), `kept\n${"x".repeat(19)}\n${"x".repeat(19)}\nstatus`);
});

Deno.test("createScreen() writes out every control of a row but SGR styling, and cuts it to fit", async () => {
  const t = terminal(30);
  const screen = createScreen(t.write, 30);
  screen.commit(["\x1b[1mbold\x1b[22m \x1b]0;title\x07 \x1b]52;c;eA==\x07 and a long tail"]);
  screen.draw(["\x1b[2Jlive\x9b2J \x1b[31mred\x1b[39m"], null);
  const written = t.taken();
  for (const hostile of ["\x1b]0;", "\x1b]52;", "\x1b[2Jlive", "\x9b"]) {
    assert.ok(!written.includes(hostile), `${JSON.stringify(hostile)} was written`);
  }
  assert.ok(written.includes("\x1b[1mbold\x1b[22m") && written.includes("\x1b[31mred\x1b[39m"));
  assert.equal(await t.all(), "bold \\x1b]0;title\\x07 \\x1b]5…\n\\x1b[2Jlive\\x9b2J red");
});
