/**
 * A tool as a run calls it ({@link CallableTool}): the arguments are checked
 * against the tool's `parameters` before it runs (`the tool was not executed:
 * <why>`), a throw becomes an error result, and the text is capped at
 * `MAX_TOOL_RESULT_BYTES` (docs/cli.md, Tools). `rienda run` and
 * `rienda tools test` call tools only through it.
 *
 * @module
 */

import { validateToolArguments } from "../tools/arguments.ts";
import { type CallableTool, errorResult, type Tool, type ToolResult } from "../tools/tool.ts";
import { capToolResult } from "../tools/truncate.ts";
import { errorMessage } from "../unknown.ts";

/** `tool` with validation in front and the output cap behind. */
export function checkedTool(tool: Tool): CallableTool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    check: (args) => validateToolArguments(tool, args),
    async run(args, context) {
      let result: ToolResult;
      try {
        result = await tool.execute(args, context);
      } catch (error) {
        result = errorResult(errorMessage(error));
      }
      return { text: capToolResult(result.text), isError: result.isError };
    },
  };
}
