/**
 * Delegation (docs/subagents.md): the agents a run's `agent` tool may call,
 * and the child run behind a call.
 *
 * - The callable agents are those `rienda agents` lists for the workspace
 *   that a model may pick: the home's, the built-in `default` and a trusted
 *   project's (an untrusted project's files run only by an explicit `-a`),
 *   narrowed by the agent's `agents:`.
 * - A child is a run of its own agent file, prepared like any run (its
 *   prompt, tools, hooks, model or the parent's), with a fresh context
 *   holding only the prompt, in a session of its own linked to the parent's
 *   call; it runs under the parent call's signal, so an interrupt stops it.
 * - Its final answer is the result, naming its session; a child that cannot
 *   start, fails or is stopped is an error result with the reason.
 * - Delegation deeper than `max_depth` is an error result; at most
 *   `max_parallel` children of one run run at once, the others queue.
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import { type AgentSource, isTrusted } from "../agents/agent_sources.ts";
import { listRunnableAgents } from "../agents/catalog.ts";
import type { SubagentConfig } from "../config/config.ts";
import type { EventSink, RunEvent } from "../engine/events.ts";
import { runAgent, type RunOptions } from "../engine/run.ts";
import { stoppedBy } from "../engine/hook_stop.ts";
import type { CallableAgent, Delegation, DelegationRequest } from "../tools/agent.ts";
import { errorResult, textResult, type ToolResult } from "../tools/tool.ts";
import { errorMessage } from "../base/unknown.ts";
import pLimit from "p-limit";

/** The session and call a child run answers. */
export interface ParentLink {
  readonly sessionId: string;
  readonly callId: string;
  /** The child's depth: 1 for a child of the main agent. */
  readonly depth: number;
}

/** What a child run is prepared from. */
export interface ChildRequest {
  readonly agent: string;
  /** The child session's title. */
  readonly title: string;
  readonly parent: ParentLink;
  /** The child's events (and its notices), already tagged with the parent's call id. */
  readonly events: EventSink;
  readonly signal: AbortSignal;
}

/** A prepared child run (a `RunPlan` of `prepare_run.ts`). */
export interface ChildPlan extends AsyncDisposable {
  readonly options: Omit<RunOptions, "emit" | "signal">;
  recordFailure(error: string): Promise<void>;
}

/** What the delegation of one run is built from. */
export interface DelegationOptions {
  readonly agents: readonly CallableAgent[];
  /** The session of the delegating run. */
  readonly sessionId: string;
  /** Whether children keep session files (not with `--no-session`). */
  readonly keepsSessions: boolean;
  /** The depth of the delegating run: 0 for the main agent. */
  readonly depth: number;
  readonly limits: SubagentConfig;
  readonly prepare: (request: ChildRequest) => Promise<ChildPlan>;
  /** Where children's events go; absent: nowhere. */
  readonly events?: EventSink | undefined;
}

/**
 * The agents `agent` may delegate to for a run of `agent`: every agent a
 * model may pick (see the module doc) in id order, narrowed by `agents:`.
 * `diagnostics` names the ids of `agents:` that are not among them.
 */
export async function callableAgents(
  sources: readonly AgentSource[],
  agent: AgentDefinition,
): Promise<{ agents: CallableAgent[]; diagnostics: string[] }> {
  const listing = await listRunnableAgents(sources);
  const pickable = listing.agents.filter((candidate) => {
    const source = listing.origins.get(candidate.path)?.source;
    return source === undefined || isTrusted(source);
  });
  const narrowed = agent.agents === undefined
    ? pickable
    : pickable.filter((candidate) => agent.agents?.includes(candidate.id) === true);
  const missing = (agent.agents ?? []).filter((id) => !pickable.some((found) => found.id === id));
  return {
    agents: narrowed.map(({ id, description }) => ({ id, description })),
    diagnostics: missing.length === 0 ? [] : [
      `${agent.path}: agents: ${missing.join(", ")} ${
        missing.length === 1 ? "is" : "are"
      } not an agent this workspace can call (see rienda agents)`,
    ],
  };
}

/** The delegation behind a run's `agent` tool. */
export function createDelegation(options: DelegationOptions): Delegation {
  // At most max_parallel children of this run at once; the others wait their turn.
  const limit = pLimit(options.limits.maxParallel);
  return {
    agents: options.agents,
    run: (request, context) => {
      const { maxDepth } = options.limits;
      // Refused before it waits its turn: a place is never held for nothing.
      if (options.depth + 1 > maxDepth) {
        return Promise.resolve(errorResult(
          `the depth limit was reached: agents ${maxDepth} levels below the main agent cannot ` +
            "delegate further (subagents.max_depth in config.yaml); do the task yourself",
        ));
      }
      // Those already handed to the limit run or wait: this one waits its turn.
      if (limit.activeCount + limit.pendingCount >= limit.concurrency) {
        tagged(options.events, context.callId)({
          type: "notice",
          text: `waits its turn: ${limit.concurrency} ${
            limit.concurrency === 1 ? "agent runs" : "agents run"
          } at a time (subagents.max_parallel)`,
        });
      }
      return limit(() =>
        context.signal.aborted
          ? errorResult(`agent "${request.agent}" was interrupted before it started`)
          : runChild(options, request, context.callId, context.signal)
      ).catch((error: unknown) =>
        errorResult(`agent "${request.agent}" failed: ${errorMessage(error)}`)
      );
    },
  };
}

async function runChild(
  options: DelegationOptions,
  request: DelegationRequest,
  callId: string,
  signal: AbortSignal,
): Promise<ToolResult> {
  const depth = options.depth + 1;
  const events = tagged(options.events, callId);
  let plan: ChildPlan;
  try {
    plan = await options.prepare({
      agent: request.agent,
      title: request.description ?? request.prompt,
      parent: { sessionId: options.sessionId, callId, depth },
      events,
      signal,
    });
  } catch (error) {
    return errorResult(`agent "${request.agent}" could not start: ${errorMessage(error)}`);
  }
  await using child = plan;
  const outcome = await runAgent({ ...child.options, emit: events, signal }, request.prompt);
  // A task a beforePrompt hook refused stored nothing: there is no session to name.
  const where = options.keepsSessions && outcome.promptRefused !== true
    ? ` (session ${child.options.sessionId})`
    : "";
  switch (outcome.reason) {
    case "end_turn":
      return textResult(`${outcome.text}\n\n[agent ${request.agent} answered${where}]`);
    case "interrupted":
      return errorResult(`agent "${request.agent}" was interrupted${where}`);
    case "hook_stop":
      // The parent goes on: it reads why its child stopped, in the hook's words.
      return errorResult(
        `agent "${request.agent}" was stopped: ${stoppedBy(outcome.stop)}${where}`,
      );
    case "error": {
      const error = outcome.error ?? "the run failed";
      if (outcome.promptRefused !== true) await child.recordFailure(error);
      return errorResult(`agent "${request.agent}" failed: ${error}${where}`);
    }
  }
}

/** `sink` with every event of a child tagged with `callId` (a grandchild's keeps its own tag). */
function tagged(sink: EventSink | undefined, callId: string): EventSink {
  if (sink === undefined) return () => {};
  return (event: RunEvent) =>
    sink(event.parent === undefined ? { ...event, parent: callId } : event);
}
