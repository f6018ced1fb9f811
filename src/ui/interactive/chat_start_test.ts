import assert from "node:assert/strict";
import { userText } from "../../llm/messages.ts";
import type { Choice } from "./backend.ts";
import { showStart } from "./chat_start.ts";
import type { ChatControls } from "./controls.ts";
import { createEditor } from "./editor.ts";

/** Controls that record what the start did. */
function recorder() {
  const log: string[] = [];
  let picked: ((choice: Choice) => void | Promise<void>) | null = null;
  const controls = {
    editor: createEditor(),
    backend: { resume: (id: string) => Promise.resolve([userText(`stored ${id}`)]) },
    transcript: { addNotice: (text: string) => log.push(`notice: ${text}`) },
    showSession: (messages: readonly unknown[]) => log.push(`show ${messages.length}`),
    pick: (title: string, _choices: readonly Choice[], pick: (choice: Choice) => void) => {
      log.push(`pick: ${title}`);
      picked = pick;
    },
    invalidate: () => {},
  } as unknown as ChatControls;
  return { log, controls, pick: (choice: Choice) => picked?.(choice) };
}

Deno.test("showStart() fills the history, shows a resumed conversation and begins at once without -r", () => {
  const { log, controls } = recorder();
  showStart(
    { replay: [userText("a")], start: null, history: ["old prompt"] },
    controls,
    () => log.push("begin"),
  );
  assert.deepEqual(log, ["show 1", "begin"]);
  assert.deepEqual(controls.editor.history, ["old prompt"]);
});

Deno.test("showStart() with -r: a notice when nothing is stored, else the picker, and begin after the pick", async () => {
  const none = recorder();
  showStart({ replay: [], start: [], history: [] }, none.controls, () => none.log.push("begin"));
  assert.deepEqual(none.log, [
    "notice: no stored session in this workspace yet: this is a new one",
    "begin",
  ]);
  const some = recorder();
  showStart(
    { replay: [], start: [{ value: "s1", label: "fix it" }], history: [] },
    some.controls,
    () => some.log.push("begin"),
  );
  assert.deepEqual(some.log, ["pick: Resume a session"]);
  await some.pick({ value: "s1", label: "fix it" });
  assert.deepEqual(some.log, [
    "pick: Resume a session",
    "show 1",
    "notice: resumed session s1",
    "begin",
  ]);
});
