/**
 * The agent's hooks as the engine's {@link HookRunner}: each point runs the
 * hooks that implement it, in the agent's order, each in a fresh context
 * (one invocation: `hook_invocation.ts`).
 *
 * - Chaining: each hook sees the previous hook's output; a field returned as
 *   `null` or `undefined` keeps its value; the last writer wins.
 * - `beforePrompt`: the first `allow: false` refuses the prompt and ends the
 *   chain, naming the hook; `text` rewrites it (chained), and every
 *   `context` returned is kept, joined by a blank line. A fail-closed hook
 *   without a verdict refuses it; a prompt over the payload limits ends as
 *   `withheld` (the engine then refuses it too).
 * - `beforeToolExecute`: the first `allow: false` refuses the call and ends
 *   the chain, naming the hook ({@link refusedBy}). Each hook is handed
 *   the arguments the tool would run with (the engine's `complete`: the
 *   schema's defaults filled in), for the model's and for each rewrite.
 * - A hook stopped by the run's interrupt ends the chain as `interrupted`,
 *   never as "no opinion"; so does an interrupt between two hooks.
 * - Before each hook, the values it is handed are checked against the
 *   payload limits (`sandbox/payload_limits.ts`): over them, `afterModelResponse`,
 *   `beforeToolExecute` and `afterToolExecute` end as `withheld` (the engine
 *   then withholds the answer, refuses the call, withholds the result);
 *   `beforeModelRequest` skips the hook with a notice.
 * - A fail-closed hook (`failClosed`) that gives no verdict (a throw, its
 *   timeout, the memory limit, an invalid return, a payload over the limits)
 *   refuses: `beforeToolExecute` refuses the call
 *   (`hook "x" failed closed: <why>`), `afterToolExecute` replaces the result
 *   by the error `withheld: hook "x" failed: <why>`, and the other points end
 *   as `withheld` (the engine then ends the run); `afterRun` has nothing to
 *   refuse and makes it a notice.
 * - Other failures are notices and "no opinion"; they never reach the engine.
 * - `afterRun` keeps running for {@link AFTER_RUN_GRACE_MS} once the run's
 *   signal is aborted, whether before the chain or during it.
 *
 * @module
 */

import {
  AFTER_RUN_GRACE_MS,
  type Chained,
  done,
  type HookPoint,
  type HookRunner,
  type ModelRequestPayload,
  type ModelResponsePayload,
  type PromptGate,
  type PromptPayload,
  type ToolCallPayload,
  type ToolGate,
  type ToolResultPayload,
} from "../engine/hooks.ts";
import { payloadProblem } from "../sandbox/payload_limits.ts";
import type { ExtensionHost } from "./host.ts";
import { type HookReturn, invokeHook } from "./hook_invocation.ts";
import type { LoadedHook } from "./load_module.ts";
import type { ExtensionRunContext } from "./run_context.ts";

/**
 * The error result of a call a hook refused, naming the hook: `hook "guard"
 * refused the call: <reason>`, or without a reason when it gave none
 * (docs/extending.md).
 */
export function refusedBy(hook: string, reason: string | undefined): string {
  return `hook "${hook}" refused the call${reason ? `: ${reason}` : ""}`;
}

/** The refusal of a prompt by a `beforePrompt` hook: `hook "x" refused the prompt: <reason>`. */
export function promptRefusedBy(hook: string, reason: string | undefined): string {
  return `hook "${hook}" refused the prompt${reason ? `: ${reason}` : ""}`;
}

/** What {@link createHookRunner} needs besides the hooks. */
export interface HookRunnerOptions {
  readonly host: ExtensionHost;
  readonly context: ExtensionRunContext;
}

function text(returned: HookReturn | null, key: string): string | undefined {
  const value = returned?.[key];
  return typeof value === "string" ? value : undefined;
}

/** The first value of `fields` over the payload limits, as `name is <problem>`; null when none. */
function overLimit(fields: Readonly<Record<string, unknown>>): string | null {
  for (const [name, value] of Object.entries(fields)) {
    const problem = payloadProblem(value);
    if (problem !== null) return `${name} is ${problem}`;
  }
  return null;
}

/** The reason of a refusal by a fail-closed hook that gave no verdict. */
export function failedClosed(hook: string, problem: string): string {
  return `hook "${hook}" failed closed: ${problem}`;
}

/** One step of a chain: the hook's arguments, the values to check first, and what to keep. */
interface Link {
  readonly args: readonly unknown[];
  /** Values handed to the hook, by the field name a message shows. */
  readonly handed: Readonly<Record<string, unknown>>;
}

/** A signal that aborts {@link AFTER_RUN_GRACE_MS} after `signal` does. */
function graceAfter(signal: AbortSignal): AbortSignal & Disposable {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = () => {
    timer = setTimeout(() => controller.abort(), AFTER_RUN_GRACE_MS);
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

/** Arguments as they are: what `complete` is when the engine gives none. */
function asIs(args: unknown): Promise<unknown> {
  return Promise.resolve(args);
}

/** Builds the runner for `hooks`, in the order the agent lists them. */
export function createHookRunner(
  hooks: readonly LoadedHook[],
  options: HookRunnerOptions,
): HookRunner {
  const implementing = (point: HookPoint) => hooks.filter((hook) => hook.points.includes(point));

  /**
   * Runs `point` of each implementing hook: `link` builds its arguments,
   * `take` keeps its return (true ends the chain), `result` is the value;
   * `refuse` is what a fail-closed hook without a verdict ends the chain with
   * (default: `withheld`).
   */
  async function chain<T>(
    point: HookPoint,
    signal: AbortSignal,
    link: () => Link,
    take: (returned: HookReturn | null, hook: string) => boolean | void | Promise<boolean | void>,
    result: () => T,
    refuse: (hook: string, problem: string) => Chained<T> = (hook, problem) => ({
      kind: "withheld",
      reason: failedClosed(hook, problem),
    }),
  ): Promise<Chained<T>> {
    for (const hook of implementing(point)) {
      if (signal.aborted) return { kind: "interrupted" };
      const { args, handed } = link();
      const problem = overLimit(handed);
      if (problem !== null) {
        const reason = `hook "${hook.name}" could not be handed its payload: ${problem}`;
        if (point !== "beforeModelRequest") return { kind: "withheld", reason };
        if (hook.failClosed) {
          return refuse(hook.name, `could not be handed its payload: ${problem}`);
        }
        options.context.notice(`hook "${hook.name}": ${point}: not called: ${problem}`);
        continue;
      }
      const invoked = await invokeHook(hook, point, args, { ...options, signal });
      if (invoked.kind === "interrupted") return { kind: "interrupted" };
      if (invoked.kind === "failed") return refuse(hook.name, invoked.problem);
      if ((await take(invoked.value, hook.name)) === true) break;
    }
    return done(result());
  }

  return {
    has: (point) => implementing(point).length > 0,
    beforeRun: (payload, signal) =>
      chain("beforeRun", signal, () => ({ args: [payload], handed: {} }), () => {}, () => null),
    beforePrompt(payload: PromptPayload, signal) {
      let prompt = payload.text;
      const context: string[] = [];
      let refusal: string | null = null;
      return chain(
        "beforePrompt",
        signal,
        () => ({ args: [{ text: prompt }], handed: { text: prompt } }),
        (returned, hook) => {
          if (returned?.allow === false) {
            refusal = promptRefusedBy(hook, text(returned, "reason"));
            return true;
          }
          prompt = text(returned, "text") ?? prompt;
          const added = text(returned, "context");
          if (added !== undefined && added !== "") context.push(added);
        },
        (): PromptGate =>
          refusal === null
            ? { allow: true, text: prompt, context: context.join("\n\n") }
            : { allow: false, reason: refusal },
        (hook, problem) => done({ allow: false, reason: failedClosed(hook, problem) }),
      );
    },
    async afterRun(payload, signal) {
      using grace = graceAfter(signal);
      let stopped = false;
      // Every hook is invoked, even once the grace is over: each one stopped says so.
      for (const hook of implementing("afterRun")) {
        const invoked = await invokeHook(hook, "afterRun", [payload], {
          ...options,
          signal: grace,
          graceMs: AFTER_RUN_GRACE_MS,
        });
        stopped ||= invoked.kind === "interrupted";
        if (invoked.kind === "failed") {
          options.context.notice(`hook "${hook.name}": afterRun: ${invoked.problem}`);
        }
      }
      return stopped ? { kind: "interrupted" } : done(null);
    },
    beforeModelRequest(payload: ModelRequestPayload, signal) {
      let system = payload.system;
      return chain(
        "beforeModelRequest",
        signal,
        () => ({
          args: [{ ...payload, system }],
          handed: {
            system,
            ...Object.fromEntries(
              payload.messages.map((message, i) => [`messages[${i}].text`, message.text]),
            ),
          },
        }),
        (returned) => {
          system = text(returned, "system") ?? system;
        },
        () => system,
      );
    },
    afterModelResponse(payload: ModelResponsePayload, signal) {
      let { text: answer, thinking } = payload;
      return chain(
        "afterModelResponse",
        signal,
        () => ({
          args: [{ ...payload, text: answer, thinking }],
          handed: {
            text: answer,
            thinking,
            ...Object.fromEntries(
              payload.toolCalls.map((call, i) => [`toolCalls[${i}].arguments`, call.arguments]),
            ),
          },
        }),
        (returned) => {
          answer = text(returned, "text") ?? answer;
          thinking = text(returned, "thinking") ?? thinking;
        },
        () => ({ text: answer, thinking }),
      );
    },
    async beforeToolExecute(call: ToolCallPayload, signal, complete = asIs) {
      // Each hook sees what the tool would run with: the defaults of its schema filled in.
      let args = implementing("beforeToolExecute").length === 0
        ? call.arguments
        : await complete(call.arguments);
      let refusal: string | null = null;
      return await chain(
        "beforeToolExecute",
        signal,
        () => ({ args: [{ ...call, arguments: args }], handed: { arguments: args } }),
        async (returned, hook) => {
          if (returned?.allow === false) {
            refusal = refusedBy(hook, text(returned, "reason"));
            return true;
          }
          if (returned?.arguments !== undefined) args = await complete(returned.arguments);
        },
        (): ToolGate =>
          refusal === null ? { allow: true, arguments: args } : { allow: false, reason: refusal },
        (hook, problem) => done({ allow: false, reason: failedClosed(hook, problem) }),
      );
    },
    afterToolExecute(call: ToolCallPayload, result: ToolResultPayload, signal) {
      let { text: output, isError } = result;
      return chain(
        "afterToolExecute",
        signal,
        () => ({
          args: [{ ...call }, { text: output, isError }],
          handed: { "call.arguments": call.arguments, "result.text": output },
        }),
        (returned) => {
          output = text(returned, "text") ?? output;
          if (typeof returned?.isError === "boolean") isError = returned.isError;
        },
        () => ({ text: output, isError }),
        (hook, problem) =>
          done({ text: `withheld: hook "${hook}" failed: ${problem}`, isError: true }),
      );
    },
  };
}
