/**
 * Fakes for the engine's unit tests: a scripted model client, a hook runner
 * built from plain functions, tools, and an in-memory session writer that
 * fails on demand. Every fake passes through {@link Probe.step} at each of
 * its awaits, so a test can interrupt a run at any await of the loop and
 * check what was stored and emitted (`engine/run_test.ts`).
 *
 * Product modules never import `tests/` (the architecture test checks).
 *
 * @module
 */

import type { AssistantBlock, AssistantMessage, Message } from "../../src/llm/messages.ts";
import type { ModelClient, ModelEvent, ModelRequest } from "../../src/llm/model_events.ts";
import {
  type Chained,
  done,
  type HookPoint,
  type HookRunner,
  type ModelResponsePayload,
  type PromptGate,
  type PromptPayload,
  type ToolCallPayload,
  type ToolGate,
  type ToolResultPayload,
} from "../../src/engine/hooks.ts";
import type { RunEvent } from "../../src/engine/events.ts";
import type { SessionWriter } from "../../src/engine/session_writer.ts";
import type { HookStop } from "../../src/engine/hook_stop.ts";
import type { RunOptions } from "../../src/engine/run.ts";
import type { CallableTool, ToolResult } from "../../src/tools/tool.ts";

/** Interrupts a run at its `abortAt`-th step (1-based; null: never). */
export interface Probe {
  readonly signal: AbortSignal;
  /** The steps passed so far, in order. */
  readonly steps: readonly string[];
  /** One await of a fake: counts it, aborts when it is the chosen one, then yields. */
  step(label: string): Promise<void>;
}

/** A probe that aborts at step `abortAt`. */
export function createProbe(abortAt: number | null = null): Probe {
  const controller = new AbortController();
  const steps: string[] = [];
  return {
    signal: controller.signal,
    steps,
    async step(label) {
      steps.push(label);
      if (steps.length === abortAt) {
        controller.abort(new DOMException("the run was interrupted", "AbortError"));
      }
      await Promise.resolve();
    },
  };
}

/** One scripted answer: its blocks, or a failure after the retries. */
export type ScriptedAnswer =
  | {
    readonly text?: string;
    readonly thinking?: string;
    readonly calls?: readonly {
      readonly id: string;
      readonly name: string;
      readonly arguments?: Readonly<Record<string, unknown>>;
      readonly rawArguments?: string;
    }[];
  }
  | { readonly error: string };

/** A scripted model client and the requests it received. */
export interface ScriptedModel extends ModelClient {
  readonly requests: readonly ModelRequest[];
}

/** A model answering `answers` in order (a run asking for more fails the test). */
export function scriptedModel(probe: Probe, answers: readonly ScriptedAnswer[]): ScriptedModel {
  const script = [...answers];
  const requests: ModelRequest[] = [];
  return {
    ref: "fake/m",
    requests,
    async *stream(request, signal): AsyncIterable<ModelEvent> {
      // A snapshot: the engine appends to its own array afterwards.
      requests.push(structuredClone(request));
      const answer = script.shift();
      if (answer === undefined) throw new Error("the script ran out of answers");
      await probe.step("model.connect");
      signal.throwIfAborted();
      if ("error" in answer) throw new Error(answer.error);
      if (answer.text !== undefined) {
        yield { type: "text_delta", text: answer.text };
        await probe.step("model.delta");
        signal.throwIfAborted();
      }
      yield { type: "done", message: assistantMessage(answer) };
    },
  };
}

function assistantMessage(answer: Exclude<ScriptedAnswer, { error: string }>): AssistantMessage {
  const blocks: AssistantBlock[] = [];
  if (answer.thinking !== undefined) blocks.push({ type: "thinking", thinking: answer.thinking });
  if (answer.text !== undefined) blocks.push({ type: "text", text: answer.text });
  for (const call of answer.calls ?? []) {
    blocks.push({
      type: "tool_call",
      id: call.id,
      name: call.name,
      arguments: call.arguments ?? {},
      ...(call.rawArguments === undefined ? {} : { rawArguments: call.rawArguments }),
    });
  }
  return {
    role: "assistant",
    blocks,
    model: "fake-model",
    stopReason: blocks.some((block) => block.type === "tool_call") ? "tool_use" : "end_turn",
    usage: null,
  };
}

/** The hook points a test implements, as plain functions (absent: no hook). */
export interface FakeHooks {
  readonly beforePrompt?: (payload: PromptPayload) => PromptGate;
  readonly afterModelResponse?: (
    payload: ModelResponsePayload,
  ) => { readonly text?: string; readonly thinking?: string };
  readonly beforeToolExecute?: (call: ToolCallPayload) => ToolGate | undefined;
  readonly afterToolExecute?: (
    call: ToolCallPayload,
    result: ToolResultPayload,
  ) => { readonly text?: string; readonly isError?: boolean };
  /** Points whose payload cannot be handed over, with the reason the chain gives. */
  readonly withhold?: Partial<Record<HookPoint, string>>;
  /**
   * The reason hook `stopper` gives when it stops the run at `point` (for
   * `call` at the tool points); undefined: it does not.
   */
  readonly stop?: (point: HookPoint, call?: ToolCallPayload) => string | undefined;
}

/** What the fake runner saw. */
export interface FakeHookRunner extends HookRunner {
  /** Every invocation, as `point` names. */
  readonly calls: readonly string[];
}

/**
 * A hook runner over `hooks` that keeps the contract of `engine/hooks.ts`
 * as the extension host's does: a hook the interrupt stopped is `interrupted`.
 */
export function fakeHookRunner(probe: Probe, hooks: FakeHooks = {}): FakeHookRunner {
  const calls: string[] = [];
  /** One hook of `point`: withheld when told so, interrupted by the interrupt, else `run`'s value. */
  async function invoke<T>(
    point: HookPoint,
    signal: AbortSignal,
    run: () => T,
    call?: ToolCallPayload,
  ): Promise<Chained<T>> {
    calls.push(point);
    await probe.step(`hook.${point}`);
    const withheld = hooks.withhold?.[point];
    if (withheld !== undefined) return { kind: "withheld", reason: withheld };
    if (signal.aborted) return { kind: "interrupted" };
    const stop = hooks.stop?.(point, call);
    return stop === undefined ? done(run()) : { kind: "stopped", hook: "stopper", reason: stop };
  }
  return {
    calls,
    has: (point) =>
      point in hooks || hooks.withhold?.[point] !== undefined || hooks.stop !== undefined,
    beforeRun: (_payload, signal) => invoke("beforeRun", signal, () => null),
    beforePrompt: (payload, signal) =>
      invoke(
        "beforePrompt",
        signal,
        (): PromptGate =>
          hooks.beforePrompt?.(payload) ?? { allow: true, text: payload.text, context: "" },
      ),
    afterRun: (_payload, signal) => invoke("afterRun", signal, () => null),
    beforeModelRequest: (payload, signal) =>
      invoke("beforeModelRequest", signal, () => payload.system),
    afterModelResponse: (payload, signal) =>
      invoke("afterModelResponse", signal, () => {
        const returned = hooks.afterModelResponse?.(payload);
        return {
          text: returned?.text ?? payload.text,
          thinking: returned?.thinking ?? payload.thinking,
        };
      }),
    beforeToolExecute: (call, signal) =>
      invoke(
        "beforeToolExecute",
        signal,
        (): ToolGate =>
          hooks.beforeToolExecute?.(call) ?? { allow: true, arguments: call.arguments },
        call,
      ),
    afterToolExecute: (call, result, signal) =>
      invoke("afterToolExecute", signal, () => {
        const returned = hooks.afterToolExecute?.(call, result);
        return {
          text: returned?.text ?? result.text,
          isError: returned?.isError ?? result.isError,
        };
      }, call),
  };
}

/** A tool that records its calls; `result` gives the result (default: `ran <name>`). */
export interface FakeTool extends CallableTool {
  /** The call id and arguments of every call that started. */
  readonly started: { readonly callId: string; readonly args: unknown }[];
}

/** A fake tool named `name`. */
export function fakeTool(
  probe: Probe,
  name: string,
  result: (args: unknown) => ToolResult = () => ({ text: `ran ${name}`, isError: false }),
): FakeTool {
  const started: { callId: string; args: unknown }[] = [];
  return {
    name,
    description: `The ${name} tool.`,
    parameters: { type: "object" },
    started,
    check: (args) =>
      Promise.resolve(
        typeof args === "object" && args !== null && !Array.isArray(args)
          ? { ok: true, args: { ...args } }
          : {
            ok: false,
            message: "the tool was not executed: the arguments are not a JSON object",
          },
      ),
    async run(args, context) {
      started.push({ callId: context.callId, args });
      await probe.step(`tool.${name}`);
      if (context.signal.aborted) throw context.signal.reason;
      return result(args);
    },
  };
}

/** What an in-memory session holds, in order. */
export type SessionRecord =
  | { readonly kind: "message"; readonly message: Message }
  | { readonly kind: "tool_start"; readonly callId: string }
  | { readonly kind: "hook_stop"; readonly stop: HookStop };

/** A session writer in memory. */
export interface MemorySession extends SessionWriter {
  readonly records: SessionRecord[];
  /** The stored messages, in order. */
  messages(): Message[];
}

/** A session in memory whose `failAt`-th write (1-based) fails, as a full disk would. */
export function memorySession(probe: Probe, failAt: number | null = null): MemorySession {
  const records: SessionRecord[] = [];
  let writes = 0;
  async function write(record: SessionRecord): Promise<void> {
    await probe.step(`session.${record.kind}`);
    if (++writes === failAt) throw new Error("cannot write the session: disk full");
    records.push(record);
  }
  return {
    records,
    messages: () => records.flatMap((record) => record.kind === "message" ? [record.message] : []),
    append: (message) => write({ kind: "message", message }),
    toolStarted: (callId) => write({ kind: "tool_start", callId }),
    hookStopped: (stop) => write({ kind: "hook_stop", stop }),
  };
}

/**
 * The options of a run over the fakes: `parts`, and the same fixed session,
 * agent, model reference, system prompt and workspace for every test.
 */
export function fakeRunOptions(
  parts: Pick<RunOptions, "model" | "tools" | "hooks" | "session" | "emit" | "signal"> & {
    readonly redact?: RunOptions["redact"];
  },
): RunOptions {
  return {
    sessionId: "s",
    agentId: "a",
    modelRef: "fake/m",
    system: "sys",
    history: [],
    workdir: "/w",
    diagnostics: [],
    redact: (text) => text,
    ...parts,
  };
}

/** Collects a run's events. */
export function eventLog(): { readonly events: RunEvent[]; emit(event: RunEvent): void } {
  const events: RunEvent[] = [];
  return { events, emit: (event) => void events.push(event) };
}
