/**
 * A tool as a run calls it ({@link CallableTool}): the arguments are checked
 * against the tool's `parameters` before it runs (`the tool was not executed:
 * <why>`), a throw becomes an error result, and the text loses its escape
 * sequences (colour codes), then is capped at `MAX_TOOL_RESULT_BYTES`
 * (docs/cli.md, Tools). `rienda run` and
 * `rienda tools test` call tools only through it.
 *
 * With the agent's `timeout_ms` for the tool (docs/extensions.md, "Policy"),
 * a call still running then is stopped through its signal, like an
 * interrupt, and its result is the error
 * `the tool did not finish within <n> ms (timeout_ms)`.
 *
 * @module
 */

import { stripEscapes } from "../base/escape_sequences.ts";
import { validateToolArguments } from "../tools/arguments.ts";
import { type CallableTool, errorResult, type Tool, type ToolResult } from "../tools/tool.ts";
import { capToolResult } from "../tools/truncate.ts";
import { errorMessage } from "../base/unknown.ts";

/** How a run calls one tool. */
export interface CheckedToolOptions {
  /** The agent's `timeout_ms` for the tool; none when absent. */
  readonly timeoutMs?: number | undefined;
}

/** `tool` with validation in front and the output cap (and the agent's timeout) behind. */
export function checkedTool(tool: Tool, options: CheckedToolOptions = {}): CallableTool {
  const { timeoutMs } = options;
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.concurrent === true ? { concurrent: true } : {}),
    check: (args) => validateToolArguments(tool, args),
    async run(args, context) {
      const timeout = new AbortController();
      const timer = timeoutMs === undefined
        ? undefined
        : setTimeout(() => timeout.abort(), timeoutMs);
      const signal = timer === undefined
        ? context.signal
        : AbortSignal.any([context.signal, timeout.signal]);
      let result: ToolResult;
      try {
        result = await tool.execute(args, { ...context, signal });
      } catch (error) {
        result = errorResult(errorMessage(error));
      } finally {
        clearTimeout(timer);
      }
      if (timeout.signal.aborted && !context.signal.aborted) {
        result = errorResult(`the tool did not finish within ${timeoutMs} ms (timeout_ms)`);
      }
      return { text: capToolResult(stripEscapes(result.text)), isError: result.isError };
    },
  };
}
