/**
 * A `claude:` entry as a {@link RunnableHook}: a Claude Code command hook
 * run as Claude Code runs it (docs/extending.md, "Claude Code hooks").
 *
 * - The command is a shell string for `sh -c`, run in the workspace with
 *   `CLAUDE_PROJECT_DIR` set to it, in the run's sandbox as a command hook
 *   is (`hook_process.ts` owns the process).
 * - Events run at points: `PreToolUse` → `beforeToolExecute`,
 *   `PostToolUse` → `afterToolExecute`, `UserPromptSubmit` →
 *   `beforePrompt`, `SessionStart` → `beforeRun`, `Stop` and `SessionEnd` →
 *   `afterRun`. A `SessionStart` hook also answers `beforeModelRequest`:
 *   the context it gave is added to the system prompt of the run's requests.
 * - The matcher is matched against the tool's Claude Code name
 *   (`claude_tools.ts`).
 * - What it said (`claude_answer.ts`) becomes the point's fields: a block
 *   refuses the call or the message, or is added after the result
 *   (PostToolUse) or shown (other events); `ask` asks the person as
 *   `ctx.confirm` does; `updatedInput` becomes the call's arguments;
 *   context joins the message, the result or the system prompt;
 *   `continue: false` asks for the run to end (`stop`), with its
 *   `stopReason`, before anything else it said.
 *
 * @module
 */

import { type ClaudeEvent, type ClaudeHookEntry, toolMatcher } from "../config/hook_entries.ts";
import type { HookPoint } from "../engine/hooks.ts";
import { type ClaudeSaid, MAX_HOOK_TEXT_CHARS, readClaudeResult } from "./claude_answer.ts";
import { claudeStdin } from "./claude_input.ts";
import { claudeToolName, fromClaudeInput } from "./claude_tools.ts";
import { runHookProcess } from "./hook_process.ts";
import { projectFileOfShell, untrustedRefusal } from "./project_files.ts";
import type { HookAnswer, RunnableHook } from "./runnable_hook.ts";
import type { CommandSandbox } from "../sandbox/command_sandbox.ts";

/** The run a Claude Code hook serves, and how it reaches the person. */
export interface ClaudeHookContext {
  readonly workdir: string;
  readonly sessionId: string;
  /** Asks the person, as `ctx.confirm` does (false without a person and without `-y`). */
  confirm(
    question: { readonly title: string; readonly body: string },
    signal: AbortSignal,
  ): Promise<boolean>;
  /** Shows a line to the person. */
  notice(text: string): void;
  /** The run's command sandbox, as for command hooks (docs/sandbox.md); absent with `sandbox: off`. */
  readonly sandbox?: CommandSandbox | undefined;
  /** The root of the workspace's project when it is not trusted, as for command hooks. */
  readonly untrustedProject?: string | undefined;
}

/** The reason of a `continue: false` without a `stopReason`. */
const NO_STOP_REASON = "continue: false (no stopReason)";

/** The point each event runs at. */
export const CLAUDE_EVENT_POINTS: Readonly<Record<ClaudeEvent, HookPoint>> = {
  PreToolUse: "beforeToolExecute",
  PostToolUse: "afterToolExecute",
  UserPromptSubmit: "beforePrompt",
  SessionStart: "beforeRun",
  Stop: "afterRun",
  SessionEnd: "afterRun",
};

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const answered = (value: Readonly<Record<string, unknown>> | null): HookAnswer => ({
  kind: "answered",
  value,
});

/** The text added after a result, a system prompt or a message: the parts, by blank lines. */
function joined(...parts: readonly (string | undefined)[]): string {
  return parts.filter((part) => part !== undefined && part !== "").join("\n\n");
}

/** The Claude Code hook of `entry`, run for `context`. */
export function createClaudeHook(entry: ClaudeHookEntry, context: ClaudeHookContext): RunnableHook {
  const label = entry.command;
  const matches = toolMatcher(entry);
  const point = CLAUDE_EVENT_POINTS[entry.event];
  /** What `SessionStart` added, for the system prompt of every request of the run. */
  let sessionContext = "";

  /** What `said` makes of the point's payload `args`. */
  async function fields(
    said: ClaudeSaid,
    args: readonly unknown[],
    signal: AbortSignal,
  ): Promise<HookAnswer> {
    if (said.cut === true) {
      context.notice(`hook "${label}": its output was cut at ${MAX_HOOK_TEXT_CHARS} characters`);
    }
    if (said.message !== undefined) context.notice(`hook "${label}": ${said.message}`);
    // `continue: false` stops everything, whatever else it said (at Stop and SessionEnd: a notice).
    if (said.stop !== undefined) return { kind: "stop", reason: said.stop || NO_STOP_REASON };
    const [first, second] = args;
    switch (point) {
      case "beforeToolExecute": {
        const call = isObject(first) ? first : {};
        if (said.block !== undefined) return answered({ allow: false, reason: said.block });
        if (said.permission?.decision === "ask") {
          const name = typeof call.name === "string" ? call.name : "";
          const approved = await context.confirm({
            title: `${entry.event} hook: ${claudeToolName(name)}`,
            body: said.permission.reason === "" ? label : said.permission.reason,
          }, signal);
          if (!approved) return answered({ allow: false, reason: "not approved" });
        }
        if (said.updatedInput === undefined) return answered(null);
        const name = typeof call.name === "string" ? call.name : "";
        return answered({
          arguments: fromClaudeInput(name, call.arguments, said.updatedInput, context.workdir),
        });
      }
      case "afterToolExecute": {
        const added = joined(said.block, said.context);
        if (added === "") return answered(null);
        const text = isObject(second) && typeof second.text === "string" ? second.text : "";
        return answered({ text: joined(text, added) });
      }
      case "beforePrompt": {
        if (said.block !== undefined) return answered({ allow: false, reason: said.block });
        return answered(said.context === undefined ? null : { context: said.context });
      }
      case "beforeRun":
        // Each run starts afresh: a conversation keeps this hook between its turns.
        sessionContext = said.context ?? "";
        if (said.block !== undefined && said.block !== "") {
          context.notice(`hook "${label}": ${said.block}`);
        }
        return answered(null);
      default:
        // afterRun: Stop and SessionEnd have nothing left to refuse.
        if (said.block !== undefined && said.block !== "") {
          context.notice(`hook "${label}": ${said.block}`);
        }
        return answered(null);
    }
  }

  return {
    label,
    points: entry.event === "SessionStart" ? [point, "beforeModelRequest"] : [point],
    failClosed: entry.failClosed ?? false,
    matches: (tool) => matches(claudeToolName(tool)),
    async call(at, args, options) {
      if (at === "beforeModelRequest") {
        const [request] = args;
        const system = isObject(request) && typeof request.system === "string"
          ? request.system
          : "";
        return answered(sessionContext === "" ? null : { system: joined(system, sessionContext) });
      }
      const refused = await untrustedRefusal(
        context.untrustedProject,
        () => projectFileOfShell(entry.command, context.workdir),
      );
      if (refused !== null) return refused;
      const result = await runHookProcess({
        command: { shell: entry.command },
        stdin: claudeStdin(entry.event, args, {
          sessionId: context.sessionId,
          workdir: context.workdir,
          transcriptPath: "",
        }),
        cwd: context.workdir,
        env: { "CLAUDE_PROJECT_DIR": context.workdir },
        timeoutMs: entry.timeoutMs,
        signal: options.signal,
        sandbox: context.sandbox,
      });
      const answer = readClaudeResult(entry.event, result, entry.timeoutMs);
      return answer.kind === "said" ? await fields(answer.said, args, options.signal) : answer;
    },
  };
}
