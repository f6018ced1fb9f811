import assert from "node:assert/strict";
import { frameRows } from "./chat_frame.ts";
import { createTheme } from "./style.ts";

const parts = {
  live: ["line 1", "line 2", "line 3", "line 4"],
  queued: [],
  activity: null,
  popup: [],
  input: { rows: ["› hello"], caret: { row: 0, col: 7 } },
  status: "coder · fake/m",
  width: 40,
  height: 24,
  theme: createTheme(false),
};

Deno.test("frameRows() stacks live rows, queue, activity, popup, editor and status, the caret drawn", () => {
  const rows = frameRows({
    ...parts,
    queued: ["first\nqueued"],
    activity: "⠋ thinking · 2s",
    popup: ["  /compact"],
  });
  assert.deepEqual(rows, [
    "line 1",
    "line 2",
    "line 3",
    "line 4",
    "\x1b[2m⏵ queued: first queued\x1b[22m",
    "⠋ thinking · 2s",
    "  /compact",
    "› hello\x1b[7m \x1b[27m",
    "coder · fake/m",
  ]);
});

Deno.test("frameRows() keeps the live region one row shorter than the screen, showing the tail", () => {
  const rows = frameRows({ ...parts, height: 5, input: { rows: ["› hello"], caret: null } });
  assert.deepEqual(rows, ["line 3", "line 4", "› hello", "coder · fake/m"]);
  const none = frameRows({ ...parts, height: 2, input: { rows: ["› a", "  b"], caret: null } });
  assert.deepEqual(none, ["› a", "  b", "coder · fake/m"]);
});
