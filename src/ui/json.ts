/**
 * `--output json`: one JSON object on stdout when the run ends, whatever the
 * reason (docs/cli.md, "Output, json").
 *
 * @module
 */

import type { RunEvent } from "../engine/events.ts";
import type { TextSink } from "./io.ts";
import type { Renderer } from "./text.ts";

/** Creates the json renderer. */
export function createJsonRenderer(stdout: TextSink): Renderer {
  let start: Extract<RunEvent, { type: "run_start" }> | undefined;
  return {
    sink(event) {
      if (event.type === "run_start") start = event;
      if (event.type !== "run_end") return;
      const result = {
        sessionId: start?.sessionId ?? null,
        agent: start?.agent ?? null,
        model: start?.model ?? null,
        reason: event.reason,
        text: event.text,
        usage: event.usage,
        turns: event.turns,
        ...(event.error === undefined ? {} : { error: event.error }),
      };
      stdout.write(`${JSON.stringify(result)}\n`);
    },
    finish() {},
  };
}
