/**
 * `--output json`: one JSON object on stdout when the run ends, whatever the
 * reason (docs/cli.md, "Output, json").
 *
 * @module
 */

import type { RunEvent } from "../engine/events.ts";
import { addUsage, type Usage } from "../llm/messages.ts";
import type { TextSink } from "./io.ts";
import type { Renderer } from "./text.ts";

/** What the json object says of one hook: its calls, their time, and how they came out. */
interface HookTotals {
  calls: number;
  durationMs: number;
  outcomes: Partial<Record<Extract<RunEvent, { type: "hook" }>["outcome"], number>>;
}

/**
 * Creates the json renderer; `now` (milliseconds) times the run, from its
 * `run_start` to its `run_end`, for `durationMs`.
 */
export function createJsonRenderer(stdout: TextSink, now: () => number = Date.now): Renderer {
  let start: Extract<RunEvent, { type: "run_start" }> | undefined;
  let startedAt = now();
  let subagents = 0;
  let childUsage: Usage | undefined;
  const hooks: Record<string, HookTotals> = {};
  return {
    sink(event) {
      // A subagent's run: its usage counts, its other events do not show.
      if (event.parent !== undefined) {
        if (event.type === "run_end") {
          subagents++;
          childUsage = childUsage === undefined ? event.usage : addUsage(childUsage, event.usage);
        }
        return;
      }
      if (event.type === "hook") {
        const totals = hooks[event.hook] ??= { calls: 0, durationMs: 0, outcomes: {} };
        totals.calls++;
        totals.durationMs += event.durationMs;
        totals.outcomes[event.outcome] = (totals.outcomes[event.outcome] ?? 0) + 1;
        return;
      }
      if (event.type === "run_start") {
        start = event;
        startedAt = now();
      }
      if (event.type !== "run_end") return;
      const result = {
        sessionId: start?.sessionId ?? null,
        agent: start?.agent ?? null,
        model: start?.model ?? null,
        reason: event.reason,
        text: event.text,
        usage: childUsage === undefined ? event.usage : addUsage(event.usage, childUsage),
        turns: event.turns,
        ...(subagents === 0 ? {} : { subagents }),
        ...(Object.keys(hooks).length === 0 ? {} : { hooks }),
        durationMs: Math.max(0, Math.round(now() - startedAt)),
        ...(event.error === undefined ? {} : { error: event.error }),
        ...(event.stop === undefined ? {} : { stop: event.stop }),
      };
      stdout.write(`${JSON.stringify(result)}\n`);
    },
    finish() {},
  };
}
