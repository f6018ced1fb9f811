/**
 * One turn's tool calls, run one after another in the model's order (calls
 * of a `concurrent` tool next to each other at the same time, each still
 * through its own chains, which never overlap):
 * `beforeToolExecute` chain → argument check → tool (both given by the app,
 * which caps the text: `app/checked_tool.ts`) → `afterToolExecute` chain.
 * The `beforeToolExecute` hooks are handed the arguments the tool would run
 * with (checked, its schema's defaults filled in); the session, the events
 * and `afterToolExecute` keep the model's call as it made it. Every call
 * gets exactly one result, so the stored history stays valid for every
 * provider even after an interrupt.
 *
 * - A call refused for its arguments (`tool_calls.ts`) skips
 *   `beforeToolExecute`; `afterToolExecute` sees it with its error result.
 * - Just before a tool starts, the session records that it started
 *   (`SessionWriter.toolStarted`), so a crash while it runs is told apart
 *   from a crash before it ran.
 * - Every result is masked with the run's `redact` (the secrets it knows and
 *   key-shaped values) before `afterToolExecute`, the session and the model
 *   see it, and again when a hook rewrote it.
 * - An interrupt never lets a result skip a rewriting hook: a call whose
 *   `afterToolExecute` chain did not finish gets {@link INTERRUPTED_WHILE}
 *   (or {@link INTERRUPTED_BEFORE} when its tool never started).
 * - The result the model reads has no escape sequences and at most
 *   `MAX_TOOL_RESULT_BYTES` (then `[output truncated]`), whoever wrote it
 *   last (a tool, a hook's rewrite, a refusal naming a model-chosen tool or
 *   quoting a hook's megabytes).
 * - A hook that stops the run (`hook_stop.ts`) ends the batch cleanly: no
 *   call starts after it, not even one whose hooks were queued (each gets
 *   `the tool was not executed: hook "x" stopped the run`); a call whose
 *   tool already runs finishes, through its `afterToolExecute` hooks.
 *
 * @module
 */

import { stripEscapes } from "../base/escape_sequences.ts";
import type { ToolCallBlock, ToolResultBlock, UserMessage } from "../llm/messages.ts";
import { payloadProblem } from "../sandbox/payload_limits.ts";
import type { CallableTool, ToolResult } from "../tools/tool.ts";
import { errorResult } from "../tools/tool.ts";
import { capToolResult } from "../tools/truncate.ts";
import type { EventSink } from "./events.ts";
import type { Chained, ToolCallPayload } from "./hooks.ts";
import { type HookStop, hookStop, notRunAfterStop, stoppedAfter, stoppedBy } from "./hook_stop.ts";
import type { SessionWriter } from "./session_writer.ts";
import { NOT_EXECUTED } from "./tool_calls.ts";
import { serialHooks, type ToolHooks } from "./serial_hooks.ts";
import { errorMessage } from "../base/unknown.ts";

/** Result text of a call the interrupt stopped before it started. */
const INTERRUPTED_BEFORE = "the run was interrupted before the tool ran";
/** Result text of a call the interrupt stopped while it ran (or while its result was rewritten). */
const INTERRUPTED_WHILE = "the run was interrupted while the tool ran";

/** What a batch needs from the run. */
export interface ToolBatchOptions {
  readonly tools: ReadonlyMap<string, CallableTool>;
  readonly hooks: ToolHooks;
  readonly session: SessionWriter;
  readonly workdir: string;
  readonly emit: EventSink;
  readonly signal: AbortSignal;
  /** Masks the secrets the run knows (`RunOptions.redact`). */
  readonly redact: (text: string) => string;
}

/** The outcomes of a batch, in call order, and the stop a hook asked for (null: none). */
export interface BatchOutcome {
  readonly outcomes: CallOutcome[];
  readonly stop: HookStop | null;
}

/** A batch's options as its calls share them: the first stop a hook asked for. */
interface BatchRun extends ToolBatchOptions {
  readonly stopped: { stop: HookStop | null };
}

/** One call with the result the model will read. */
export interface CallOutcome {
  readonly call: ToolCallBlock;
  readonly result: ToolResult;
}

/**
 * Runs every call of a turn and returns the outcomes in call order;
 * `refusals` holds the results of calls that must not run (by id).
 *
 * @throws the session's error when it cannot record that a tool started
 */
export async function runToolBatch(
  calls: readonly ToolCallBlock[],
  refusals: ReadonlyMap<string, string>,
  batchOptions: ToolBatchOptions,
): Promise<BatchOutcome> {
  const stopped = { stop: null };
  const options: BatchRun = {
    ...batchOptions,
    stopped,
    hooks: stoppable(batchOptions.hooks, stopped, batchOptions.redact),
  };
  const outcomes: CallOutcome[] = [];
  const concurrent = (call: ToolCallBlock | undefined) =>
    call !== undefined && !refusals.has(call.id) &&
    options.tools.get(call.name)?.concurrent === true;
  for (let index = 0; index < calls.length;) {
    let end = index + 1;
    if (concurrent(calls[index])) { while (concurrent(calls[end])) end++; }
    const group = calls.slice(index, end);
    index = end;
    // Calls of a concurrent group run at the same time; their hook chains still run one at a time.
    const groupOptions = group.length === 1
      ? options
      : { ...options, hooks: serialHooks(options.hooks) };
    // Every call of the group settles before a failure (the session's) ends the batch.
    const settled = await Promise.allSettled(
      group.map((call) => runCall(call, refusals, groupOptions)),
    );
    for (const one of settled) {
      if (one.status === "rejected") throw one.reason;
      outcomes.push(one.value);
    }
  }
  return { outcomes, stop: stopped.stop };
}

/**
 * `hooks` keeping the first stop a chain asks for in `stopped`, as the chain
 * ends (before a queued chain starts); once stopped, a `beforeToolExecute`
 * chain does not run (the call is then not run).
 */
function stoppable(
  hooks: ToolHooks,
  stopped: BatchRun["stopped"],
  redact: (text: string) => string,
): ToolHooks {
  const keep = <T>(chained: Chained<T>, point: HookStop["point"], callId: string) => {
    if (chained.kind === "stopped") stopped.stop ??= hookStop(chained, point, redact, callId);
    return chained;
  };
  return {
    async beforeToolExecute(call, signal, complete) {
      const stop = stopped.stop;
      if (stop !== null) return { kind: "stopped", hook: stop.hook, reason: stop.reason };
      return keep(
        await hooks.beforeToolExecute(call, signal, complete),
        "beforeToolExecute",
        call.id,
      );
    },
    afterToolExecute: async (call, result, signal) =>
      keep(await hooks.afterToolExecute(call, result, signal), "afterToolExecute", call.id),
  };
}

async function runCall(
  call: ToolCallBlock,
  refusals: ReadonlyMap<string, string>,
  options: BatchRun,
): Promise<CallOutcome> {
  const payload: ToolCallPayload = {
    id: call.id,
    name: call.name,
    arguments: call.rawArguments ?? call.arguments,
  };
  options.emit({ type: "tool_call", ...payload });
  const done = await runOneCall(payload, refusals.get(call.id), options);
  const result = { ...done, text: capToolResult(stripEscapes(done.text)) };
  options.emit({ type: "tool_result", id: call.id, name: call.name, ...result });
  return { call, result };
}

/** Results that stand in for calls that were never run (e.g. `--max-turns`). */
export function skippedCalls(calls: readonly ToolCallBlock[], why: string): CallOutcome[] {
  return calls.map((call) => ({ call, result: errorResult(why) }));
}

/** The user message that carries a turn's results, one block per call. */
export function toResultMessage(outcomes: readonly CallOutcome[]): UserMessage {
  const blocks: ToolResultBlock[] = outcomes.map(({ call, result }) => ({
    type: "tool_result",
    callId: call.id,
    content: [{ type: "text", text: result.text }],
    isError: result.isError,
  }));
  return { role: "user", blocks };
}

/** `result` with its text masked by `redact` (the same object when nothing was masked). */
function redacted(result: ToolResult, redact: (text: string) => string): ToolResult {
  const text = redact(result.text);
  return text === result.text ? result : { text, isError: result.isError };
}

/** A call's result, and whether its tool started. */
interface Executed {
  readonly result: ToolResult;
  readonly started: boolean;
}

async function runOneCall(
  call: ToolCallPayload,
  refusal: string | undefined,
  options: BatchRun,
): Promise<ToolResult> {
  const { hooks, signal, stopped } = options;
  if (signal.aborted) return errorResult(INTERRUPTED_BEFORE);
  if (stopped.stop !== null) return errorResult(notRunAfterStop(stopped.stop));
  const executed = refusal === undefined
    ? await gateAndExecute(call, options)
    : { result: errorResult(refusal), started: false };
  // Masked before anyone sees it: the hooks, then the session and the model.
  const result = redacted(executed.result, options.redact);
  if (signal.aborted) {
    return executed.started ? errorResult(INTERRUPTED_WHILE) : result;
  }
  // After a stop, only a call whose tool ran goes on to its hooks.
  if (stopped.stop !== null && !executed.started) return result;
  const after = await hooks.afterToolExecute(call, result, signal);
  switch (after.kind) {
    case "done":
      // A hook's rewrite may bring a key of its own.
      return after.value.text === result.text ? after.value : redacted(after.value, options.redact);
    case "interrupted":
      return errorResult(executed.started ? INTERRUPTED_WHILE : INTERRUPTED_BEFORE);
    case "withheld":
      return errorResult(`the tool result was withheld: ${after.reason}`);
    case "stopped":
      return errorResult(stoppedAfter(hookStop(after, "afterToolExecute", options.redact)));
    default: {
      const never: never = after;
      throw new Error(`unexpected chain result ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The arguments `call`'s tool would run with: checked, its schema's defaults
 * filled in; as they are when the check fails (the call is then refused
 * after the hooks, unless one of them mends the arguments).
 */
function completer(call: ToolCallPayload, options: BatchRun) {
  const tool = options.tools.get(call.name);
  return async (args: unknown): Promise<unknown> => {
    if (tool === undefined || payloadProblem(args) !== null) return args;
    const checked = await tool.check(args);
    return checked.ok ? checked.args : args;
  };
}

async function gateAndExecute(call: ToolCallPayload, options: BatchRun): Promise<Executed> {
  const notRun = (text: string): Executed => ({ result: errorResult(text), started: false });
  // Guards decide on what would run (`deploy {}` is `deploy { target: "prod" }` by default).
  const gate = await options.hooks.beforeToolExecute(
    call,
    options.signal,
    completer(call, options),
  );
  if (options.signal.aborted) return notRun(INTERRUPTED_BEFORE);
  const { stop } = options.stopped;
  if (stop !== null) {
    return notRun(stop.callId === call.id ? stoppedBy(stop) : notRunAfterStop(stop));
  }
  switch (gate.kind) {
    case "stopped": // kept by `stoppable`: handled above
    case "interrupted":
      return notRun(INTERRUPTED_BEFORE);
    case "withheld":
      return notRun(`${NOT_EXECUTED}${gate.reason}`);
    case "done":
      if (!gate.value.allow) return notRun(gate.value.reason);
      return await executeTool({ ...call, arguments: gate.value.arguments }, options);
    default: {
      const never: never = gate;
      throw new Error(`unexpected chain result ${JSON.stringify(never)}`);
    }
  }
}

async function executeTool(call: ToolCallPayload, options: BatchRun): Promise<Executed> {
  const notRun = (text: string): Executed => ({ result: errorResult(text), started: false });
  const tool = options.tools.get(call.name);
  if (tool === undefined) {
    const available = [...options.tools.keys()].join(", ") || "none";
    return notRun(`unknown tool "${call.name}" (available: ${available})`);
  }
  // A hook may have rewritten the arguments: the tool gets nothing over the limits either.
  const problem = payloadProblem(call.arguments);
  if (problem !== null) return notRun(`${NOT_EXECUTED}arguments ${problem}`);
  const checked = await tool.check(call.arguments);
  if (!checked.ok) return notRun(checked.message);
  await options.session.toolStarted(call.id);
  if (options.signal.aborted) return notRun(INTERRUPTED_BEFORE);
  const { stop } = options.stopped;
  if (stop !== null) return notRun(notRunAfterStop(stop));
  let result: ToolResult;
  try {
    result = await tool.run(checked.args, {
      callId: call.id,
      workdir: options.workdir,
      signal: options.signal,
      // Live output is masked chunk by chunk (a key cut by a chunk boundary: `ui/io.ts` holds back).
      output: (text) =>
        options.emit({ type: "tool_output", id: call.id, text: options.redact(text) }),
    });
  } catch (error) {
    result = errorResult(errorMessage(error));
  }
  return {
    result: options.signal.aborted ? errorResult(INTERRUPTED_WHILE) : result,
    started: true,
  };
}
