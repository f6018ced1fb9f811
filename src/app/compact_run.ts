/**
 * A person's `/compact`: the older part of a prepared run's conversation is
 * summarised now, whatever its size, as automatic compaction would do it
 * (docs/sessions.md, "Compaction"), without a prompt or a model turn.
 *
 * @module
 */

import { createRunContext } from "../engine/compaction.ts";
import type { EventSink } from "../engine/events.ts";
import type { RunOptions } from "../engine/run.ts";
import { EMPTY_USAGE, type Usage } from "../llm/messages.ts";

/** What a compaction did: `note` says why nothing was compacted. */
export interface CompactResult {
  readonly usage: Usage;
  readonly note?: string;
}

/**
 * Compacts the conversation `run` continues.
 *
 * @throws {Error} `compaction failed: …` when the summary cannot be made or stored
 */
export async function compactRun(
  run: Omit<RunOptions, "emit" | "signal">,
  emit: EventSink,
  signal: AbortSignal,
): Promise<CompactResult> {
  const { compactor } = run;
  if (compactor === undefined) {
    return {
      usage: EMPTY_USAGE,
      note: "compaction is disabled (compaction.enabled in config.yaml)",
    };
  }
  const context = createRunContext({
    history: run.history,
    summary: run.summary ?? null,
    compactor,
    model: run.model,
    emit,
    signal,
  });
  const tools = run.tools.map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  const { compacted, usage } = await context.compactNow(run.system, tools);
  return compacted ? { usage: usage ?? EMPTY_USAGE } : {
    usage: usage ?? EMPTY_USAGE,
    note: "the conversation is shorter than compaction.keep_recent_tokens keeps whole",
  };
}
