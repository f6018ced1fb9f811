/**
 * One real run that makes a batch of tool calls: the fake provider asks for
 * the calls in one turn, then answers `done`; the results come from the
 * run's `--output stream-json` events (what the model read, and whether it
 * was an error result).
 *
 * ```ts
 * import { createTestEnv } from "./env.ts";
 * import { runToolCalls } from "./tool_run.ts";
 *
 * await using env = await createTestEnv();
 * await env.writeFile("a.txt", "hello\n");
 * const [result] = await runToolCalls(env, [{ name: "read", arguments: { path: "a.txt" } }]);
 * ```
 *
 * @module
 */

import type { TestEnv } from "./env.ts";
import { type ScriptedToolCall, startFakeProvider } from "./fake_provider.ts";
import { parseJsonLines } from "./json.ts";
import { defaultConfig } from "./env.ts";

/** The result of one call as the model read it. */
export interface ToolRunResult {
  readonly name: string;
  readonly text: string;
  readonly isError: boolean;
}

/** Options of {@link runToolCalls}. */
export interface ToolRunOptions {
  /** The agent that runs (it must list the tools). @default "files" */
  readonly agent?: string;
  /** Extra `rienda run` flags, e.g. `-y`. */
  readonly flags?: readonly string[];
  /** Extra environment variables of the run. */
  readonly env?: Readonly<Record<string, string>>;
}

/** The tools of the agent `files` that {@link runToolCalls} writes. */
export const FILE_TOOLS = ["read", "write", "edit", "grep", "find", "ls"] as const;

/**
 * Runs `calls` in one turn of a real run (an agent `files` with every file
 * tool is written unless another agent is named) and returns their results
 * in call order. Fails when the run does not end with exit 0.
 */
export async function runToolCalls(
  env: TestEnv,
  calls: readonly ScriptedToolCall[],
  options: ToolRunOptions = {},
): Promise<ToolRunResult[]> {
  await using provider = await startFakeProvider([{ toolCalls: calls }, { text: "done" }]);
  await env.writeConfig(defaultConfig(provider.url));
  const agent = options.agent ?? "files";
  if (options.agent === undefined) {
    await env.writeAgent("files", { description: "Uses the file tools.", tools: FILE_TOOLS });
  }
  const result = await env.run([
    "run",
    "-a",
    agent,
    "--output",
    "stream-json",
    ...(options.flags ?? []),
    "go",
  ], options.env === undefined ? {} : { env: options.env });
  if (result.code !== 0) throw new Error(`the run failed (${result.code}): ${result.stderr}`);
  return parseJsonLines(result.stdout, "stdout")
    .filter((event) => event.type === "tool_result")
    .map((event) => ({
      name: String(event.name),
      text: String(event.text),
      isError: event.isError === true,
    }));
}
