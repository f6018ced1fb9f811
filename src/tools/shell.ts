/**
 * The built-in `shell` tool: `sh -c <command>` in its own process group
 * (docs/tools.md).
 *
 * Result text: stdout, then a `stderr:` line and stderr, then on failure
 * `command exited with code N` or `command timed out after 2s`; `(no output)`
 * when a successful command printed nothing. Escape sequences (colours) are
 * removed before the text is fitted, so they take none of it. It is kept under
 * {@link MAX_TOOL_RESULT_BYTES} by cutting stdout and stderr, so the final
 * status line always reaches the model.
 *
 * @module
 */

import { resolve } from "node:path";
import { stripEscapes } from "../base/escape_sequences.ts";
import { formatDuration } from "./format_duration.ts";
import { type ProcessGroupResult, runInProcessGroup } from "./process_group.ts";
import { errorResult, textResult, type Tool, type ToolResult } from "./tool.ts";
import { cutUtf8, MAX_TOOL_RESULT_BYTES, TRUNCATION_MARKER, utf8ByteLength } from "./truncate.ts";
import { errorMessage } from "../base/unknown.ts";
import type { CommandSandbox } from "../sandbox/command_sandbox.ts";

/** The timeout of a command that sets no `timeout_ms`. */
export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;

/** The longest `timeout_ms` a call may ask for. */
export const MAX_SHELL_TIMEOUT_MS = 1_800_000;

const DESCRIPTION = `Runs a shell command with \`sh -c\` and returns its output.

- The command starts in the workspace directory, or in \`workdir\` (a directory relative to the workspace).
- Each call is a fresh shell: \`cd\` and variables do not carry over to the next call.
- There is no terminal and no stdin: use non-interactive flags (\`-y\`, \`--no-pager\`, \`--yes\`).
- The result is stdout, then \`stderr:\` and stderr, then \`command exited with code N\` when the command failed.
- The command and every process it started are killed after \`timeout_ms\` (default ${DEFAULT_SHELL_TIMEOUT_MS} ms). Do not start servers or watchers in the foreground; run them in the background with their output redirected to a file.
- Output longer than ${
  MAX_TOOL_RESULT_BYTES / 1024
} KiB is cut: filter it (\`grep\`, \`head\`, \`tail\`) when you expect a lot.`;

const PARAMETERS = {
  type: "object",
  properties: {
    command: { type: "string", description: "The command line, run with `sh -c`." },
    workdir: {
      type: "string",
      description: "Directory to run in, relative to the workspace. Defaults to the workspace.",
    },
    "timeout_ms": {
      type: "integer",
      minimum: 1,
      maximum: MAX_SHELL_TIMEOUT_MS,
      description:
        `Kills the command after this many milliseconds. Default ${DEFAULT_SHELL_TIMEOUT_MS}, at most ${MAX_SHELL_TIMEOUT_MS}.`,
    },
  },
  required: ["command"],
  additionalProperties: false,
} as const;

/** Room kept for the status line, the sandbox's line and the separators. */
const STATUS_RESERVE_BYTES = 640;

interface ShellArgs {
  readonly command: string;
  readonly workdir: string | undefined;
  readonly timeoutMs: number;
}

/** Reads validated arguments; a wrong type here means the caller skipped validation. */
function readArgs(args: Record<string, unknown>): ShellArgs {
  const { command, workdir, "timeout_ms": timeoutMs } = args;
  if (typeof command !== "string") throw new Error(`shell: "command" must be a string`);
  if (workdir !== undefined && typeof workdir !== "string") {
    throw new Error(`shell: "workdir" must be a string`);
  }
  if (timeoutMs !== undefined && typeof timeoutMs !== "number") {
    throw new Error(`shell: "timeout_ms" must be an integer`);
  }
  return { command, workdir, timeoutMs: timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS };
}

/** The absolute directory to run in, or the message saying why `workdir` cannot be used. */
async function resolveWorkdir(
  workspace: string,
  workdir: string | undefined,
): Promise<{ dir: string } | { message: string }> {
  if (workdir === undefined || workdir === "") return { dir: workspace };
  const dir = resolve(workspace, workdir);
  try {
    if ((await Deno.stat(dir)).isDirectory) return { dir };
    return { message: `workdir "${workdir}" is not a directory (resolved to "${dir}")` };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { message: `workdir "${workdir}" does not exist (resolved to "${dir}")` };
    }
    const detail = errorMessage(error);
    return { message: `workdir "${workdir}" cannot be used: ${detail}` };
  }
}

/** `text` without one final line break. */
function chompNewline(text: string): string {
  if (text.endsWith("\r\n")) return text.slice(0, -2);
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/** `text` cut to `maxBytes` including the marker, when it is longer. */
function fitSection(text: string, maxBytes: number): string {
  if (utf8ByteLength(text) <= maxBytes) return text;
  const budget = Math.max(0, maxBytes - utf8ByteLength(TRUNCATION_MARKER));
  return cutUtf8(text, budget) + TRUNCATION_MARKER;
}

/** The status line of a failed run, or null when the command succeeded. */
function statusLine(result: ProcessGroupResult, timeoutMs: number): string | null {
  if (result.timedOut) return `command timed out after ${formatDuration(timeoutMs)}`;
  if (result.aborted) return "command interrupted";
  if (result.signal !== null) return `command was killed by ${result.signal}`;
  if (result.code !== 0) return `command exited with code ${result.code}`;
  return null;
}

/** The text the model reads for a finished command; `note` (the sandbox's) comes last. */
function formatResult(
  result: ProcessGroupResult,
  timeoutMs: number,
  note: string | null = null,
): ToolResult {
  const status = statusLine(result, timeoutMs);
  const budget = MAX_TOOL_RESULT_BYTES - STATUS_RESERVE_BYTES;
  const fullStdout = chompNewline(stripEscapes(result.stdout));
  // stderr may take what stdout leaves, and at least half when both are long.
  const stderrBudget = Math.max(budget / 2, budget - utf8ByteLength(fullStdout));
  const stderr = fitSection(chompNewline(stripEscapes(result.stderr)), stderrBudget);
  const stdout = fitSection(fullStdout, budget - utf8ByteLength(stderr));
  const sections: string[] = [];
  if (stdout !== "") sections.push(stdout);
  if (stderr !== "") sections.push(`stderr:\n${stderr}`);
  if (status !== null) {
    return errorResult([...sections, status, ...(note === null ? [] : [note])].join("\n"));
  }
  return textResult(sections.length === 0 ? "(no output)" : sections.join("\n"));
}

/**
 * The built-in `shell` tool; with a `sandbox`, every command runs confined by
 * it, or not at all when it cannot start (docs/sandbox.md).
 */
export function createShellTool(sandbox: CommandSandbox | null = null): Tool {
  return {
    name: "shell",
    description: DESCRIPTION,
    parameters: PARAMETERS,
    async execute(args, context) {
      const { command, workdir, timeoutMs } = readArgs(args);
      const where = await resolveWorkdir(context.workdir, workdir);
      if ("message" in where) return errorResult(where.message);
      const confined = sandbox === null ? null : await sandbox.confine(command);
      if (confined !== null && "refused" in confined) {
        return errorResult(`the command was not run: ${confined.refused}`);
      }
      try {
        const result = await runInProcessGroup({
          command: confined?.command ?? command,
          cwd: where.dir,
          timeoutMs,
          signal: context.signal,
          onStdout: context.output,
          onStderr: context.output,
          ...(confined === null ? {} : { env: confined.env }),
        });
        const note = sandbox === null || result.code === 0 || result.code === -1
          ? null
          : sandbox.explain(`${result.stdout}\n${result.stderr}`);
        return formatResult(result, timeoutMs, note);
      } finally {
        await confined?.release();
      }
    },
  };
}
