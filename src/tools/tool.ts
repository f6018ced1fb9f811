/**
 * The tool contract shared by built-in tools and user JavaScript tools.
 *
 * - A tool separates "could not run" (it throws) from "ran and failed"
 *   (`isError: true`); the engine turns a throw into an error result.
 * - Live output goes to the call's `output` sink while the tool runs; the
 *   returned text is what the model reads.
 * - A run calls tools as {@link CallableTool}s: `app/checked_tool.ts` wraps
 *   each one with argument validation and the output cap, so the engine
 *   never sees unchecked arguments nor uncapped text.
 *
 * @module
 */

/** The result the model reads. */
export interface ToolResult {
  readonly text: string;
  readonly isError: boolean;
}

/** Everything one invocation needs from the run. */
export interface ToolCallContext {
  /** The id the model gave this call. */
  readonly callId: string;
  /** Absolute workspace directory. */
  readonly workdir: string;
  /** Aborted when the run is interrupted. */
  readonly signal: AbortSignal;
  /** Live output for the front end (not capped, never stored). */
  readonly output: (text: string) => void;
}

/** A capability the model can call. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema). */
  readonly parameters: Readonly<Record<string, unknown>>;
  /**
   * Calls of this tool next to each other in one turn run at the same time
   * (the `agent` tool); other calls run one after another.
   */
  readonly concurrent?: boolean;
  /** Runs one call with arguments already validated against `parameters`. */
  execute(args: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult>;
}

/** The outcome of checking a call's arguments: the arguments to run with, or why not. */
export type ArgumentsCheck =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  /** `message` is the result the model reads: `the tool was not executed: <why>`. */
  | { readonly ok: false; readonly message: string };

/**
 * A tool as a run calls it: `check` takes the arguments as the model (or a
 * hook) gave them, an object or raw text that was not one; `run` takes
 * checked arguments, never throws and returns text already capped.
 */
export interface CallableTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema), sent to the model. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** See {@link Tool.concurrent}. */
  readonly concurrent?: boolean;
  check(args: unknown): Promise<ArgumentsCheck>;
  run(args: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult>;
}

/** A successful result. */
export function textResult(text: string): ToolResult {
  return { text, isError: false };
}

/** A failed result. */
export function errorResult(text: string): ToolResult {
  return { text, isError: true };
}
