import assert from "node:assert/strict";
import { type Chained, HOOK_POINTS } from "../engine/hooks.ts";
import { MAX_PAYLOAD_DEPTH } from "../sandbox/payload_limits.ts";
import { createHookRunner, type HookRunnerOptions } from "../../tests/_testing/js_hook_runner.ts";
import { callHook } from "../hooks/hook_call.ts";
import { createScriptHook } from "./script_hook.ts";
import { ExtensionHost } from "./host.ts";
import type { LoadedHook } from "./load_module.ts";
import { makeContext, makeSandbox } from "../../tests/_testing/extension_fixtures.ts";

/** The afterRun grace these tests run with: the real one's 0.5 s, shortened (the runner takes any). */
const GRACE_MS = 300;

const sandbox = await makeSandbox();
const signal = new AbortController().signal;
const call = { id: "call_1", name: "shell", arguments: { command: "rm -rf /" } };

/** A hook whose module exports `body` (an object literal's members). */
function hook(name: string, body: string): LoadedHook {
  const source = `module.exports = {\n${body}\n};\n`;
  const points = HOOK_POINTS.filter((point) => new RegExp(`\\b${point}\\b`).test(body));
  return { kind: "hook", name, path: `/h/${name}/index.js`, source, points, failClosed: false };
}

function valueOf<T>(chained: Chained<T>): T {
  if (chained.kind !== "done") throw new Error(`the chain ended ${JSON.stringify(chained)}`);
  return chained.value;
}

/** The runner of `hooks`, with each point's finished value (a test fails on any other end). */
function runnerOf(hooks: readonly LoadedHook[], options: HookRunnerOptions) {
  const runner = createHookRunner(hooks, options);
  return {
    has: runner.has,
    beforeRun: async (...args: Parameters<typeof runner.beforeRun>) =>
      valueOf(await runner.beforeRun(...args)),
    beforeModelRequest: async (...args: Parameters<typeof runner.beforeModelRequest>) =>
      valueOf(await runner.beforeModelRequest(...args)),
    afterModelResponse: async (...args: Parameters<typeof runner.afterModelResponse>) =>
      valueOf(await runner.afterModelResponse(...args)),
    beforeToolExecute: async (...args: Parameters<typeof runner.beforeToolExecute>) =>
      valueOf(await runner.beforeToolExecute(...args)),
    afterToolExecute: async (...args: Parameters<typeof runner.afterToolExecute>) =>
      valueOf(await runner.afterToolExecute(...args)),
  };
}

/** An array nested `levels` deep. */
function nested(levels: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
}

Deno.test("createHookRunner()", async (t) => {
  using host = new ExtensionHost();

  await t.step("has() tells which points some hook implements", () => {
    const runner = runnerOf([hook("a", `beforeRun: function () {},`)], {
      host,
      context: makeContext(sandbox),
    });
    assert.equal(runner.has("beforeRun"), true);
    assert.equal(runner.has("afterRun"), false);
  });

  await t.step("beforeModelRequest chains system in the agent's order", async () => {
    const context = makeContext(sandbox);
    const runner = runnerOf([
      hook(
        "date",
        `beforeModelRequest: function (ctx, r) { return { system: r.system + " +date" }; },`,
      ),
      hook("none", `beforeModelRequest: function () {},`),
      hook("nulls", `beforeModelRequest: function () { return { system: null }; },`),
      hook(
        "model",
        `beforeModelRequest: function (ctx, r) { return { system: r.system + " +" + r.model + ":" + r.messages.length }; },`,
      ),
    ], { host, context });
    const system = await runner.beforeModelRequest(
      { system: "base", model: "openai/gpt-4o", messages: [{ role: "user", text: "hi" }] },
      signal,
    );
    assert.equal(system, "base +date +openai/gpt-4o:1");
    assert.deepEqual(context.notices, []);
  });

  await t.step("afterModelResponse rewrites text and thinking, last writer wins", async () => {
    const runner = runnerOf([
      hook(
        "redact",
        `afterModelResponse: function (ctx, r) { return { text: r.text.replace(/\\b\\d{16}\\b/g, "[redacted]") }; },`,
      ),
      hook(
        "think",
        `afterModelResponse: function (ctx, r) { return { thinking: "t:" + r.thinking + ":" + r.toolCalls.length }; },`,
      ),
    ], { host, context: makeContext(sandbox) });
    const rewritten = await runner.afterModelResponse(
      { text: "card 1234567812345678", thinking: "hmm", toolCalls: [call] },
      signal,
    );
    assert.deepEqual(rewritten, { text: "card [redacted]", thinking: "t:hmm:1" });
  });

  await t.step(
    "beforeToolExecute: arguments chain and the first refusal stops the chain",
    async () => {
      const context = makeContext(sandbox);
      const runner = runnerOf([
        hook(
          "https",
          `beforeToolExecute: function (ctx, c) { return { arguments: { command: c.arguments.command + " --dry" } }; },`,
        ),
        hook(
          "guard",
          `beforeToolExecute: function (ctx, c) { if (/rm -rf/.test(c.arguments.command)) return { allow: false, reason: "refused: " + c.arguments.command }; },`,
        ),
        hook("never", `beforeToolExecute: function (ctx) { ctx.log("should not run"); },`),
      ], { host, context });
      assert.deepEqual(await runner.beforeToolExecute(call, signal), {
        allow: false,
        reason: 'hook "guard" refused the call: refused: rm -rf / --dry',
      });
      assert.deepEqual(context.notices, []);
    },
  );

  await t.step("beforeToolExecute: a refusal without a reason still names the hook", async () => {
    const runner = runnerOf([
      hook("no", `beforeToolExecute: function () { return { allow: false }; },`),
    ], {
      host,
      context: makeContext(sandbox),
    });
    assert.deepEqual(await runner.beforeToolExecute(call, signal), {
      allow: false,
      reason: 'hook "no" refused the call',
    });
  });

  await t.step(
    "beforeToolExecute: returned arguments repair raw text and reach the tool",
    async () => {
      const runner = runnerOf([
        hook(
          "repair",
          `beforeToolExecute: function (ctx, c) { return { arguments: JSON.parse(c.arguments.replace("'", '"').replace("'", '"')) }; },`,
        ),
      ], { host, context: makeContext(sandbox) });
      const gate = await runner.beforeToolExecute({
        id: "c",
        name: "shell",
        arguments: "{'command': 1}",
      }, signal);
      assert.deepEqual(gate, { allow: true, arguments: { command: 1 } });
    },
  );

  await t.step(
    "payloads are fresh copies: mutating without returning changes nothing",
    async () => {
      const runner = runnerOf([
        hook(
          "mutate",
          `beforeToolExecute: function (ctx, c) { c.arguments.command = "changed"; },`,
        ),
        hook(
          "read",
          `beforeToolExecute: function (ctx, c) { if (c.arguments.command !== "rm -rf /") return { allow: false }; },`,
        ),
      ], { host, context: makeContext(sandbox) });
      assert.deepEqual(await runner.beforeToolExecute(call, signal), {
        allow: true,
        arguments: call.arguments,
      });
    },
  );

  await t.step("afterToolExecute rewrites the result", async () => {
    const runner = runnerOf([
      hook(
        "upper",
        `afterToolExecute: function (ctx, c, r) { return { text: c.name + ":" + r.text.toUpperCase() }; },`,
      ),
      hook("flag", `afterToolExecute: function (ctx, c, r) { return { isError: !r.isError }; },`),
    ], { host, context: makeContext(sandbox) });
    assert.deepEqual(
      await runner.afterToolExecute(call, { text: "done", isError: false }, signal),
      {
        text: "shell:DONE",
        isError: true,
      },
    );
  });

  await t.step(
    "a throw is a notice with the hook, the point and the line, and no opinion",
    async () => {
      const context = makeContext(sandbox);
      const runner = runnerOf([
        hook("broken", `afterToolExecute: function () {\n    throw new Error("oops");\n  },`),
        hook("after", `afterToolExecute: function (ctx, c, r) { return { text: r.text + "!" }; },`),
      ], { host, context });
      const result = await runner.afterToolExecute(call, { text: "t", isError: false }, signal);
      assert.deepEqual(result, { text: "t!", isError: false });
      assert.deepEqual(context.notices, ['hook "broken": afterToolExecute: oops (index.js:3)']);
    },
  );

  await t.step("a return of the wrong shape is a notice and no opinion", async () => {
    const context = makeContext(sandbox);
    const runner = runnerOf([
      hook("text", `beforeModelRequest: function () { return "new system"; },`),
      hook("array", `beforeModelRequest: function () { return ["x"]; },`),
    ], { host, context });
    assert.equal(
      await runner.beforeModelRequest({ system: "s", model: "m", messages: [] }, signal),
      "s",
    );
    assert.deepEqual(context.notices, [
      'hook "text": beforeModelRequest: must return an object or nothing (returned a string)',
      'hook "array": beforeModelRequest: must return an object or nothing (returned an array)',
    ]);
  });

  await t.step("a field of the wrong type is ignored alone, with a notice", async () => {
    const context = makeContext(sandbox);
    const runner = runnerOf([
      hook("mixed", `afterToolExecute: function () { return { text: 42, isError: true }; },`),
      hook("gate", `beforeToolExecute: function () { return { allow: "no", arguments: "x" }; },`),
    ], { host, context });
    assert.deepEqual(await runner.afterToolExecute(call, { text: "t", isError: false }, signal), {
      text: "t",
      isError: true,
    });
    assert.deepEqual(await runner.beforeToolExecute(call, signal), {
      allow: true,
      arguments: call.arguments,
    });
    assert.deepEqual(context.notices, [
      'hook "mixed": afterToolExecute: "text" must be a string (found a number), ignored',
      'hook "gate": beforeToolExecute: "allow" must be a boolean (found a string), ignored',
      'hook "gate": beforeToolExecute: "arguments" must be an object (found a string), ignored',
    ]);
  });

  await t.step("ctx.log and exec output of hooks become notices", async () => {
    const context = makeContext(sandbox);
    const runner = runnerOf([
      hook(
        "audit",
        `beforeRun: function (ctx, run) { ctx.log("run " + run.sessionId + " of " + run.agentId); ctx.system.exec("echo a; echo b"); },`,
      ),
    ], { host, context });
    await runner.beforeRun({ sessionId: "s1", agentId: "coder", modelId: "m" }, signal);
    assert.deepEqual(context.notices, [
      'hook "audit": run s1 of coder',
      'hook "audit": a',
      'hook "audit": b',
    ]);
  });

  await t.step(
    "afterRun sees the reason and runs within a grace period after an interrupt",
    async () => {
      const file = `${sandbox.workdir}/audit.txt`;
      const context = makeContext(sandbox);
      const runner = createHookRunner([
        hook(
          "audit",
          `afterRun: function (ctx, e) { ctx.file.write(${JSON.stringify(file)}, e.reason); },`,
        ),
        hook("slow", `afterRun: function () { while (true) {} },`),
      ], { host, context, afterRunGraceMs: GRACE_MS });
      const started = performance.now();
      const ended = await runner.afterRun({ reason: "interrupted" }, AbortSignal.abort());
      const elapsed = performance.now() - started;
      assert.equal(ended.kind, "interrupted");
      assert.equal(await Deno.readTextFile(file), "interrupted");
      assert.ok(
        elapsed >= GRACE_MS - 50 && elapsed < GRACE_MS + 1500,
        `${elapsed} ms`,
      );
      assert.deepEqual(context.notices, [
        `hook "slow": afterRun: stopped after the grace period of ${GRACE_MS / 1000} s`,
      ]);
    },
  );

  await t.step(
    "afterRun after a normal end gets the same grace once an interrupt comes",
    async () => {
      const context = makeContext(sandbox);
      const runner = createHookRunner([
        hook("slow", `afterRun: function () { while (true) {} },`),
      ], { host, context, afterRunGraceMs: GRACE_MS });
      const interrupt = new AbortController();
      const started = performance.now();
      setTimeout(() => interrupt.abort(), 100);
      const ended = await runner.afterRun({ reason: "end_turn" }, interrupt.signal);
      const elapsed = performance.now() - started;
      assert.equal(ended.kind, "interrupted");
      assert.ok(
        elapsed >= 100 + GRACE_MS - 50 && elapsed < 100 + GRACE_MS + 1500,
        `${elapsed} ms`,
      );
      assert.deepEqual(context.notices, [
        `hook "slow": afterRun: stopped after the grace period of ${GRACE_MS / 1000} s`,
      ]);
    },
  );

  await t.step("a hook stopped by the interrupt ends the chain as interrupted", async () => {
    const context = makeContext(sandbox);
    const runner = createHookRunner([
      hook("slow", `afterToolExecute: function () { while (true) {} },`),
      hook("next", `afterToolExecute: function (ctx) { ctx.log("should not run"); },`),
    ], { host, context });
    const interrupt = new AbortController();
    setTimeout(() => interrupt.abort(), 100);
    const result = { text: "raw", isError: false };
    assert.deepEqual(await runner.afterToolExecute(call, result, interrupt.signal), {
      kind: "interrupted",
    });
    assert.deepEqual(await runner.afterToolExecute(call, result, AbortSignal.abort()), {
      kind: "interrupted",
    });
    assert.deepEqual(context.notices, []);
  });

  await t.step(
    "a payload over the limits is never handed to a hook: withheld, or skipped with a notice",
    async () => {
      const context = makeContext(sandbox);
      const runner = createHookRunner([
        hook(
          "deepen",
          `beforeToolExecute: function (ctx, c) { var v = []; for (var i = 0; i < 100; i++) v = [v]; return { arguments: { pad: v } }; },`,
        ),
        hook("guard", `beforeToolExecute: function () { return { allow: true }; },`),
        hook("prompt", `beforeModelRequest: function () { return { system: "changed" }; },`),
        hook("redact", `afterToolExecute: function () { return { text: "clean" }; },`),
      ], { host, context });
      assert.deepEqual(await runner.beforeToolExecute(call, signal), {
        kind: "withheld",
        reason:
          `hook "guard" could not be handed its payload: arguments is nested deeper than ${MAX_PAYLOAD_DEPTH} levels`,
      });
      const huge = "x".repeat(2 * 1024 * 1024);
      assert.deepEqual(
        await runner.afterToolExecute(call, { text: huge, isError: false }, signal),
        {
          kind: "withheld",
          reason: 'hook "redact" could not be handed its payload: result.text is larger than 1 MiB',
        },
      );
      const request = {
        system: "s",
        model: "m",
        messages: [{ role: "user" as const, text: huge }],
      };
      assert.deepEqual(await runner.beforeModelRequest(request, signal), {
        kind: "done",
        value: "s",
      });
      assert.deepEqual(context.notices, [
        'hook "prompt": beforeModelRequest: not called: messages[0].text is larger than 1 MiB',
      ]);
    },
  );

  await t.step("arguments nested 64 levels reach a hook intact", async () => {
    const context = makeContext(sandbox);
    const runner = createHookRunner([
      hook(
        "depth",
        `beforeToolExecute: function (ctx, c) { var d = 0, v = c.arguments; while (typeof v === "object" && v !== null) { d++; v = Array.isArray(v) ? v[0] : v.pad; } return { allow: false, reason: "depth " + d }; },`,
      ),
    ], { host, context });
    const deep = { ...call, arguments: { pad: nested(MAX_PAYLOAD_DEPTH - 1) } };
    assert.deepEqual(await runner.beforeToolExecute(deep, signal), {
      kind: "done",
      value: { allow: false, reason: `hook "depth" refused the call: depth ${MAX_PAYLOAD_DEPTH}` },
    });
    assert.deepEqual(context.notices, []);
  });
});

Deno.test("callHook() of a script hook returns only the point's fields that have the right type", async () => {
  using host = new ExtensionHost();
  const context = makeContext(sandbox);
  const gate = hook(
    "gate",
    `beforeToolExecute: function () { return { allow: false, reason: 7, extra: 1 }; },`,
  );
  assert.deepEqual(
    await callHook(createScriptHook(gate, { host, context }), "beforeToolExecute", [call], {
      signal,
      notice: context.notice,
    }),
    {
      kind: "returned",
      value: { allow: false },
    },
  );
  const silent = hook("silent", `beforeRun: function () { return { anything: 1 }; },`);
  assert.deepEqual(
    await callHook(createScriptHook(silent, { host, context }), "beforeRun", [{}], {
      signal,
      notice: context.notice,
    }),
    {
      kind: "returned",
      value: null,
    },
  );
  assert.deepEqual(context.notices, [
    'hook "gate": beforeToolExecute: "reason" must be a string (found a number), ignored',
  ]);
});
