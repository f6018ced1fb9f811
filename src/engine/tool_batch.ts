/**
 * One turn's tool calls, run one after another in the model's order:
 * `beforeToolExecute` chain → argument validation → tool → `afterToolExecute`
 * chain. Every call gets exactly one result, so the stored history stays
 * valid for every provider even after an interrupt.
 *
 * @module
 */

import type { ToolCallBlock, ToolResultBlock, UserMessage } from "../llm/messages.ts";
import { validateToolArguments } from "../tools/arguments.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { errorResult } from "../tools/tool.ts";
import { capToolResult } from "../tools/truncate.ts";
import type { EventSink } from "./events.ts";
import type { HookRunner, ToolCallPayload } from "./hooks.ts";
import { errorMessage } from "../unknown.ts";

/** Result text of a call the interrupt stopped before it started. */
export const INTERRUPTED_BEFORE = "the run was interrupted before the tool ran";
/** Result text of a call the interrupt stopped while it ran. */
export const INTERRUPTED_WHILE = "the run was interrupted while the tool ran";

/** What a batch needs from the run. */
export interface ToolBatchOptions {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly hooks: HookRunner;
  readonly workdir: string;
  readonly emit: EventSink;
  readonly signal: AbortSignal;
}

/** One call with the result the model will read. */
export interface CallOutcome {
  readonly call: ToolCallBlock;
  readonly result: ToolResult;
}

/** Runs every call of a turn and returns the outcomes in call order. */
export async function runToolBatch(
  calls: readonly ToolCallBlock[],
  options: ToolBatchOptions,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  for (const call of calls) {
    const payload: ToolCallPayload = {
      id: call.id,
      name: call.name,
      arguments: call.rawArguments ?? call.arguments,
    };
    options.emit({ type: "tool_call", ...payload });
    const result = capResult(await runOneCall(payload, options));
    options.emit({ type: "tool_result", id: call.id, name: call.name, ...result });
    outcomes.push({ call, result });
  }
  return outcomes;
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

async function runOneCall(call: ToolCallPayload, options: ToolBatchOptions): Promise<ToolResult> {
  const { hooks, signal } = options;
  if (signal.aborted) return errorResult(INTERRUPTED_BEFORE);
  const gate = await hooks.beforeToolExecute(call, signal);
  if (signal.aborted) return errorResult(INTERRUPTED_BEFORE);
  const result = gate.allow
    ? await executeTool({ ...call, arguments: gate.arguments }, options)
    : errorResult(gate.reason);
  if (signal.aborted) return result;
  return await hooks.afterToolExecute(call, result, signal);
}

async function executeTool(call: ToolCallPayload, options: ToolBatchOptions): Promise<ToolResult> {
  const tool = options.tools.get(call.name);
  if (tool === undefined) {
    const available = [...options.tools.keys()].join(", ") || "none";
    return errorResult(`unknown tool "${call.name}" (available: ${available})`);
  }
  const validated = await validateToolArguments(tool, call.arguments);
  if (!validated.ok) return errorResult(validated.message);
  try {
    const result = await tool.execute(validated.args, {
      callId: call.id,
      workdir: options.workdir,
      signal: options.signal,
      output: (text) => options.emit({ type: "tool_output", id: call.id, text }),
    });
    return options.signal.aborted ? errorResult(INTERRUPTED_WHILE) : result;
  } catch (error) {
    if (options.signal.aborted) return errorResult(INTERRUPTED_WHILE);
    return errorResult(errorMessage(error));
  }
}

function capResult(result: ToolResult): ToolResult {
  return { text: capToolResult(result.text), isError: result.isError };
}
