/**
 * Hooks of every kind as the engine's {@link HookRunner} (docs/extending.md,
 * "Chaining and order"): each point runs the hooks that implement it, in
 * the order given (`config/hook_entries.ts`: priority, then source, then
 * position), one after another; what each answer does is `point_folds.ts`'s.
 *
 * - At the two tool points a hook runs only for the tools its `matcher`
 *   accepts.
 * - A hook stopped by the run's interrupt ends the chain as `interrupted`,
 *   never as "no opinion"; so does an interrupt between two hooks.
 * - Before each hook, the values it is handed are checked against the
 *   payload limits (`sandbox/payload_limits.ts`): over them, every point but
 *   `beforeModelRequest` ends as `withheld` (the engine then withholds the
 *   answer, refuses the call, withholds the result); `beforeModelRequest`
 *   skips the hook with a notice (a fail-closed one refuses).
 * - A fail-closed hook that gives no verdict ends the chain with its point's
 *   refusal; other failures are notices and "no opinion" (`hook_call.ts`).
 * - `afterRun` invokes every hook and keeps running for
 *   {@link AFTER_RUN_GRACE_MS} once the run's signal is aborted.
 * - A hook that asks for the run to end (`stop`) ends the chain as
 *   `stopped`, naming it; at `afterRun` that is a notice and the other hooks
 *   still run.
 * - Every call is reported (`report`): the `hook` event of stream-json,
 *   a call the interrupt stopped too (`interrupted`; `timeout`, with a
 *   notice, at the end of `afterRun`'s grace).
 *
 * @module
 */

import {
  AFTER_RUN_GRACE_MS,
  type Chained,
  done,
  type HookCallReport,
  type HookPoint,
  type HookRunner,
} from "../engine/hooks.ts";
import { stoppedBy } from "../engine/hook_stop.ts";
import { payloadProblem } from "../sandbox/payload_limits.ts";
import { callHook, type HookInvocation, outcomeOf } from "./hook_call.ts";
import {
  answerFold,
  emptyFold,
  gateFold,
  type PointFold,
  promptFold,
  resultFold,
  systemFold,
} from "./point_folds.ts";
import type { RunnableHook } from "./runnable_hook.ts";

export { failedClosed, promptRefusedBy, refusedBy } from "./point_folds.ts";

/** Where a chain's notices and reports go. */
export interface HookChainOptions {
  /** `hook "x": beforeToolExecute: <problem>`, `ctx.log` lines of hooks. */
  readonly notice: (text: string) => void;
  /** One report per call of a hook. */
  readonly report?: (report: HookCallReport) => void;
  /** How long `afterRun` hooks keep running once the run is interrupted. @default {AFTER_RUN_GRACE_MS} */
  readonly afterRunGraceMs?: number;
}

/** The first value of `fields` over the payload limits, as `name is <problem>`; null when none. */
export function overLimit(fields: Readonly<Record<string, unknown>>): string | null {
  for (const [name, value] of Object.entries(fields)) {
    const problem = payloadProblem(value);
    if (problem !== null) return `${name} is ${problem}`;
  }
  return null;
}

/** A signal that aborts `graceMs` after `signal` does. */
function graceAfter(signal: AbortSignal, graceMs: number): AbortSignal & Disposable {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = () => {
    timer = setTimeout(() => controller.abort(), graceMs);
  };
  if (signal.aborted) start();
  else signal.addEventListener("abort", start, { once: true });
  return Object.assign(controller.signal, {
    [Symbol.dispose]() {
      clearTimeout(timer);
      signal.removeEventListener("abort", start);
    },
  });
}

function isToolPoint(point: HookPoint): boolean {
  return point === "beforeToolExecute" || point === "afterToolExecute";
}

/** Arguments as they are: what `complete` is when the engine gives none. */
function asIs(args: unknown): Promise<unknown> {
  return Promise.resolve(args);
}

/** Builds the runner for `hooks`, in the order given. */
export function createHookChain(
  hooks: readonly RunnableHook[],
  options: HookChainOptions,
): HookRunner {
  const implementing = (point: HookPoint, tool?: string) =>
    hooks.filter((hook) =>
      hook.points.includes(point) &&
      (tool === undefined || !isToolPoint(point) || hook.matches(tool))
    );

  /**
   * One timed call of `hook`, reported. A call the interrupt stopped is
   * reported too: `timeout` with a notice when it is the end of `afterRun`'s
   * grace (`graceMs`), else `interrupted` (the run says so itself).
   */
  async function timed(
    hook: RunnableHook,
    point: HookPoint,
    args: readonly unknown[],
    call: { readonly signal: AbortSignal; readonly graceMs?: number; readonly callId?: string },
  ): Promise<HookInvocation> {
    const { callId, graceMs, signal } = call;
    const started = performance.now();
    const invoked = await callHook(hook, point, args, { signal, notice: options.notice });
    let outcome: Pick<HookCallReport, "outcome" | "reason">;
    if (invoked.kind !== "interrupted") outcome = outcomeOf(point, invoked);
    else if (graceMs === undefined) outcome = { outcome: "interrupted" };
    else {
      const reason = `stopped after the grace period of ${graceMs / 1000} s`;
      options.notice(`hook "${hook.label}": ${point}: ${reason}`);
      outcome = { outcome: "timeout", reason };
    }
    options.report?.({
      point,
      hook: hook.label,
      durationMs: Math.round(performance.now() - started),
      ...outcome,
      ...(callId === undefined ? {} : { callId }),
    });
    return invoked;
  }

  async function chain<S, T>(
    fold: PointFold<S, T>,
    signal: AbortSignal,
    call?: { readonly id: string; readonly name: string },
  ): Promise<Chained<T>> {
    const { point } = fold;
    let state = fold.initial;
    const callId = call === undefined ? {} : { callId: call.id };
    for (const hook of implementing(point, call?.name)) {
      if (signal.aborted) return { kind: "interrupted" };
      const problem = overLimit(fold.handed(state));
      if (problem !== null) {
        const reason = `hook "${hook.label}" could not be handed its payload: ${problem}`;
        options.report?.({
          point,
          hook: hook.label,
          durationMs: 0,
          outcome: hook.failClosed || point !== "beforeModelRequest" ? "failed_closed" : "error",
          reason,
          ...callId,
        });
        if (point !== "beforeModelRequest") return { kind: "withheld", reason };
        if (hook.failClosed) {
          return fold.refuse(hook.label, `could not be handed its payload: ${problem}`);
        }
        options.notice(`hook "${hook.label}": ${point}: not called: ${problem}`);
        continue;
      }
      const invoked = await timed(hook, point, fold.args(state), { signal, ...callId });
      if (invoked.kind === "interrupted") return invoked;
      if (invoked.kind === "stop") {
        return { kind: "stopped", hook: hook.label, reason: invoked.reason };
      }
      if (invoked.kind === "failed") return fold.refuse(hook.label, invoked.problem);
      if (invoked.value === null) continue;
      const taken = await fold.take(state, invoked.value, hook.label, hook.ownWords);
      state = taken.state;
      if (taken.stop === true) break;
    }
    return done(fold.result(state));
  }

  return {
    has: (point) => implementing(point).length > 0,
    beforeRun: (payload, signal) => chain(emptyFold("beforeRun", payload), signal),
    beforePrompt: (payload, signal) => chain(promptFold(payload), signal),
    async afterRun(payload, signal) {
      const graceMs = options.afterRunGraceMs ?? AFTER_RUN_GRACE_MS;
      using grace = graceAfter(signal, graceMs);
      let stopped = false;
      // Every hook is invoked, even once the grace is over: each one stopped says so.
      for (const hook of implementing("afterRun")) {
        const invoked = await timed(hook, "afterRun", [payload], {
          signal: grace,
          graceMs,
        });
        stopped ||= invoked.kind === "interrupted";
        if (invoked.kind === "failed") {
          options.notice(`hook "${hook.label}": afterRun: ${invoked.problem}`);
        }
        // The run is ending already: a stop asked for here is said, and the other hooks still run.
        if (invoked.kind === "stop") options.notice(stoppedBy({ hook: hook.label, ...invoked }));
      }
      return stopped ? { kind: "interrupted" } : done(null);
    },
    beforeModelRequest: (payload, signal) => chain(systemFold(payload), signal),
    afterModelResponse: (payload, signal) => chain(answerFold(payload), signal),
    async beforeToolExecute(call, signal, complete = asIs) {
      // Each hook sees what the tool would run with: the defaults of its schema filled in.
      const args = implementing("beforeToolExecute", call.name).length === 0
        ? call.arguments
        : await complete(call.arguments);
      return await chain(gateFold(call, args, complete), signal, call);
    },
    afterToolExecute: (call, result, signal) => chain(resultFold(call, result), signal, call),
  };
}
