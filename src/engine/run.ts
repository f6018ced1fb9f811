/**
 * One run of one agent over one session (docs/cli.md, "The agent loop").
 *
 * Guarantees:
 * - only complete messages are stored: a partial answer cut by an interrupt
 *   or a failure is dropped;
 * - every stored tool call has a stored result, in call order, in one message;
 * - `afterRun` runs whatever the end reason, with its own grace period after
 *   an interrupt;
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
  userText,
} from "../llm/messages.ts";
import type { ModelClient, ToolSpec } from "../llm/model_events.ts";
import type { Tool } from "../tools/tool.ts";
import { type Compactor, createRunContext } from "./compaction.ts";
import type { EventSink } from "./events.ts";
import type { EndReason, HookRunner } from "./hooks.ts";
import { createLoopGuard, LOOP_GUARD_MESSAGE } from "./loop_guard.ts";
import { streamModelTurn } from "./model_turn.ts";
import type { SessionWriter } from "./session_writer.ts";
import { type CallOutcome, runToolBatch, skippedCalls, toResultMessage } from "./tool_batch.ts";
import { applyResponseHooks, requestSnapshot } from "./response_hooks.ts";
import { errorMessage } from "../unknown.ts";

/** How long `afterRun` may take after an interrupt. */
export const AFTER_RUN_GRACE_MS = 3_000;

/** Everything a run needs; `app/` builds it. */
export interface RunOptions {
  readonly sessionId: string;
  readonly agentId: string;
  /** The `provider/model` reference, as shown to hooks and front ends. */
  readonly modelRef: string;
  readonly system: string;
  readonly model: ModelClient;
  /** The agent's tools, in declaration order. */
  readonly tools: readonly Tool[];
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
}

/** How a run ended. */
export interface RunOutcome {
  readonly reason: EndReason;
  readonly error?: string;
  /** The final assistant text. */
  readonly text: string;
  readonly usage: Usage;
  readonly turns: number;
}

/** A failure that ends the run with reason `error` and this message. */
class RunStop extends Error {
  override name = "RunStop";
}

/** Runs the agent on `prompt` until it ends; never throws. */
export async function runAgent(options: RunOptions, prompt: string): Promise<RunOutcome> {
  const state = { text: "", usage: EMPTY_USAGE, turns: 0 };
  let reason: EndReason = "end_turn";
  let error: string | undefined;
  try {
    await loop(options, prompt, state);
  } catch (cause) {
    if (options.signal.aborted) {
      reason = "interrupted";
    } else {
      reason = "error";
      error = errorMessage(cause);
    }
  }
  await runAfterRun(options, reason);
  const outcome: RunOutcome = { reason, text: state.text, usage: state.usage, turns: state.turns };
  const ended = error === undefined ? outcome : { ...outcome, error };
  options.emit({ type: "run_end", ...ended });
  return ended;
}

interface RunState {
  text: string;
  usage: Usage;
  turns: number;
}

async function loop(options: RunOptions, prompt: string, state: RunState): Promise<void> {
  const { emit, hooks, signal, session } = options;
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

  const promptMessage = userText(prompt);
  await session.append(promptMessage);
  messages.push(promptMessage);
  emit({
    type: "run_start",
    sessionId: options.sessionId,
    agent: options.agentId,
    model: options.modelRef,
    diagnostics: options.diagnostics,
  });
  await hooks.beforeRun(
    { sessionId: options.sessionId, agentId: options.agentId, modelId: options.modelRef },
    signal,
  );

  for (;;) {
    signal.throwIfAborted();
    const prepared = await context.prepare(options.system, toolSpecs);
    if (prepared.usage !== null) state.usage = addUsage(state.usage, prepared.usage);
    const system = hooks.has("beforeModelRequest")
      ? await hooks.beforeModelRequest(
        {
          system: options.system,
          model: options.modelRef,
          messages: requestSnapshot(prepared.messages),
        },
        signal,
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
    const calls = toolCallsOf(streamed);
    if (calls.length === 0 && textOf(streamed) === "") {
      throw new RunStop("the model returned an empty response");
    }
    const message = await applyResponseHooks(streamed, hooks, signal);
    await session.append(message);
    messages.push(message);
    state.text = textOf(message);
    emitMessageEnd(options, message);
    if (calls.length === 0) return;

    const limitReached = options.maxTurns !== undefined && state.turns >= options.maxTurns;
    const outcomes: CallOutcome[] = limitReached
      ? skippedCalls(calls, "the tool was not executed: the run reached its --max-turns limit")
      : await runToolBatch(calls, {
        tools: toolMap,
        hooks,
        workdir: options.workdir,
        emit,
        signal,
      });
    const results = toResultMessage(outcomes);
    await session.append(results);
    messages.push(results);
    signal.throwIfAborted();
    if (limitReached) {
      throw new RunStop(`the run reached its --max-turns limit of ${options.maxTurns} turns`);
    }
    if (guard.observe(outcomes)) throw new RunStop(LOOP_GUARD_MESSAGE);
  }
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

async function runAfterRun(options: RunOptions, reason: EndReason): Promise<void> {
  const signal = options.signal.aborted ? AbortSignal.timeout(AFTER_RUN_GRACE_MS) : options.signal;
  try {
    await options.hooks.afterRun({ reason }, signal);
  } catch {
    // hooks.ts: runners report their own failures; nothing may escape a run.
  }
}
