/**
 * One run of one agent over one session (docs/cli.md, "The agent loop").
 *
 * Guarantees:
 * - only complete messages are stored: a partial answer cut by an interrupt
 *   or a failure is dropped;
 * - an interrupt never bypasses a hook: the signal is checked after every
 *   hook chain, and an answer whose `afterModelResponse` chain did not finish
 *   is neither printed nor stored (the run ends `interrupted`);
 * - every stored tool call has a stored result, in call order, in one
 *   message, and a `tool_start` mark before its tool ran (`tool_batch.ts`);
 * - the prompt passes the `beforePrompt` chain before anything else: a
 *   refused prompt is neither stored nor sent, the run emits no `run_start`
 *   and ends with reason `error` (the outcome says `promptRefused`);
 * - a hook that stops the run (`hook_stop.ts`) ends it with reason
 *   `hook_stop`: no further tool call runs, no further request is made,
 *   every stored call has its result, and a `hook_stop` entry of the session
 *   records the stop after them (none when it stopped at `beforePrompt`,
 *   which stores nothing, as a refusal does); an interrupt at the same time
 *   ends the run `interrupted`;
 * - `afterRun` runs whatever the end reason (a hook stop is `end_turn` to
 *   it); an interrupt before or during it gives it `AFTER_RUN_GRACE_MS` more
 *   and ends the run `interrupted`;
 * - the run never throws: failures end it with reason `error`.
 *
 * @module
 */

import {
  addUsage,
  type AssistantMessage,
  EMPTY_USAGE,
  type Message,
  textOf,
  toolCallsOf,
  type Usage,
  type UserMessage,
  userText,
} from "../llm/messages.ts";
import type { ModelClient, ToolSpec } from "../llm/model_events.ts";
import type { CallableTool } from "../tools/tool.ts";
import { type Compactor, createRunContext } from "./compaction.ts";
import type { EventSink } from "./events.ts";
import {
  AFTER_RUN_GRACE_MS,
  type AfterRunReason,
  type Chained,
  type EndReason,
  type HookPoint,
  type HookRunner,
} from "./hooks.ts";
import { type HookStop, hookStop } from "./hook_stop.ts";
import {
  createLoopGuard,
  LOOP_GUARD_MESSAGE,
  LOOP_GUARD_ROUNDS,
  LOOP_NOTE_ROUND,
  withLoopNote,
} from "./loop_guard.ts";
import { streamModelTurn } from "./model_turn.ts";
import type { SessionWriter } from "./session_writer.ts";
import { type BatchOutcome, runToolBatch, skippedCalls, toResultMessage } from "./tool_batch.ts";
import { acceptToolCalls } from "./tool_calls.ts";
import { applyResponseHooks, requestSnapshot } from "./response_hooks.ts";
import { errorMessage } from "../base/unknown.ts";

/**
 * How much longer than the runner's grace the engine waits for `afterRun`
 * after an interrupt: a backstop for a runner that does not stop in time.
 */
const AFTER_RUN_BACKSTOP_MS = 1_000;

/** Everything a run needs; `app/` builds it. */
export interface RunOptions {
  readonly sessionId: string;
  readonly agentId: string;
  /** The `provider/model` reference, as shown to hooks and front ends. */
  readonly modelRef: string;
  readonly system: string;
  readonly model: ModelClient;
  /** The agent's tools, in declaration order, already checked and capped (`app/checked_tool.ts`). */
  readonly tools: readonly CallableTool[];
  readonly hooks: HookRunner;
  readonly session: SessionWriter;
  /** Earlier messages of the branch being continued (after its last compaction). */
  readonly history: readonly Message[];
  /** The summary of the branch's compacted past, sent before `history` (see `compaction.ts`). */
  readonly summary?: string;
  /** Automatic compaction; absent when it is disabled. */
  readonly compactor?: Compactor;
  readonly workdir: string;
  readonly maxTurns?: number;
  /** Load diagnostics of tools, hooks and skills, reported once. */
  readonly diagnostics: readonly string[];
  readonly emit: EventSink;
  readonly signal: AbortSignal;
  /**
   * Masks the secrets the run knows in a text: every tool result passes
   * through it before the hooks, the session and the model see it.
   */
  readonly redact: (text: string) => string;
}

/** How a run ended, apart from its totals: with `hook_stop`, the hook that stopped it. */
type RunEnd =
  | {
    readonly reason: Exclude<EndReason, "hook_stop">;
    readonly error?: string;
    /** Set when a `beforePrompt` hook refused the prompt (`error` says why): nothing was stored. */
    readonly promptRefused?: true;
  }
  | {
    readonly reason: "hook_stop";
    readonly stop: HookStop;
    readonly error?: never;
    readonly promptRefused?: never;
  };

/** How a run ended. */
export type RunOutcome = RunEnd & {
  /** The final assistant text. */
  readonly text: string;
  readonly usage: Usage;
  readonly turns: number;
};

/** A failure that ends the run with reason `error` and this message. */
class RunStop extends Error {
  override name = "RunStop";
}

/** A prompt a `beforePrompt` hook refused: the run ends with reason `error`, storing nothing. */
class PromptRefused extends RunStop {
  override name = "PromptRefused";
}

/** A hook asked for the run to end (`hook_stop.ts`). */
class HookStopped extends Error {
  override name = "HookStopped";
  constructor(readonly stop: HookStop) {
    super(`hook "${stop.hook}" stopped the run`);
  }
}

/** Runs the agent on `prompt` until it ends; never throws. */
export async function runAgent(options: RunOptions, prompt: string): Promise<RunOutcome> {
  const state = { text: "", usage: EMPTY_USAGE, turns: 0 };
  let end: RunEnd = { reason: "end_turn" };
  try {
    await loop(options, prompt, state);
  } catch (cause) {
    end = await endOf(options, cause);
  }
  if (options.signal.aborted) end = { reason: "interrupted" };
  await runAfterRun(options, end.reason === "hook_stop" ? "end_turn" : end.reason);
  // An interrupt while afterRun ran after another end still ends the run as an interrupt.
  if (options.signal.aborted) end = { reason: "interrupted" };
  const { promptRefused: _refused, ...ended } = end;
  const totals = { text: state.text, usage: state.usage, turns: state.turns };
  options.emit({ type: "run_end", ...ended, ...totals });
  return { ...end, ...totals };
}

/** How a run that threw `cause` ends; a stop is recorded in the session first. */
async function endOf(options: RunOptions, cause: unknown): Promise<RunEnd> {
  if (cause instanceof HookStopped) {
    // A prompt stopped before it was stored leaves nothing, as a refused one.
    if (cause.stop.point !== "beforePrompt") {
      try {
        await options.session.hookStopped(cause.stop);
      } catch (failure) {
        return { reason: "error", error: errorMessage(failure) };
      }
    }
    return { reason: "hook_stop", stop: cause.stop };
  }
  const error = errorMessage(cause);
  return cause instanceof PromptRefused
    ? { reason: "error", error, promptRefused: true }
    : { reason: "error", error };
}

interface RunState {
  text: string;
  usage: Usage;
  turns: number;
}

async function loop(options: RunOptions, prompt: string, state: RunState): Promise<void> {
  const { emit, hooks, signal, session } = options;
  /** The value of the chain of `point` ({@link settled}). */
  const settle = <T>(chained: Chained<T>, point: HookPoint): T =>
    settled(chained, signal, { point, redact: options.redact });
  const context = createRunContext({
    history: options.history,
    summary: options.summary ?? null,
    compactor: options.compactor,
    model: options.model,
    emit,
    signal,
  });
  const messages: Message[] = context.messages;
  const toolMap = new Map(options.tools.map((tool) => [tool.name, tool]));
  const toolSpecs: ToolSpec[] = options.tools.map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  const guard = createLoopGuard();

  // A refused prompt ends the run before it starts: no run_start, nothing stored.
  const promptMessage = await promptOf(options, prompt, settle);
  await session.append(promptMessage);
  messages.push(promptMessage);
  emit({
    type: "run_start",
    sessionId: options.sessionId,
    agent: options.agentId,
    model: options.modelRef,
    diagnostics: options.diagnostics,
  });
  settle(
    await hooks.beforeRun(
      { sessionId: options.sessionId, agentId: options.agentId, modelId: options.modelRef },
      signal,
    ),
    "beforeRun",
  );

  for (;;) {
    signal.throwIfAborted();
    const prepared = await context.prepare(options.system, toolSpecs);
    if (prepared.usage !== null) state.usage = addUsage(state.usage, prepared.usage);
    const system = hooks.has("beforeModelRequest")
      ? settle(
        await hooks.beforeModelRequest(
          {
            system: options.system,
            model: options.modelRef,
            messages: requestSnapshot(prepared.messages),
          },
          signal,
        ),
        "beforeModelRequest",
      )
      : options.system;
    const streamed = await streamModelTurn({
      model: options.model,
      request: { system, messages: prepared.messages, tools: toolSpecs },
      emit,
      signal,
      withholdDeltas: hooks.has("afterModelResponse"),
    });
    state.turns++;
    if (streamed.usage !== null) state.usage = addUsage(state.usage, streamed.usage);
    const accepted = acceptToolCalls(streamed);
    const calls = toolCallsOf(accepted.message);
    if (calls.length === 0 && textOf(accepted.message) === "") {
      throw new RunStop("the model returned an empty response");
    }
    const rewritten = await applyResponseHooks(accepted.message, hooks, signal);
    if (rewritten.kind === "withheld") {
      throw new RunStop(`the answer was neither printed nor stored: ${rewritten.reason}`);
    }
    const message = settle(rewritten, "afterModelResponse");
    await session.append(message);
    messages.push(message);
    state.text = textOf(message);
    emitMessageEnd(options, message);
    if (calls.length === 0) return;

    const limitReached = options.maxTurns !== undefined && state.turns >= options.maxTurns;
    const batch: BatchOutcome = limitReached
      ? {
        outcomes: skippedCalls(
          calls,
          "the tool was not executed: the run reached its --max-turns limit",
        ),
        stop: null,
      }
      : await runToolBatch(calls, accepted.refusals, {
        tools: toolMap,
        hooks,
        session,
        workdir: options.workdir,
        emit,
        signal,
        redact: options.redact,
      });
    const { outcomes } = batch;
    const repeats = guard.observe(outcomes);
    const results = toResultMessage(
      repeats >= LOOP_NOTE_ROUND && repeats < LOOP_GUARD_ROUNDS
        ? withLoopNote(outcomes, repeats)
        : outcomes,
    );
    await session.append(results);
    messages.push(results);
    signal.throwIfAborted();
    if (batch.stop !== null) throw new HookStopped(batch.stop);
    if (limitReached) {
      throw new RunStop(`the run reached its --max-turns limit of ${options.maxTurns} turns`);
    }
    if (repeats >= LOOP_GUARD_ROUNDS) throw new RunStop(LOOP_GUARD_MESSAGE);
  }
}

/**
 * The value of a finished chain, after checking the signal.
 *
 * @throws the signal's reason when the chain was interrupted or the run was
 * interrupted meanwhile; a {@link RunStop} when a payload was withheld
 * (the caller words it when it can happen); a {@link HookStopped} when a
 * hook of `at.point` stopped the run
 */
function settled<T>(
  chained: Chained<T>,
  signal: AbortSignal,
  at: { readonly point: HookPoint; readonly redact: (text: string) => string },
): T {
  signal.throwIfAborted();
  switch (chained.kind) {
    case "done":
      return chained.value;
    case "stopped":
      throw new HookStopped(hookStop(chained, at.point, at.redact));
    case "interrupted":
      // A hook stopped by an interrupt that the signal does not show: still not "no opinion".
      throw new DOMException("the run was interrupted", "AbortError");
    case "withheld":
      throw new RunStop(chained.reason);
    default: {
      const never: never = chained;
      throw new Error(`unexpected chain result ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The user message of `prompt` after the `beforePrompt` chain: its text, and
 * the context hooks added as a second text block the model reads with it.
 *
 * @throws {PromptRefused} when a hook refused it
 */
async function promptOf(
  options: RunOptions,
  prompt: string,
  settle: <T>(chained: Chained<T>, point: HookPoint) => T,
): Promise<UserMessage> {
  const { hooks, signal } = options;
  if (!hooks.has("beforePrompt")) return userText(prompt);
  const chained = await hooks.beforePrompt({ text: prompt }, signal);
  // A prompt a hook could not be handed is not sent: a refusal like the hook's own.
  if (chained.kind === "withheld" && !signal.aborted) throw new PromptRefused(chained.reason);
  const gate = settle(chained, "beforePrompt");
  if (!gate.allow) throw new PromptRefused(gate.reason);
  const message = userText(gate.text);
  return gate.context === ""
    ? message
    : { ...message, blocks: [...message.blocks, { type: "text", text: gate.context }] };
}

function emitMessageEnd(options: RunOptions, message: AssistantMessage): void {
  options.emit({
    type: "message_end",
    text: textOf(message),
    model: message.model,
    stopReason: message.stopReason,
    usage: message.usage,
  });
}

/**
 * Runs `afterRun` under the run's signal; once that is aborted, waits at
 * most the runner's grace plus {@link AFTER_RUN_BACKSTOP_MS}.
 */
async function runAfterRun(options: RunOptions, reason: AfterRunReason): Promise<void> {
  const { signal } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const backstop = new Promise<void>((resolve) => {
    onAbort = () => {
      timer = setTimeout(resolve, AFTER_RUN_GRACE_MS + AFTER_RUN_BACKSTOP_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([options.hooks.afterRun({ reason }, signal), backstop]);
  } catch {
    // hooks.ts: runners report their own failures; nothing may escape a run.
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}
