/**
 * The agent's hooks as the engine's {@link HookRunner}: each point runs the
 * hooks that implement it, in the agent's order, each in a fresh context.
 *
 * - Chaining: each hook sees the previous hook's output; a field returned as
 *   `null` or `undefined` keeps its value; the last writer wins.
 * - `beforeToolExecute`: the first `allow: false` refuses the call and ends
 *   the chain (reason default: {@link DEFAULT_REFUSAL}).
 * - A throw, or a return of the wrong shape, is a notice
 *   `hook "<name>": <point>: <message>` and counts as "no opinion"; a field of
 *   the wrong type is ignored alone, with a notice.
 * - `ctx.log` and exec output of hooks become notices.
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
import { formatGuestError, type GuestResult } from "./guest_result.ts";
import type { ExtensionHost } from "./host.ts";
import type { LoadedHook } from "./load_module.ts";
import type { ExtensionRunContext } from "./run_context.ts";

/** The reason a refusal carries when the hook gave none (runtime.md). */
export const DEFAULT_REFUSAL = "the call was refused by a hook";

/** How long the `afterRun` chain may run once the run was interrupted. */
export const AFTER_RUN_GRACE_MS = 2000;

/** What {@link createHookRunner} needs besides the hooks. */
export interface HookRunnerOptions {
  readonly host: ExtensionHost;
  readonly context: ExtensionRunContext;
}

type Returned = Readonly<Record<string, unknown>> | null;
type Expected = "string" | "boolean" | "object";

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Builds the runner for `hooks`, in the order the agent lists them. */
export function createHookRunner(
  hooks: readonly LoadedHook[],
  options: HookRunnerOptions,
): HookRunner {
  const { host, context } = options;
  const notice = (hook: LoadedHook, point: HookPoint, text: string) =>
    context.notice(`hook "${hook.name}": ${point}: ${text}`);

  function describeStop(result: Extract<GuestResult, { kind: "stopped" }>, graceful: boolean) {
    if (result.reason === "interrupted" && graceful) {
      return `stopped after the grace period of ${AFTER_RUN_GRACE_MS / 1000} s`;
    }
    return result.message;
  }

  /** Runs one hook point; null is "no opinion". */
  async function invoke(
    hook: LoadedHook,
    point: HookPoint,
    args: readonly unknown[],
    signal: AbortSignal,
    graceful = false,
  ): Promise<Returned> {
    const result = await host.call({
      source: hook.source,
      entry: point,
      args,
      context,
      signal,
      output: (text) => {
        for (const line of text.replace(/\n$/, "").split("\n")) {
          context.notice(`hook "${hook.name}": ${line}`);
        }
      },
    });
    switch (result.kind) {
      case "threw":
        notice(hook, point, formatGuestError(result.error));
        return null;
      case "stopped":
        if (result.reason !== "interrupted" || graceful) {
          notice(hook, point, describeStop(result, graceful));
        }
        return null;
      case "value": {
        const { value } = result;
        if (value.kind === "undefined" || (value.kind === "json" && value.value === null)) {
          return null;
        }
        if (
          value.kind === "json" && typeof value.value === "object" && !Array.isArray(value.value)
        ) {
          return { ...value.value };
        }
        const found = value.kind === "opaque" ? `a ${value.type}` : kindOf(value.value);
        notice(hook, point, `must return an object or nothing (returned ${found})`);
        return null;
      }
      default: {
        const never: never = result;
        throw new Error(`unexpected result ${JSON.stringify(never)}`);
      }
    }
  }

  /** A returned field, or undefined when absent, null or of the wrong type (with a notice). */
  function field(
    hook: LoadedHook,
    point: HookPoint,
    returned: Returned,
    key: string,
    expected: Expected,
  ) {
    const value = returned?.[key];
    if (value === undefined || value === null) return undefined;
    const ok = expected === "object"
      ? typeof value === "object" && !Array.isArray(value)
      : expected === "string"
      ? typeof value === "string"
      : typeof value === "boolean";
    if (ok) return value;
    notice(
      hook,
      point,
      `"${key}" must be ${expected === "object" ? "an object" : `a ${expected}`} (found ${
        kindOf(value)
      }), ignored`,
    );
    return undefined;
  }

  const implementing = (point: HookPoint) => hooks.filter((hook) => hook.points.includes(point));

  async function observe(
    point: "beforeRun" | "afterRun",
    payload: unknown,
    signal: AbortSignal,
    graceful: boolean,
  ) {
    for (const hook of implementing(point)) {
      if (signal.aborted && !graceful) return;
      await invoke(hook, point, [payload], signal, graceful);
    }
  }

  return {
    has: (point) => hooks.some((hook) => hook.points.includes(point)),
    beforeRun: (payload, signal) => observe("beforeRun", payload, signal, false),
    afterRun(payload, signal) {
      // runtime.md: afterRun also runs after an interrupt, within a short grace period.
      if (!signal.aborted) return observe("afterRun", payload, signal, false);
      return observe("afterRun", payload, AbortSignal.timeout(AFTER_RUN_GRACE_MS), true);
    },
    async beforeModelRequest(payload: ModelRequestPayload, signal) {
      let system = payload.system;
      for (const hook of implementing("beforeModelRequest")) {
        if (signal.aborted) break;
        const returned = await invoke(hook, "beforeModelRequest", [{ ...payload, system }], signal);
        const next = field(hook, "beforeModelRequest", returned, "system", "string");
        if (typeof next === "string") system = next;
      }
      return system;
    },
    async afterModelResponse(payload: ModelResponsePayload, signal) {
      let { text, thinking } = payload;
      for (const hook of implementing("afterModelResponse")) {
        if (signal.aborted) break;
        const returned = await invoke(
          hook,
          "afterModelResponse",
          [{ ...payload, text, thinking }],
          signal,
        );
        const nextText = field(hook, "afterModelResponse", returned, "text", "string");
        const nextThinking = field(hook, "afterModelResponse", returned, "thinking", "string");
        if (typeof nextText === "string") text = nextText;
        if (typeof nextThinking === "string") thinking = nextThinking;
      }
      return { text, thinking };
    },
    async beforeToolExecute(call: ToolCallPayload, signal): Promise<ToolGate> {
      let args = call.arguments;
      for (const hook of implementing("beforeToolExecute")) {
        if (signal.aborted) break;
        const point = "beforeToolExecute";
        const returned = await invoke(hook, point, [{ ...call, arguments: args }], signal);
        const allow = field(hook, point, returned, "allow", "boolean");
        if (allow === false) {
          const reason = field(hook, point, returned, "reason", "string");
          return {
            allow: false,
            reason: typeof reason === "string" && reason !== "" ? reason : DEFAULT_REFUSAL,
          };
        }
        const next = field(hook, point, returned, "arguments", "object");
        if (next !== undefined) args = next;
      }
      return { allow: true, arguments: args };
    },
    async afterToolExecute(call: ToolCallPayload, result: ToolResultPayload, signal) {
      let { text, isError } = result;
      for (const hook of implementing("afterToolExecute")) {
        if (signal.aborted) break;
        const point = "afterToolExecute";
        const returned = await invoke(hook, point, [{ ...call }, { text, isError }], signal);
        const nextText = field(hook, point, returned, "text", "string");
        const nextError = field(hook, point, returned, "isError", "boolean");
        if (typeof nextText === "string") text = nextText;
        if (typeof nextError === "boolean") isError = nextError;
      }
      return { text, isError };
    },
  };
}
