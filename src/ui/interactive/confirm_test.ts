import assert from "node:assert/strict";
import { type ConfirmAnswer, createConfirm } from "./confirm.ts";
import { createTheme } from "./style.ts";
import { stripAnsi } from "./width.ts";

const text = (value: string) => ({ type: "text" as const, text: value });
const key = (name: string) => ({
  type: "key" as const,
  name,
  ctrl: false,
  alt: false,
  shift: false,
});

/** A question shown at `now` (drawn once), and the answers it gave. */
function question(lastKeyAt: number | null, now: number) {
  const answers: ConfirmAnswer[] = [];
  const overlay = createConfirm({ title: "Delete?", body: "rm -rf build" }, {
    theme: createTheme(false),
    lastKeyAt,
    now,
    answer: (answer) => answers.push(answer),
  });
  return { overlay, answers };
}

Deno.test("createConfirm() takes the first key once drawn when nobody was typing", () => {
  const { overlay, answers } = question(null, 1_000);
  overlay.render(80, 1_000);
  overlay.key(text("y"), 1_010);
  assert.deepEqual(answers, ["yes"]);
  const late = question(0, 1_000);
  late.overlay.render(80, 1_000);
  late.overlay.key(text("n"), 1_001);
  assert.deepEqual(late.answers, ["no"]);
});

Deno.test("createConfirm() ignores keys before it is drawn", () => {
  const { overlay, answers } = question(null, 1_000);
  overlay.key(text("y"), 1_005);
  assert.deepEqual(answers, []);
  overlay.render(80, 1_020);
  overlay.key(key("escape"), 1_030);
  assert.deepEqual(answers, ["no"]);
});

Deno.test("createConfirm() ignores typed-ahead keys until typing pauses", () => {
  const { overlay, answers } = question(900, 1_000);
  overlay.render(80, 1_000);
  for (const at of [1_100, 1_300, 1_600, 1_900]) overlay.key(text("y"), at);
  overlay.key(key("enter"), 2_200);
  assert.deepEqual(answers, []);
  overlay.key(text("a"), 2_600);
  assert.deepEqual(answers, ["session"]);
});

Deno.test("createConfirm() offers yes, yes for this session and no; Enter answers the highlighted one", () => {
  const { overlay, answers } = question(null, 0);
  const rows = overlay.render(80, 0).rows.map(stripAnsi);
  assert.ok(rows.some((row) => /Approve +Yes, for this session +Deny/.test(row)), rows.join("\n"));
  overlay.key(key("right"), 10);
  overlay.key(key("enter"), 20);
  assert.deepEqual(answers, ["session"]);
  const left = question(null, 0);
  left.overlay.render(80, 0);
  left.overlay.key(key("left"), 10);
  left.overlay.key(key("enter"), 20);
  assert.deepEqual(left.answers, ["no"]);
});
