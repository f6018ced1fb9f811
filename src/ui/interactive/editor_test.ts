import assert from "node:assert/strict";
import {
  browseHistory,
  caretOf,
  createEditor,
  edit,
  insert,
  layout,
  moveVertically,
  paste,
  submitText,
} from "./editor.ts";

Deno.test("editing by grapheme and by word", () => {
  const state = createEditor();
  insert(state, "hello wide 👍🏽 world");
  edit(state, "backspace");
  assert.equal(state.text, "hello wide 👍🏽 worl");
  edit(state, "wordLeft");
  edit(state, "left");
  edit(state, "backspace");
  assert.equal(state.text, "hello wide  worl", "the emoji goes whole");
  edit(state, "deleteWordBack");
  assert.equal(state.text, "hello  worl");
  edit(state, "lineEnd");
  edit(state, "deleteToLineStart");
  assert.equal(state.text, "");
});

Deno.test("layout wraps at spaces and the caret follows soft wraps", () => {
  assert.deepEqual(layout("aaa bbb ccc", 8), [{ start: 0, end: 8 }, { start: 8, end: 11 }]);
  const state = createEditor();
  insert(state, "aaa bbb ccc");
  state.cursor = 8;
  assert.deepEqual(caretOf(state, layout(state.text, 8)), { row: 1, col: 0 });
});

Deno.test("up and down move by rows, then walk the history keeping the draft", () => {
  const state = createEditor(["old one", "old two"]);
  insert(state, "draft\nsecond row");
  assert.equal(moveVertically(state, -1, 40), true);
  assert.equal(state.cursor, 5);
  assert.equal(moveVertically(state, -1, 40), false);
  assert.equal(browseHistory(state, -1), true);
  assert.equal(state.text, "old two");
  browseHistory(state, -1);
  assert.equal(state.text, "old one");
  assert.equal(browseHistory(state, -1), false);
  browseHistory(state, 1);
  browseHistory(state, 1);
  assert.equal(state.text, "draft\nsecond row");
});

Deno.test("a long paste becomes a marker and is sent whole; history keeps the sent text", () => {
  const state = createEditor();
  const pasted = Array.from({ length: 12 }, (_, index) => `line ${index}`).join("\n");
  insert(state, "see: ");
  paste(state, pasted);
  assert.equal(state.text, "see: [pasted 12 lines]");
  paste(state, "a\nb");
  assert.equal(state.text, "see: [pasted 12 lines]a\nb");
  assert.equal(submitText(state), `see: ${pasted}a\nb`);
  assert.equal(state.text, "");
  assert.deepEqual(state.history, [`see: ${pasted}a\nb`]);
});
