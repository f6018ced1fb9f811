/**
 * A loaded JavaScript tool as a {@link Tool}: every call runs `execute(ctx,
 * args)` in a fresh context, streams `ctx.log` and exec output to the call's
 * output, and types the return exactly as the reference says (a string, or
 * `{ text, isError? }`; anything else, or a throw, is an error result).
 * When its exports came from the exports cache, its first call compares
 * them with the module first, and a mismatch refuses every call of the run.
 *
 * @module
 */

import { errorResult, textResult, type Tool, type ToolResult } from "../tools/tool.ts";
import { describeGuestValue, formatGuestError, type GuestResult } from "./guest_result.ts";
import { grantOf } from "./capabilities.ts";
import type { ExtensionHost } from "./host.ts";
import { exportsMismatch, type LoadedTool } from "./load_module.ts";
import type { ExtensionRunContext } from "./run_context.ts";

const EXPECTED_RETURN = "return a string or { text: string, isError?: boolean }";

/** Why a stopped tool stopped, as the model reads it. */
function stoppedText(result: Extract<GuestResult, { kind: "stopped" }>): string {
  switch (result.reason) {
    case "interrupted":
      return "the tool was interrupted";
    case "timeout":
    case "memory":
      return `the tool ${result.message}`;
    case "crashed":
      return `the tool stopped: ${result.message}`;
    default: {
      const never: never = result.reason;
      throw new Error(`unexpected stop ${String(never)}`);
    }
  }
}

/** Maps what `execute` produced to the result the model reads. */
export function toToolResult(result: GuestResult): ToolResult {
  switch (result.kind) {
    case "threw":
      return errorResult(formatGuestError(result.error));
    case "stopped":
      return errorResult(stoppedText(result));
    case "value": {
      const { value } = result;
      if (value.kind === "json") {
        const returned = value.value;
        if (typeof returned === "string") return textResult(returned);
        if (typeof returned === "object" && returned !== null && !Array.isArray(returned)) {
          const text: unknown = Reflect.get(returned, "text");
          const isError: unknown = Reflect.get(returned, "isError");
          if (typeof text === "string" && (isError === undefined || typeof isError === "boolean")) {
            return { text, isError: isError === true };
          }
          const problem = typeof text !== "string"
            ? "an object without a text string"
            : "an object whose isError is not a boolean";
          return errorResult(`execute returned ${problem}: ${EXPECTED_RETURN}`);
        }
      }
      return errorResult(`execute returned ${describeGuestValue(value)}: ${EXPECTED_RETURN}`);
    }
    default: {
      const never: never = result;
      throw new Error(`unexpected result ${JSON.stringify(never)}`);
    }
  }
}

/** What {@link createUserTool} needs besides the tool. */
export interface UserToolOptions {
  readonly host: ExtensionHost;
  readonly context: ExtensionRunContext;
}

/** A loaded user tool as a {@link Tool}. */
export function createUserTool(tool: LoadedTool, options: UserToolOptions): Tool {
  const { host, context } = options;
  const grant = grantOf(tool, context.policy);
  /** The check of cached exports against the module, made before the first call. */
  let checked: Promise<string | "interrupted" | null> | null = tool.cachedIn === undefined
    ? Promise.resolve(null)
    : null;
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    async execute(args, call) {
      checked ??= exportsMismatch(host, tool, call.signal);
      const mismatch = await checked;
      if (mismatch === "interrupted") {
        checked = null; // not checked yet: the next call checks again
        return errorResult("the tool was interrupted");
      }
      if (mismatch !== null) return errorResult(mismatch);
      const result = await host.call({
        source: tool.source,
        entry: "execute",
        args: [args],
        context,
        grant,
        output: call.output,
        signal: call.signal,
      });
      return toToolResult(result);
    },
  };
}
