import assert from "node:assert/strict";
import { HOOK_POINTS } from "../engine/hooks.ts";
import { createHookRunner } from "../../tests/_testing/js_hook_runner.ts";
import { ExtensionHost } from "./host.ts";
import type { LoadedHook } from "./load_module.ts";
import { makeContext, makeSandbox } from "../../tests/_testing/extension_fixtures.ts";

const sandbox = await makeSandbox();
const signal = new AbortController().signal;

/** A hook whose module exports `body` (an object literal's members). */
function hook(name: string, body: string, failClosed = false): LoadedHook {
  const source = `module.exports = {\n${body}\n};\n`;
  const points = HOOK_POINTS.filter((point) => new RegExp(`\\b${point}\\b`).test(body));
  return { kind: "hook", name, path: `/h/${name}/index.js`, source, points, failClosed };
}

Deno.test("createHookRunner() beforePrompt", async (t) => {
  using host = new ExtensionHost();

  await t.step("chains text and keeps every context, in the agent's order", async () => {
    const runner = createHookRunner([
      hook("upper", `beforePrompt: function (ctx, p) { return { text: p.text.toUpperCase() }; },`),
      hook("date", `beforePrompt: function () { return { context: "today is Monday" }; },`),
      hook("none", `beforePrompt: function () {},`),
      hook(
        "seen",
        `beforePrompt: function (ctx, p) { return { context: "saw " + p.text, text: null }; },`,
      ),
    ], { host, context: makeContext(sandbox) });
    assert.deepEqual(await runner.beforePrompt({ text: "hi" }, signal), {
      kind: "done",
      value: { allow: true, text: "HI", context: "today is Monday\n\nsaw HI" },
    });
  });

  await t.step("the first refusal names its hook and ends the chain", async () => {
    const context = makeContext(sandbox);
    const runner = createHookRunner([
      hook("gate", `beforePrompt: function () { return { allow: false, reason: "no secrets" }; },`),
      hook("later", `beforePrompt: function () { ctx.log("ran"); },`),
    ], { host, context });
    assert.deepEqual(await runner.beforePrompt({ text: "hi" }, signal), {
      kind: "done",
      value: { allow: false, reason: 'hook "gate" refused the prompt: no secrets' },
    });
    assert.deepEqual(context.notices, []);
  });

  await t.step("a throwing hook is a notice; a fail-closed one refuses", async () => {
    const context = makeContext(sandbox);
    const throwing = `beforePrompt: function () { throw new Error("boom"); },`;
    const open = createHookRunner([hook("loose", throwing)], { host, context });
    assert.deepEqual(await open.beforePrompt({ text: "hi" }, signal), {
      kind: "done",
      value: { allow: true, text: "hi", context: "" },
    });
    assert.deepEqual(context.notices, ['hook "loose": beforePrompt: boom (index.js:2)']);
    const closed = createHookRunner([hook("strict", throwing, true)], { host, context });
    assert.deepEqual(await closed.beforePrompt({ text: "hi" }, signal), {
      kind: "done",
      value: { allow: false, reason: 'hook "strict" failed closed: boom (index.js:2)' },
    });
  });

  await t.step("a field of the wrong type is dropped with a notice", async () => {
    const context = makeContext(sandbox);
    const runner = createHookRunner(
      [hook("odd", `beforePrompt: function () { return { text: 3, context: "ok" }; },`)],
      { host, context },
    );
    assert.deepEqual(await runner.beforePrompt({ text: "hi" }, signal), {
      kind: "done",
      value: { allow: true, text: "hi", context: "ok" },
    });
    assert.deepEqual(context.notices, [
      'hook "odd": beforePrompt: "text" must be a string (found a number), ignored',
    ]);
  });

  await t.step("a prompt over the payload limits is withheld from the hook", async () => {
    const runner = createHookRunner([hook("gate", `beforePrompt: function () {},`)], {
      host,
      context: makeContext(sandbox),
    });
    const chained = await runner.beforePrompt({ text: "x".repeat(2 * 1024 * 1024) }, signal);
    assert.equal(chained.kind, "withheld");
  });
});
