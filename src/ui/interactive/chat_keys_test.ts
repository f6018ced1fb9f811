import assert from "node:assert/strict";
import { chatKeyEffect, type ChatKeyState, QUIT_WINDOW_MS } from "./chat_keys.ts";
import type { Key, KeyName } from "./keys.ts";

const key = (
  name: KeyName,
  mods: Partial<{ ctrl: boolean; alt: boolean; shift: boolean }> = {},
): Key => ({
  type: "key",
  name,
  ctrl: false,
  alt: false,
  shift: false,
  ...mods,
});
const idle: ChatKeyState = { running: false, editorEmpty: true, queued: 0, quitArmedAt: null };
const kind = (state: ChatKeyState, pressed: Key, now = 10_000) =>
  chatKeyEffect(state, pressed, now).kind;

Deno.test("chatKeyEffect(): Ctrl+C interrupts, clears, then quits when pressed twice within the window", () => {
  const ctrlC = key("c", { ctrl: true });
  assert.deepEqual(chatKeyEffect({ ...idle, running: true }, ctrlC, 0), {
    kind: "interrupt",
    ctrlC: true,
  });
  assert.equal(kind({ ...idle, editorEmpty: false }, ctrlC), "clear_editor");
  assert.equal(kind(idle, ctrlC), "arm_quit");
  assert.equal(kind({ ...idle, quitArmedAt: 10_000 - QUIT_WINDOW_MS }, ctrlC), "quit");
  assert.equal(kind({ ...idle, quitArmedAt: 10_000 - QUIT_WINDOW_MS - 1 }, ctrlC), "arm_quit");
});

Deno.test("chatKeyEffect(): Esc takes the last queued message back before it interrupts", () => {
  const esc = key("escape");
  assert.equal(kind({ ...idle, running: true, queued: 2 }, esc), "take_back_queued");
  assert.equal(kind({ ...idle, running: true, queued: 2, editorEmpty: false }, esc), "interrupt");
  assert.deepEqual(chatKeyEffect({ ...idle, running: true }, esc, 0), {
    kind: "interrupt",
    ctrlC: false,
  });
});

Deno.test("chatKeyEffect(): Enter, Ctrl+D, Ctrl+G, Ctrl+O, arrows; text and modified keys go to the editor", () => {
  assert.equal(kind(idle, key("enter")), "submit");
  assert.equal(kind(idle, key("enter", { shift: true })), "edit");
  assert.equal(kind(idle, key("d", { ctrl: true })), "quit");
  assert.equal(kind({ ...idle, editorEmpty: false }, key("d", { ctrl: true })), "edit");
  assert.equal(kind(idle, key("g", { ctrl: true })), "external_editor");
  assert.equal(kind(idle, key("o", { ctrl: true })), "toggle_expanded");
  assert.deepEqual(chatKeyEffect(idle, key("up"), 0), { kind: "vertical", direction: -1 });
  assert.deepEqual(chatKeyEffect(idle, key("down"), 0), { kind: "vertical", direction: 1 });
  assert.equal(kind(idle, key("up", { alt: true })), "edit");
  assert.equal(kind(idle, { type: "text", text: "q" }), "edit");
  assert.equal(kind(idle, { type: "paste", text: "x\ny" }), "edit");
});
