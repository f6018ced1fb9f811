/**
 * The JSON a Claude Code command hook reads on its standard input, built
 * from a rienda hook point (docs/extending.md, "Claude Code hooks").
 *
 * ```json
 * {"session_id":"01kb…","transcript_path":"","cwd":"/work/app",
 *  "permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash",
 *  "tool_input":{"command":"grep -r TODO ."},"tool_use_id":"call_1"}
 * ```
 *
 * - Tools are under Claude Code's names and fields (`claude_tools.ts`).
 * - `tool_response` (PostToolUse) is `{ output, success }`, plus `stdout`,
 *   `stderr` and `interrupted` for `Bash` and the absolute `filePath` for
 *   `Write` and `Edit`: rienda's result is one text.
 * - `SessionStart` says `source: "startup"`, `SessionEnd` `reason: "other"`,
 *   `Stop` `stop_hook_active: false`: every rienda run starts afresh.
 * - `transcript_path` is "": rienda's session files are not Claude Code
 *   transcripts, and a script reading one as such would misread it.
 *
 * @module
 */

import { resolve } from "node:path";
import type { ClaudeEvent } from "../config/hook_entries.ts";
import { claudeToolName, toClaudeInput } from "./claude_tools.ts";

/** The run a Claude Code hook serves. */
export interface ClaudeRun {
  readonly sessionId: string;
  readonly workdir: string;
  /** Claude Code's transcript: always "" in rienda (see the module doc). */
  readonly transcriptPath: string;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `tool_response` of a call of `tool` that returned `result`. */
function toolResponse(tool: string, args: unknown, result: unknown, workdir: string) {
  const text = isObject(result) && typeof result.text === "string" ? result.text : "";
  const success = !(isObject(result) && result.isError === true);
  const path = isObject(args) && typeof args.path === "string" ? args.path : undefined;
  return {
    output: text,
    success,
    ...(tool === "shell" ? { stdout: text, stderr: "", interrupted: false } : {}),
    ...((tool === "write" || tool === "edit") && path !== undefined
      ? { filePath: resolve(workdir, path) }
      : {}),
  };
}

/** The fields of `event` beyond the common ones, from the point's arguments. */
function eventFields(
  event: ClaudeEvent,
  args: readonly unknown[],
  workdir: string,
): Record<string, unknown> {
  const [first, second] = args;
  switch (event) {
    case "PreToolUse":
    case "PostToolUse": {
      const call = isObject(first) ? first : {};
      const name = typeof call.name === "string" ? call.name : "";
      return {
        "tool_name": claudeToolName(name),
        "tool_input": toClaudeInput(name, call.arguments, workdir),
        "tool_use_id": typeof call.id === "string" ? call.id : "",
        ...(event === "PostToolUse"
          ? { "tool_response": toolResponse(name, call.arguments, second, workdir) }
          : {}),
      };
    }
    case "UserPromptSubmit":
      return { prompt: isObject(first) && typeof first.text === "string" ? first.text : "" };
    case "SessionStart":
      return { source: "startup" };
    case "Stop":
      return { "stop_hook_active": false };
    case "SessionEnd":
      return { reason: "other" };
    default: {
      const never: never = event;
      throw new Error(`unexpected event ${String(never)}`);
    }
  }
}

/** The standard input of a Claude Code hook for `event`, given the point's `args`. */
export function claudeStdin(event: ClaudeEvent, args: readonly unknown[], run: ClaudeRun): string {
  return JSON.stringify({
    "session_id": run.sessionId,
    "transcript_path": run.transcriptPath,
    cwd: run.workdir,
    "permission_mode": "default",
    "hook_event_name": event,
    ...eventFields(event, args, run.workdir),
  });
}
