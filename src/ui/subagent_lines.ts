/**
 * What `rienda run` prints on stderr of subagents (docs/subagents.md): one
 * line when a child starts and one when it ends (agent, duration, outcome),
 * and its tool calls, notices and retries between them, each line indented
 * by the child's depth and headed by its agent, so children running at the
 * same time stay apart. A child's text and live tool output are not shown:
 * its answer is the `agent` call's result.
 *
 * @module
 */

import type { RunEvent } from "../engine/events.ts";
import type { Style } from "./terminal.ts";
import { terminalSafe } from "./terminal_text.ts";
import { resultSummary } from "./tool_lines.ts";

/** The longest argument JSON shown on a child's `tool:` line. */
const MAX_ARGUMENTS_SHOWN = 120;

/** `value[key]` when `value` is an object. */
function at(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

interface Child {
  readonly agent: string;
  readonly depth: number;
  readonly startedAt: number;
}

/**
 * A function from one event to the stderr lines it makes: none for the
 * main run's own events except noting which run made each call.
 */
export function createSubagentLines(
  style: Style,
  now: () => number = Date.now,
): (event: RunEvent) => string[] {
  /** The depth of the run that made each call (the main run: 0). */
  const callDepth = new Map<string, number>();
  /** The child answering each `agent` call. */
  const children = new Map<string, Child>();
  /** The agent each `agent` call asked for, until its child starts. */
  const waiting = new Map<string, Child>();
  return (event) => {
    const parent = event.parent;
    if (event.type === "tool_call") {
      const depth = parent === undefined ? 0 : (children.get(parent)?.depth ?? 1);
      callDepth.set(event.id, depth);
      const agent = at(event.arguments, "agent") ?? at(event.arguments, "subagent_type");
      // A child waiting for its turn speaks before it starts: under the agent it was asked for.
      if (event.name === "agent" && typeof agent === "string") {
        waiting.set(event.id, { agent, depth: depth + 1, startedAt: now() });
      }
    }
    if (parent === undefined) return [];
    if (event.type === "run_start") {
      const depth = (callDepth.get(parent) ?? 0) + 1;
      children.set(parent, { agent: event.agent, depth, startedAt: now() });
      waiting.delete(parent);
    }
    const child = children.get(parent) ?? waiting.get(parent);
    if (child === undefined) return [];
    const head = `${"  ".repeat(child.depth)}${style.dim(`[${terminalSafe(child.agent)}]`)} `;
    const shown = (text: string) => [`${head}${text}`];
    switch (event.type) {
      case "run_start":
        return shown(`started (session ${event.sessionId})`);
      case "tool_call": {
        const json = JSON.stringify(event.arguments) ?? "";
        const args = json.length <= MAX_ARGUMENTS_SHOWN
          ? json
          : `${json.slice(0, MAX_ARGUMENTS_SHOWN)}…`;
        return shown(`${style.cyan("tool:")} ${terminalSafe(`${event.name} ${args}`)}`);
      }
      case "tool_result": {
        if (event.isError) {
          const last = event.text.trimEnd().split("\n").at(-1) ?? "";
          return shown(style.red(`tool failed: ${terminalSafe(last)}`));
        }
        return shown(
          `${style.green("tool done:")} ${terminalSafe(resultSummary(event.name, event.text, ""))}`,
        );
      }
      case "notice":
        return shown(style.yellow(terminalSafe(event.text)));
      case "retry":
        return shown(style.yellow(`retrying: ${terminalSafe(event.error)}`));
      case "run_end": {
        children.delete(parent);
        const took = `${((now() - child.startedAt) / 1000).toFixed(1)}s`;
        switch (event.reason) {
          case "end_turn":
            return shown(style.green(`done in ${took}`));
          case "interrupted":
            return shown(style.yellow(`interrupted after ${took}`));
          case "error":
            return shown(style.red(`failed after ${took}: ${terminalSafe(event.error ?? "")}`));
          case "hook_stop":
            return shown(
              style.yellow(
                `stopped after ${took} by hook "${terminalSafe(event.stop?.hook ?? "")}"`,
              ),
            );
        }
        return [];
      }
      default:
        return [];
    }
  };
}
