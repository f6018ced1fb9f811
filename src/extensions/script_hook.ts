/**
 * A JavaScript hook of the rienda home as a {@link RunnableHook}: each call
 * runs one point of its module in a fresh QuickJS context (docs/extensions.md,
 * Hooks); the chain (`hooks/hook_chain.ts`) checks what it returned.
 *
 * - `undefined` and `null` mean "no opinion"; anything but an object, a
 *   throw, or a stop (its `timeoutMs`, the memory limit) gives no verdict.
 * - Stopped by the interrupt (or at the end of `afterRun`'s grace) it is
 *   `interrupted`; the chain says which, as for every kind of hook.
 * - `ctx.log` and exec output of a hook become notices `hook "<name>": <line>`.
 *
 * @module
 */

import type { HookAnswer, RunnableHook } from "../hooks/runnable_hook.ts";
import { describeGuestValue, formatGuestError, type GuestResult } from "./guest_result.ts";
import { grantOf } from "./capabilities.ts";
import type { ExtensionHost } from "./host.ts";
import type { LoadedHook } from "./load_module.ts";
import type { ExtensionRunContext } from "./run_context.ts";

/** Where a script hook runs. */
export interface ScriptHookOptions {
  readonly host: ExtensionHost;
  readonly context: ExtensionRunContext;
  /** Its `matcher` (every tool when absent). */
  readonly matches?: (tool: string) => boolean;
}

function answerOf(result: GuestResult): HookAnswer {
  switch (result.kind) {
    case "threw":
      return { kind: "failed", problem: formatGuestError(result.error) };
    case "stopped":
      return { kind: "failed", problem: result.message };
    case "value": {
      const { value } = result;
      if (value.kind === "undefined" || (value.kind === "json" && value.value === null)) {
        return { kind: "answered", value: null };
      }
      if (value.kind === "json" && typeof value.value === "object" && !Array.isArray(value.value)) {
        return { kind: "answered", value: { ...value.value } };
      }
      return {
        kind: "failed",
        problem: `must return an object or nothing (returned ${describeGuestValue(value)})`,
      };
    }
    default: {
      const never: never = result;
      throw new Error(`unexpected result ${JSON.stringify(never)}`);
    }
  }
}

/** The run's signal, aborted also after `timeoutMs`; `timedOut` tells the two apart. */
function withTimeout(
  signal: AbortSignal,
  timeoutMs: number | undefined,
): { signal: AbortSignal; timedOut: () => boolean } & Disposable {
  if (timeoutMs === undefined) {
    return { signal, timedOut: () => false, [Symbol.dispose]: () => {} };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  return {
    signal: AbortSignal.any([signal, controller.signal]),
    timedOut: () => controller.signal.aborted && !signal.aborted,
    [Symbol.dispose]: () => clearTimeout(timer),
  };
}

/** The hook `hook` (its policy already applied) as the chain runs it. */
export function createScriptHook(hook: LoadedHook, options: ScriptHookOptions): RunnableHook {
  const { host, context } = options;
  return {
    label: hook.name,
    points: hook.points,
    failClosed: hook.failClosed,
    matches: options.matches ?? (() => true),
    async call(point, args, { signal }) {
      using deadline = withTimeout(signal, hook.timeoutMs);
      const result = await host.call({
        source: hook.source,
        entry: point,
        args,
        context,
        grant: grantOf(hook, context.policy),
        signal: deadline.signal,
        output: (text) => {
          for (const line of text.replace(/\n$/, "").split("\n")) {
            context.notice(`hook "${hook.name}": ${line}`);
          }
        },
      });
      if (result.kind === "stopped" && result.reason === "interrupted") {
        if (deadline.timedOut()) {
          return {
            kind: "failed",
            problem: `did not finish within ${hook.timeoutMs} ms (timeout_ms)`,
            timedOut: true,
          };
        }
        return { kind: "interrupted" };
      }
      return answerOf(result);
    },
  };
}
