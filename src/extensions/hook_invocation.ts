/**
 * One point of one hook: runs it in a fresh context and validates what it
 * returned (docs/extensions.md, Hooks). The chain in `hook_runner.ts` and
 * `rienda hooks test` both use it.
 *
 * - `undefined` and `null` mean "no opinion".
 * - A hook stopped by the interrupt (or at the end of `afterRun`'s grace)
 *   is `interrupted`, which callers must not take for "no opinion".
 * - A throw, another stop (the hook's `timeoutMs`, the memory limit) or a
 *   return that is not an object is a notice
 *   `hook "<name>": <point>: <message>` and "no opinion"; for a fail-closed
 *   hook it is `failed` instead, without a notice: the caller refuses.
 * - Only the point's own fields are kept (`allow`, `reason`, `text`,
 *   `context`; `system`; `text`, `thinking`; `allow`, `reason`,
 *   `arguments`; `text`, `isError`); a field of the wrong
 *   type is dropped alone, with a notice (for a fail-closed hook, the whole
 *   return is `failed`); others are ignored.
 * - `ctx.log` and exec output of a hook become notices `hook "<name>": <line>`.
 *
 * @module
 */

import type { HookPoint } from "../engine/hooks.ts";
import { describeGuestValue, formatGuestError, type GuestResult } from "./guest_result.ts";
import { grantOf } from "./capabilities.ts";
import type { ExtensionHost } from "./host.ts";
import type { LoadedHook } from "./load_module.ts";
import type { ExtensionRunContext } from "./run_context.ts";

type FieldType = "string" | "boolean" | "object";

/** The fields each point may return, with their types (reference: rienda-hooks.md). */
const RETURN_FIELDS: Readonly<Record<HookPoint, Readonly<Record<string, FieldType>>>> = {
  beforeRun: {},
  beforePrompt: { allow: "boolean", reason: "string", text: "string", context: "string" },
  afterRun: {},
  beforeModelRequest: { system: "string" },
  afterModelResponse: { text: "string", thinking: "string" },
  beforeToolExecute: { allow: "boolean", reason: "string", arguments: "object" },
  afterToolExecute: { text: "string", isError: "boolean" },
};

/** A hook's validated return: only its point's fields, each of the right type. */
export type HookReturn = Readonly<Record<string, unknown>>;

/**
 * How one invocation ended: a validated return (null: no opinion), stopped by
 * the interrupt, or (fail-closed hooks only) no verdict, with the reason.
 */
export type HookInvocation =
  | { readonly kind: "returned"; readonly value: HookReturn | null }
  | { readonly kind: "interrupted" }
  | { readonly kind: "failed"; readonly problem: string };

const NO_OPINION: HookInvocation = { kind: "returned", value: null };

/** Where and how a hook point runs. */
export interface HookInvocationOptions {
  readonly host: ExtensionHost;
  readonly context: ExtensionRunContext;
  readonly signal: AbortSignal;
  /** Set for `afterRun` after an interrupt: a stop is then the end of the grace period. */
  readonly graceMs?: number;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    default: {
      const never: never = type;
      throw new Error(`unexpected field type ${String(never)}`);
    }
  }
}

function returnedObject(
  result: GuestResult,
): { value: Record<string, unknown> } | { problem: string } | null {
  switch (result.kind) {
    case "threw":
      return { problem: formatGuestError(result.error) };
    case "stopped":
      return { problem: result.message };
    case "value": {
      const { value } = result;
      if (value.kind === "undefined" || (value.kind === "json" && value.value === null)) {
        return null;
      }
      if (value.kind === "json" && typeof value.value === "object" && !Array.isArray(value.value)) {
        return { value: { ...value.value } };
      }
      return {
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

/**
 * Runs `point` of `hook` with `args` (the payload, and the result for
 * `afterToolExecute`); see the module doc for what comes back.
 */
export async function invokeHook(
  hook: LoadedHook,
  point: HookPoint,
  args: readonly unknown[],
  options: HookInvocationOptions,
): Promise<HookInvocation> {
  const { host, context, graceMs } = options;
  const notice = (text: string) => context.notice(`hook "${hook.name}": ${point}: ${text}`);
  const failed = (problem: string): HookInvocation => {
    if (hook.failClosed) return { kind: "failed", problem };
    notice(problem);
    return NO_OPINION;
  };
  using deadline = withTimeout(options.signal, hook.timeoutMs);
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
      return failed(`did not finish within ${hook.timeoutMs} ms (timeout_ms)`);
    }
    // An interrupted run says so itself; only the end of a grace period is news.
    if (graceMs !== undefined) notice(`stopped after the grace period of ${graceMs / 1000} s`);
    return { kind: "interrupted" };
  }
  const returned = returnedObject(result);
  if (returned === null) return NO_OPINION;
  if ("problem" in returned) return failed(returned.problem);
  const validated: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(RETURN_FIELDS[point])) {
    const value = returned.value[key];
    if (value === undefined || value === null) continue;
    if (hasType(value, type)) {
      validated[key] = value;
      continue;
    }
    const problem = `"${key}" must be ${type === "object" ? "an object" : `a ${type}`} (found ${
      kindOf(value)
    })`;
    if (hook.failClosed) return { kind: "failed", problem };
    notice(`${problem}, ignored`);
  }
  return { kind: "returned", value: Object.keys(validated).length === 0 ? null : validated };
}
