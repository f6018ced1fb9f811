/**
 * What each point's chain does with one hook's answer, as pure steps over a
 * state: the arguments the next hook is handed, the values checked against
 * the payload limits first, how an answer changes the state, and what a
 * fail-closed hook without a verdict ends the chain with
 * (docs/extending.md, "Chaining and order").
 *
 * - A field left out, or `null`, keeps its value; the last writer wins.
 * - `beforePrompt`: the first `allow: false` refuses the prompt, naming the
 *   hook ({@link promptRefusedBy}); `text` rewrites it (chained), and every
 *   `context` returned is kept, joined by a blank line; a fail-closed hook
 *   without a verdict refuses it.
 * - `beforeToolExecute`: the first `allow: false` ends the chain with a
 *   refusal naming the hook ({@link refusedBy}); a fail-closed hook without
 *   a verdict refuses the call ({@link failedClosed}).
 * - `afterToolExecute`: a fail-closed hook without a verdict replaces the
 *   result by the error `withheld: hook "x" failed: <why>`.
 * - The other points end as `withheld` (the engine then ends the run).
 *
 * @module
 */

import {
  type Chained,
  done,
  type HookPoint,
  type ModelRequestPayload,
  type ModelResponsePayload,
  type PromptGate,
  type PromptPayload,
  type ToolCallPayload,
  type ToolGate,
  type ToolResultPayload,
} from "../engine/hooks.ts";
import type { HookReturn } from "./hook_call.ts";

/**
 * The error result of a call a hook refused, naming the hook: `hook "guard"
 * refused the call: <reason>`, or without a reason when it gave none.
 */
export function refusedBy(hook: string, reason: string | undefined): string {
  return `hook "${hook}" refused the call${reason ? `: ${reason}` : ""}`;
}

/** The refusal of a prompt by a `beforePrompt` hook: `hook "x" refused the prompt: <reason>`. */
export function promptRefusedBy(hook: string, reason: string | undefined): string {
  return `hook "${hook}" refused the prompt${reason ? `: ${reason}` : ""}`;
}

/** The reason of a refusal by a fail-closed hook that gave no verdict. */
export function failedClosed(hook: string, problem: string): string {
  return `hook "${hook}" failed closed: ${problem}`;
}

/** One point's chain as steps over a state `S`, ending in a `T`. */
export interface PointFold<S, T> {
  readonly point: HookPoint;
  readonly initial: S;
  /** The arguments a hook is handed in state `state`. */
  args(state: S): readonly unknown[];
  /** The values handed, by the field name a message shows, to check against the payload limits. */
  handed(state: S): Readonly<Record<string, unknown>>;
  /**
   * The state after `hook` answered `returned`; `stop` ends the chain.
   * `ownWords`: a refusal's reason is what the model reads, as it is.
   */
  take(
    state: S,
    returned: HookReturn,
    hook: string,
    ownWords?: boolean,
  ): Promise<{ readonly state: S; readonly stop?: boolean }>;
  result(state: S): T;
  /** What a fail-closed hook that gave no verdict ends the chain with. */
  refuse(hook: string, problem: string): Chained<T>;
}

function text(returned: HookReturn, key: string): string | undefined {
  const value = returned[key];
  return typeof value === "string" ? value : undefined;
}

function withheld<T>(hook: string, problem: string): Chained<T> {
  return { kind: "withheld", reason: failedClosed(hook, problem) };
}

/** A point whose hooks return nothing (`beforeRun`). */
export function emptyFold(point: HookPoint, payload: unknown): PointFold<null, null> {
  return {
    point,
    initial: null,
    args: () => [payload],
    handed: () => ({}),
    take: (state) => Promise.resolve({ state }),
    result: () => null,
    refuse: withheld,
  };
}

type Prompt = { readonly text: string; readonly context: readonly string[] };

/** `beforePrompt`: the user's message, rewritten, with the context hooks add, or refused. */
export function promptFold(payload: PromptPayload): PointFold<Prompt | PromptGate, PromptGate> {
  const open = (state: Prompt | PromptGate): Prompt =>
    "allow" in state ? { text: payload.text, context: [] } : state;
  return {
    point: "beforePrompt",
    initial: { text: payload.text, context: [] },
    args: (state) => [{ text: open(state).text }],
    handed: (state) => ({ text: open(state).text }),
    take(state, returned, hook) {
      if (returned.allow === false) {
        return Promise.resolve({
          state: { allow: false, reason: promptRefusedBy(hook, text(returned, "reason")) },
          stop: true,
        });
      }
      const prompt = open(state);
      const added = text(returned, "context");
      return Promise.resolve({
        state: {
          text: text(returned, "text") ?? prompt.text,
          context: added === undefined || added === ""
            ? prompt.context
            : [...prompt.context, added],
        },
      });
    },
    result: (state) =>
      "allow" in state
        ? state
        : { allow: true, text: state.text, context: state.context.join("\n\n") },
    refuse: (hook, problem) => done({ allow: false, reason: failedClosed(hook, problem) }),
  };
}

/** `beforeModelRequest`: the system prompt for this request. */
export function systemFold(payload: ModelRequestPayload): PointFold<string, string> {
  return {
    point: "beforeModelRequest",
    initial: payload.system,
    args: (system) => [{ ...payload, system }],
    handed: (system) => ({
      system,
      ...Object.fromEntries(
        payload.messages.map((message, i) => [`messages[${i}].text`, message.text]),
      ),
    }),
    take: (system, returned) => Promise.resolve({ state: text(returned, "system") ?? system }),
    result: (system) => system,
    refuse: withheld,
  };
}

type Answer = { readonly text: string; readonly thinking: string };

/** `afterModelResponse`: the text and thinking that are stored. */
export function answerFold(payload: ModelResponsePayload): PointFold<Answer, Answer> {
  return {
    point: "afterModelResponse",
    initial: { text: payload.text, thinking: payload.thinking },
    args: (answer) => [{ ...payload, ...answer }],
    handed: (answer) => ({
      ...answer,
      ...Object.fromEntries(
        payload.toolCalls.map((call, i) => [`toolCalls[${i}].arguments`, call.arguments]),
      ),
    }),
    take: (answer, returned) =>
      Promise.resolve({
        state: {
          text: text(returned, "text") ?? answer.text,
          thinking: text(returned, "thinking") ?? answer.thinking,
        },
      }),
    result: (answer) => answer,
    refuse: withheld,
  };
}

/**
 * `beforeToolExecute`: each hook is handed the arguments the tool would run
 * with (`complete` fills in the schema's defaults, for the model's arguments,
 * already in `args`, and for each rewrite).
 */
export function gateFold(
  call: ToolCallPayload,
  args: unknown,
  complete: (args: unknown) => Promise<unknown>,
): PointFold<ToolGate, ToolGate> {
  return {
    point: "beforeToolExecute",
    initial: { allow: true, arguments: args },
    args: (gate) => [{ ...call, arguments: gate.allow ? gate.arguments : args }],
    handed: (gate) => ({ arguments: gate.allow ? gate.arguments : args }),
    async take(gate, returned, hook, ownWords) {
      if (returned.allow === false) {
        const reason = text(returned, "reason");
        return {
          state: {
            allow: false,
            reason: ownWords === true && reason ? reason : refusedBy(hook, reason),
          },
          stop: true,
        };
      }
      if (returned.arguments === undefined || !gate.allow) return { state: gate };
      return { state: { allow: true, arguments: await complete(returned.arguments) } };
    },
    result: (gate) => gate,
    refuse: (hook, problem) => done({ allow: false, reason: failedClosed(hook, problem) }),
  };
}

/** `afterToolExecute`: the result the model reads. */
export function resultFold(
  call: ToolCallPayload,
  result: ToolResultPayload,
): PointFold<ToolResultPayload, ToolResultPayload> {
  return {
    point: "afterToolExecute",
    initial: result,
    args: (current) => [{ ...call }, { ...current }],
    handed: (current) => ({ "call.arguments": call.arguments, "result.text": current.text }),
    take: (current, returned) =>
      Promise.resolve({
        state: {
          text: text(returned, "text") ?? current.text,
          isError: typeof returned.isError === "boolean" ? returned.isError : current.isError,
        },
      }),
    result: (current) => current,
    refuse: (hook, problem) =>
      done({ text: `withheld: hook "${hook}" failed: ${problem}`, isError: true }),
  };
}
