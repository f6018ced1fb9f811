import { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { HookCallReport, HookPoint } from "../engine/hooks.ts";
import { checkReturn, outcomeOf } from "./hook_call.ts";
import { createHookChain } from "./hook_chain.ts";
import { gateFold, resultFold } from "./point_folds.ts";
import type { HookAnswer, RunnableHook } from "./runnable_hook.ts";

const signal = new AbortController().signal;
const call = { id: "c1", name: "shell", arguments: { command: "ls" } };

/** A hook that answers `answer` at `points` for tools `matcher` accepts, recording its calls. */
function fake(
  label: string,
  answer: HookAnswer | ((args: readonly unknown[]) => HookAnswer),
  options: { points?: HookPoint[]; matcher?: RegExp; failClosed?: boolean } = {},
): RunnableHook & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    label,
    points: options.points ?? ["beforeToolExecute", "afterToolExecute"],
    failClosed: options.failClosed ?? false,
    matches: (tool) => options.matcher?.test(tool) ?? true,
    calls,
    call(_point, args) {
      calls.push([...args]);
      return Promise.resolve(typeof answer === "function" ? answer(args) : answer);
    },
  };
}

function chainOf(hooks: RunnableHook[]) {
  const notices: string[] = [];
  const reports: Omit<HookCallReport, "durationMs">[] = [];
  const runner = createHookChain(hooks, {
    notice: (text) => notices.push(text),
    report: ({ durationMs: _, ...report }) => reports.push(report),
  });
  return { runner, notices, reports };
}

Deno.test("createHookChain() runs a hook at the tool points only for the tools its matcher accepts", async () => {
  const writes = fake("writes", { kind: "answered", value: { allow: false, reason: "no" } }, {
    matcher: /^(?:write|edit)$/,
  });
  const all = fake("all", { kind: "answered", value: null });
  const { runner, reports } = chainOf([writes, all]);
  deepStrictEqual(await runner.beforeToolExecute(call, signal), {
    kind: "done",
    value: { allow: true, arguments: call.arguments },
  });
  deepStrictEqual(await runner.beforeToolExecute({ ...call, name: "write" }, signal), {
    kind: "done",
    value: { allow: false, reason: 'hook "writes" refused the call: no' },
  });
  deepStrictEqual([writes.calls.length, all.calls.length], [1, 1]);
  deepStrictEqual(reports, [
    { point: "beforeToolExecute", hook: "all", outcome: "none", callId: "c1" },
    { point: "beforeToolExecute", hook: "writes", outcome: "deny", reason: "no", callId: "c1" },
  ]);
});

Deno.test("createHookChain() reports a failure as a notice, and a fail-closed one as the point's refusal", async () => {
  const broken = fake("node hooks/p.mjs", { kind: "failed", problem: "exited 1: boom" });
  const slow = fake("slow", { kind: "failed", problem: "did not finish", timedOut: true });
  const guard = fake("guard", { kind: "failed", problem: "exited 1: down" }, { failClosed: true });
  const { runner, notices, reports } = chainOf([broken, slow, guard]);
  deepStrictEqual(await runner.beforeToolExecute(call, signal), {
    kind: "done",
    value: { allow: false, reason: 'hook "guard" failed closed: exited 1: down' },
  });
  deepStrictEqual(await runner.afterToolExecute(call, { text: "out", isError: false }, signal), {
    kind: "done",
    value: { text: 'withheld: hook "guard" failed: exited 1: down', isError: true },
  });
  deepStrictEqual(notices.slice(0, 2), [
    'hook "node hooks/p.mjs": beforeToolExecute: exited 1: boom',
    'hook "slow": beforeToolExecute: did not finish',
  ]);
  deepStrictEqual(reports.slice(0, 3).map((report) => report.outcome), [
    "error",
    "timeout",
    "failed_closed",
  ]);
});

Deno.test("createHookChain() hands each hook what the one before it returned", async () => {
  const first = fake("first", { kind: "answered", value: { arguments: { command: "ls -a" } } });
  const second = fake("second", { kind: "answered", value: { allow: true } });
  const { runner, reports } = chainOf([first, second]);
  deepStrictEqual(await runner.beforeToolExecute(call, signal), {
    kind: "done",
    value: { allow: true, arguments: { command: "ls -a" } },
  });
  deepStrictEqual(second.calls, [[{ ...call, arguments: { command: "ls -a" } }]]);
  deepStrictEqual(reports.map((report) => report.outcome), ["modify", "allow"]);
});

Deno.test("gateFold() keeps the first refusal and resultFold() keeps fields left out", async () => {
  const gate = gateFold(call, call.arguments, (args) => Promise.resolve({ filled: args }));
  const rewritten = await gate.take(gate.initial, { arguments: { command: "pwd" } }, "a");
  deepStrictEqual(rewritten, { state: { allow: true, arguments: { filled: { command: "pwd" } } } });
  deepStrictEqual(await gate.take(rewritten.state, { allow: false }, "b"), {
    state: { allow: false, reason: 'hook "b" refused the call' },
    stop: true,
  });
  const result = resultFold(call, { text: "t", isError: false });
  deepStrictEqual(await result.take(result.initial, { isError: true }, "x"), {
    state: { text: "t", isError: true },
  });
});

Deno.test("checkReturn() and outcomeOf() read an answer the same way for every kind of hook", () => {
  deepStrictEqual(checkReturn("beforeModelRequest", { system: 1, text: "x" }), {
    value: {},
    problems: ['"system" must be a string (found a number)'],
  });
  const outcome = (value: Record<string, unknown> | null, point: HookPoint = "beforeToolExecute") =>
    outcomeOf(point, { kind: "returned", value }).outcome;
  deepStrictEqual(
    [
      outcome(null),
      outcome({ allow: true }),
      outcome({ allow: false }),
      outcome({ arguments: {} }),
    ],
    ["none", "allow", "deny", "modify"],
  );
  strictEqual(outcome({ text: "x" }, "afterToolExecute"), "modify");
  deepStrictEqual(outcomeOf("afterRun", { kind: "failed", problem: "p", timedOut: true }), {
    outcome: "failed_closed",
    reason: "p",
  });
});

Deno.test("createHookChain() ends a chain as stopped when a hook asks for the run to end", async () => {
  const stopper = fake("python3 stop.py", { kind: "stop", reason: "budget spent" }, {
    points: ["beforeToolExecute", "beforeRun", "afterRun"],
  });
  const after = fake("audit", { kind: "answered", value: null }, {
    points: ["beforeToolExecute", "beforeRun", "afterRun"],
  });
  const { runner, reports, notices } = chainOf([stopper, after]);
  const stopped = { kind: "stopped", hook: "python3 stop.py", reason: "budget spent" };
  deepStrictEqual(await runner.beforeToolExecute(call, signal), stopped);
  deepStrictEqual(
    await runner.beforeRun({ sessionId: "s", agentId: "a", modelId: "m" }, signal),
    stopped,
  );
  // The hooks after it are not asked; the telemetry says `stop`.
  strictEqual(after.calls.length, 0);
  deepStrictEqual(reports.map((report) => [report.point, report.outcome, report.reason]), [
    ["beforeToolExecute", "stop", "budget spent"],
    ["beforeRun", "stop", "budget spent"],
  ]);
  // At afterRun the run is ending anyway: a notice, and every hook still runs.
  deepStrictEqual(await runner.afterRun({ reason: "end_turn" }, signal), {
    kind: "done",
    value: null,
  });
  strictEqual(after.calls.length, 1);
  deepStrictEqual(notices, ['hook "python3 stop.py" stopped the run: budget spent']);
});
