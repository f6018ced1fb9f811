/**
 * The agent's hooks as the engine's {@link HookRunner}: each point runs the
 * hooks that implement it, in the agent's order, each in a fresh context
 * (one invocation: `hook_invocation.ts`).
 *
 * - Chaining: each hook sees the previous hook's output; a field returned as
 *   `null` or `undefined` keeps its value; the last writer wins.
 * - `beforeToolExecute`: the first `allow: false` refuses the call and ends
 *   the chain (reason default: {@link DEFAULT_REFUSAL}).
 * - Failures are notices and "no opinion"; they never reach the engine.
 * - `afterRun` after an interrupt gets its own {@link AFTER_RUN_GRACE_MS}.
 *
 * @module
 */

import type {
  HookPoint,
  HookRunner,
  ModelRequestPayload,
  ModelResponsePayload,
  ToolCallPayload,
  ToolGate,
  ToolResultPayload,
} from "../engine/hooks.ts";
import type { ExtensionHost } from "./host.ts";
import { type HookReturn, invokeHook } from "./hook_invocation.ts";
import type { LoadedHook } from "./load_module.ts";
import type { ExtensionRunContext } from "./run_context.ts";

/** The reason a refusal carries when the hook gave none (docs/extensions.md). */
export const DEFAULT_REFUSAL = "the call was refused by a hook";

/** How long the `afterRun` chain may run once the run was interrupted. */
export const AFTER_RUN_GRACE_MS = 2000;

/** What {@link createHookRunner} needs besides the hooks. */
export interface HookRunnerOptions {
  readonly host: ExtensionHost;
  readonly context: ExtensionRunContext;
}

function text(returned: HookReturn | null, key: string): string | undefined {
  const value = returned?.[key];
  return typeof value === "string" ? value : undefined;
}

/** Builds the runner for `hooks`, in the order the agent lists them. */
export function createHookRunner(
  hooks: readonly LoadedHook[],
  options: HookRunnerOptions,
): HookRunner {
  const implementing = (point: HookPoint) => hooks.filter((hook) => hook.points.includes(point));

  /** Runs `point` of each implementing hook; `next` builds its arguments and takes its return. */
  async function chain(
    point: HookPoint,
    signal: AbortSignal,
    next: (hook: LoadedHook) => readonly unknown[],
    take: (returned: HookReturn | null) => boolean | void,
  ): Promise<void> {
    for (const hook of implementing(point)) {
      if (signal.aborted) return;
      if (take(await invokeHook(hook, point, next(hook), { ...options, signal })) === true) return;
    }
  }

  return {
    has: (point) => implementing(point).length > 0,
    beforeRun: (payload, signal) => chain("beforeRun", signal, () => [payload], () => {}),
    async afterRun(payload, signal) {
      if (!signal.aborted && payload.reason !== "interrupted") {
        return chain("afterRun", signal, () => [payload], () => {});
      }
      // docs/extensions.md: afterRun also runs after an interrupt, with a short grace period of its own.
      // The engine hands over a fresh signal of its own (3 s); the chain's 2 s ends first, so
      // a hook that overruns is reported here rather than cut off silently.
      const grace = signal.aborted
        ? AbortSignal.timeout(AFTER_RUN_GRACE_MS)
        : AbortSignal.any([signal, AbortSignal.timeout(AFTER_RUN_GRACE_MS)]);
      for (const hook of implementing("afterRun")) {
        await invokeHook(hook, "afterRun", [payload], {
          ...options,
          signal: grace,
          graceMs: AFTER_RUN_GRACE_MS,
        });
      }
    },
    async beforeModelRequest(payload: ModelRequestPayload, signal) {
      let system = payload.system;
      await chain("beforeModelRequest", signal, () => [{ ...payload, system }], (returned) => {
        system = text(returned, "system") ?? system;
      });
      return system;
    },
    async afterModelResponse(payload: ModelResponsePayload, signal) {
      let { text: answer, thinking } = payload;
      await chain(
        "afterModelResponse",
        signal,
        () => [{ ...payload, text: answer, thinking }],
        (returned) => {
          answer = text(returned, "text") ?? answer;
          thinking = text(returned, "thinking") ?? thinking;
        },
      );
      return { text: answer, thinking };
    },
    async beforeToolExecute(call: ToolCallPayload, signal): Promise<ToolGate> {
      let args = call.arguments;
      let refusal: string | null = null;
      await chain("beforeToolExecute", signal, () => [{ ...call, arguments: args }], (returned) => {
        if (returned?.allow === false) {
          refusal = text(returned, "reason") || DEFAULT_REFUSAL;
          return true;
        }
        if (returned?.arguments !== undefined) args = returned.arguments;
      });
      return refusal === null
        ? { allow: true, arguments: args }
        : { allow: false, reason: refusal };
    },
    async afterToolExecute(call: ToolCallPayload, result: ToolResultPayload, signal) {
      let { text: output, isError } = result;
      await chain(
        "afterToolExecute",
        signal,
        () => [{ ...call }, { text: output, isError }],
        (returned) => {
          output = text(returned, "text") ?? output;
          if (typeof returned?.isError === "boolean") isError = returned.isError;
        },
      );
      return { text: output, isError };
    },
  };
}
