import assert from "node:assert/strict";
import { renderMarkdown, splitFinished } from "./markdown.ts";
import { createTheme } from "./style.ts";
import { stripAnsi } from "./width.ts";

const plain = createTheme(false);
const render = (markdown: string, width = 40) =>
  renderMarkdown(markdown, width, plain).map(stripAnsi);

Deno.test("splitFinished keeps the last block live", () => {
  assert.deepEqual(splitFinished("one"), { finished: "", rest: "one" });
  assert.deepEqual(splitFinished("# T\n\npara"), { finished: "# T\n\n", rest: "para" });
  const list = "para\n\n- a\n- b";
  assert.equal(splitFinished(list).rest, "- a\n- b");
});

Deno.test("blocks: headings, lists, code, quotes, links, rules", () => {
  assert.deepEqual(render("# Title\n\nSome **bold** and [x](https://a.b)."), [
    "Title",
    "",
    "Some bold and x (https://a.b).",
  ]);
  assert.deepEqual(render("1. one\n2. two\n   - nested"), ["1. one", "2. two", "   • nested"]);
  assert.deepEqual(render("```js\nlet a = 1;\n```"), ["js", "│ let a = 1;"]);
  assert.deepEqual(render("> quoted"), ["▌ quoted"]);
  assert.deepEqual(render("[https://a.b](https://a.b)"), ["https://a.b"]);
  assert.deepEqual(render("---"), ["─".repeat(40)]);
});

Deno.test("tables: box-drawn when they fit, one block per row when not", () => {
  const table = "| a | b |\n|---|---|\n| 1 | 2 |";
  assert.deepEqual(render(table), [
    "┌───┬───┐",
    "│ a │ b │",
    "├───┼───┤",
    "│ 1 │ 2 │",
    "└───┴───┘",
  ]);
  const wide = `| name | text |\n|---|---|\n| x | ${"long ".repeat(12)} |`;
  assert.deepEqual(render(wide, 30).slice(0, 2), ["name: x", "text: long long long long long"]);
});

Deno.test("control characters from the model never reach the terminal", () => {
  const rows = renderMarkdown("evil \x1b]0;title\x07 and \x1b[2J", 40, plain);
  assert.ok(rows.every((row) => !row.includes("\x1b]") && !row.includes("\x1b[2J")), rows.join());
});
