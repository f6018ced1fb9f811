import assert from "node:assert/strict";
import { createTheme } from "./style.ts";
import { blockRows, finishedAnswerRows, type RenderOptions } from "./transcript_render.ts";

const options: RenderOptions = { width: 40, now: 0, theme: createTheme(false), expanded: false };

Deno.test("finishedAnswerRows() commits the finished Markdown blocks of a streamed answer, never the one being written", () => {
  const streaming = {
    kind: "assistant" as const,
    text: "First paragraph.\n\nSecond one, still",
    committed: 0,
    done: false,
  };
  const finished = finishedAnswerRows(streaming, options);
  assert.equal(streaming.text.slice(0, finished.chars), "First paragraph.\n\n");
  assert.deepEqual(finished.rows, ["", "First paragraph."]);
  // Once committed, only the rest shows live.
  const live = blockRows({ ...streaming, committed: finished.chars }, options).join("\n");
  assert.ok(live.includes("Second one, still") && !live.includes("First"), live);
  assert.deepEqual(finishedAnswerRows({ ...streaming, committed: finished.chars }, options), {
    rows: [],
    chars: 0,
  });
});

Deno.test("blockRows() shows nothing for an empty answer or thinking, and a notice as its row", () => {
  assert.deepEqual(
    blockRows({ kind: "assistant", text: "  \n", committed: 0, done: true }, options),
    [],
  );
  assert.deepEqual(blockRows({ kind: "thinking", text: "", done: false }, options), []);
  const notice = blockRows(
    { kind: "notice", text: "interrupted", tone: "warning", done: true },
    options,
  );
  assert.ok(notice.join("\n").includes("interrupted"), notice.join("\n"));
});

Deno.test("blockRows() turns a block its view cannot render into one error row", () => {
  const theme = createTheme(false);
  const failing: RenderOptions = {
    ...options,
    theme: {
      ...theme,
      // Fails on the block's text only, as a view fails on some input.
      bold: (text) => {
        if (text.includes("hi")) throw new RangeError("no");
        return theme.bold(text);
      },
    },
  };
  const rows = blockRows({ kind: "user", text: "hi", done: true }, failing);
  assert.deepEqual(rows, ["", "✗ this part of the conversation cannot", "  be shown: no"]);
});
