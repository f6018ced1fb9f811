/**
 * What the chat shows of subagents (docs/subagents.md): the block of an
 * `agent` call is the child's live block. Each event a child (or a child of
 * it) emits is traced back to the main run's `agent` call it serves, and
 * becomes a change of that block: the agent and when it started, the tool
 * it runs now, and one activity line per start, tool call, failed call,
 * notice and end, shown while it runs and when the block is expanded.
 *
 * @module
 */

import type { RunEvent } from "../../engine/events.ts";
import { argumentsLine, type SubagentView, type ToolView } from "./blocks.ts";

/** What one child event changes in the block of the main run's call `callId`. */
export interface SubagentChange {
  readonly callId: string;
  /** The child's state (set once the direct child started). */
  readonly view?: SubagentView;
  /** One more activity line. */
  readonly line?: string;
}

/** Traces child events to the main run's `agent` calls. */
export interface SubagentActivity {
  /** The change `event` (which has a `parent`) makes, or null when it shows nothing. */
  apply(event: RunEvent, now: number): SubagentChange | null;
}

/** Creates the tracker for one chat. */
export function createSubagentActivity(): SubagentActivity {
  /** For a call made inside a child: the main run's call it serves. */
  const root = new Map<string, string>();
  /** The agent answering each call, once its child started. */
  const agents = new Map<string, string>();
  const views = new Map<string, SubagentView>();
  return {
    apply(event, now) {
      const parent = event.parent;
      if (parent === undefined) return null;
      const callId = root.get(parent) ?? parent;
      const agent = agents.get(parent) ?? "agent";
      const view = views.get(callId);
      const change = (line: string, next?: SubagentView): SubagentChange => {
        if (next !== undefined) views.set(callId, next);
        return { callId, line, ...(next === undefined ? {} : { view: next }) };
      };
      switch (event.type) {
        case "run_start": {
          agents.set(parent, event.agent);
          const started = view ?? { agent: event.agent, startedAt: now, current: null };
          return change(`${event.agent} started (session ${event.sessionId})`, started);
        }
        case "tool_call": {
          root.set(event.id, callId);
          const doing = `${agent}: ${event.name} ${argumentsLine(event.arguments)}`.trimEnd();
          return change(doing, view === undefined ? undefined : { ...view, current: doing });
        }
        case "tool_result": {
          const cleared = view === undefined ? undefined : { ...view, current: null };
          if (!event.isError) return cleared === undefined ? null : { callId, view: cleared };
          const last = event.text.trimEnd().split("\n").at(-1) ?? "";
          return change(`${agent}: ${event.name} failed: ${last}`, cleared);
        }
        case "notice":
          return change(`${agent}: ${event.text}`);
        case "run_end":
          return change(
            event.reason === "end_turn"
              ? `${agent} done`
              : event.reason === "interrupted"
              ? `${agent} interrupted`
              : event.reason === "hook_stop"
              ? `${agent} stopped by hook "${event.stop?.hook ?? ""}"`
              : `${agent} failed: ${event.error ?? ""}`,
          );
        default:
          return null;
      }
    },
  };
}

/** `view` (an `agent` call's block) with `change` applied: its child's state, one more line. */
export function withSubagentChange(view: ToolView, change: SubagentChange): ToolView {
  return {
    ...view,
    output: change.line === undefined ? view.output : `${view.output}${change.line}\n`,
    ...(change.view === undefined ? {} : { subagent: change.view }),
  };
}
