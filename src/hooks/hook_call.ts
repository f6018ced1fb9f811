/**
 * One call of one hook of any kind, its answer checked (docs/extending.md,
 * "What each return does"): the chain (`hook_chain.ts`) and `rienda hooks
 * test` both use it, so every kind of hook is held to the same rules.
 *
 * - Only the point's own fields are kept (`allow`, `reason`, `text`,
 *   `context`; `system`; `text`, `thinking`; `allow`, `reason`,
 *   `arguments`; `text`, `isError`); `null` and
 *   `undefined` fields are "keep"; a field of the wrong type is dropped
 *   alone, with a notice; others are ignored.
 * - A hook that gives no verdict (a failure, or for a fail-closed hook a
 *   field of the wrong type too) is `failed` when it is fail-closed: the
 *   caller refuses; otherwise it is a notice `hook "<label>": <point>:
 *   <problem>` and "no opinion", with `failure` saying what went wrong.
 * - A hook stopped by the interrupt is `interrupted`, never "no opinion".
 *
 * @module
 */

import type { HookOutcome, HookPoint } from "../engine/hooks.ts";
import type { HookCallOptions, RunnableHook } from "./runnable_hook.ts";

type FieldType = "string" | "boolean" | "object";

/** The fields each point may return, with their types. */
const RETURN_FIELDS: Readonly<Record<HookPoint, Readonly<Record<string, FieldType>>>> = {
  beforeRun: {},
  beforePrompt: { allow: "boolean", reason: "string", text: "string", context: "string" },
  afterRun: {},
  beforeModelRequest: { system: "string" },
  afterModelResponse: { text: "string", thinking: "string" },
  beforeToolExecute: { allow: "boolean", reason: "string", arguments: "object" },
  afterToolExecute: { text: "string", isError: "boolean" },
};

/** A hook's checked answer: only its point's fields, each of the right type. */
export type HookReturn = Readonly<Record<string, unknown>>;

/** A failure that gave no verdict. */
export interface HookFailure {
  readonly problem: string;
  readonly timedOut: boolean;
}

/** How one call ended (see the module doc). */
export type HookInvocation =
  | {
    readonly kind: "returned";
    readonly value: HookReturn | null;
    /** Set when the hook failed and, not being fail-closed, counts as "no opinion". */
    readonly failure?: HookFailure;
  }
  | { readonly kind: "interrupted" }
  /** The hook asked for the run to end (`HookAnswer` `stop`). */
  | { readonly kind: "stop"; readonly reason: string }
  | ({ readonly kind: "failed" } & HookFailure);

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

/**
 * The fields of `value` that `point` takes, and a problem per field of the
 * wrong type (`"allow" must be a boolean (found a string)`).
 *
 * @example
 * ```ts
 * import { checkReturn } from "./hook_call.ts";
 * checkReturn("afterToolExecute", { text: "x", isError: "no", other: 1 });
 * // { value: { text: "x" }, problems: ['"isError" must be a boolean (found a string)'] }
 * ```
 */
export function checkReturn(
  point: HookPoint,
  value: Readonly<Record<string, unknown>>,
): { readonly value: HookReturn; readonly problems: readonly string[] } {
  const checked: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, type] of Object.entries(RETURN_FIELDS[point])) {
    const field = value[key];
    if (field === undefined || field === null) continue;
    if (hasType(field, type)) checked[key] = field;
    else {
      problems.push(
        `"${key}" must be ${type === "object" ? "an object" : `a ${type}`} (found ${
          kindOf(field)
        })`,
      );
    }
  }
  return { value: checked, problems };
}

/** Calls `point` of `hook` with `args` and checks the answer (see the module doc). */
export async function callHook(
  hook: RunnableHook,
  point: HookPoint,
  args: readonly unknown[],
  options: HookCallOptions & { readonly notice: (text: string) => void },
): Promise<HookInvocation> {
  const notice = (text: string) => options.notice(`hook "${hook.label}": ${point}: ${text}`);
  const failed = (failure: HookFailure, closed = false): HookInvocation => {
    if (hook.failClosed || closed) return { kind: "failed", ...failure };
    notice(failure.problem);
    return { kind: "returned", value: null, failure };
  };
  const answer = await hook.call(point, args, options);
  switch (answer.kind) {
    case "interrupted":
    case "stop":
      return answer;
    case "failed":
      return failed(
        { problem: answer.problem, timedOut: answer.timedOut === true },
        answer.closed === true,
      );
    case "answered": {
      if (answer.value === null) return { kind: "returned", value: null };
      const { value, problems } = checkReturn(point, answer.value);
      const [first] = problems;
      if (first !== undefined && hook.failClosed) {
        return { kind: "failed", problem: first, timedOut: false };
      }
      for (const problem of problems) notice(`${problem}, ignored`);
      return { kind: "returned", value: Object.keys(value).length === 0 ? null : value };
    }
    default: {
      const never: never = answer;
      throw new Error(`unexpected answer ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The telemetry outcome of a finished call at `point`, with its reason.
 *
 * @example
 * ```ts
 * import { outcomeOf } from "./hook_call.ts";
 * outcomeOf("beforeToolExecute", { kind: "returned", value: { allow: false, reason: "no" } });
 * // { outcome: "deny", reason: "no" }
 * ```
 */
export function outcomeOf(
  point: HookPoint,
  invocation: Exclude<HookInvocation, { kind: "interrupted" }>,
): { readonly outcome: HookOutcome; readonly reason?: string } {
  if (invocation.kind === "failed") return { outcome: "failed_closed", reason: invocation.problem };
  if (invocation.kind === "stop") return { outcome: "stop", reason: invocation.reason };
  const { value, failure } = invocation;
  if (failure !== undefined) {
    return { outcome: failure.timedOut ? "timeout" : "error", reason: failure.problem };
  }
  if (value === null) return { outcome: "none" };
  if ((point === "beforeToolExecute" || point === "beforePrompt") && value.allow === false) {
    return typeof value.reason === "string"
      ? { outcome: "deny", reason: value.reason }
      : { outcome: "deny" };
  }
  const rewrites = Object.keys(value).filter((key) => key !== "allow" && key !== "reason");
  return { outcome: rewrites.length > 0 ? "modify" : value.allow === true ? "allow" : "none" };
}
