/**
 * The target of a run: which agent it runs, with which model and reasoning
 * level. `rienda run`, the chat and an editor's session share this one
 * answer, so a chat's status line names the model its first turn will use:
 *
 * - the agent: the one asked for (`-a ID`, `-f FILE`), else the continued
 *   session's (its branch's last switch), else `default_agent` or `default`;
 * - the model: `-m`, else the session's, else the agent's own, else the
 *   default agent's (`default_model`, else the first provider with a key);
 *   a bare name becomes `provider/model`;
 * - the reasoning level: `--thinking`, else the session's, else the agent's.
 *
 * @module
 */

import { type AgentDefinition, AgentFileError, loadAgentFile } from "../agents/agent_file.ts";
import type { AgentSource } from "../agents/agent_sources.ts";
import { loadAgent } from "../agents/catalog.ts";
import type { Config } from "../config/config.ts";
import type { BranchContext } from "../sessions/history.ts";
import { agentModel, type KeyLookupInputs, modelReadiness } from "./agent_model.ts";
import { loadSessionAgent } from "./continue_session.ts";
import { loadDefaultAgent } from "./default_agent.ts";
import { noModelMessage } from "./default_model.ts";
import { fullModelRef, resolveModel } from "./resolve_model.ts";
import { THINKING_OFF } from "../providers/thinking.ts";

/** An agent asked for by id (of the agents folders) or by file (an absolute path). */
export type AgentSpec =
  /** `implicit`: not named by a person (a subagent): an untrusted project's files never supply it. */
  | { readonly kind: "id"; readonly id: string; readonly implicit?: boolean }
  | { readonly kind: "file"; readonly path: string };

/** A stored session a target continues: its id and its active branch. */
export interface TargetSession {
  readonly id: string;
  readonly branch: Pick<BranchContext, "agent" | "agentFile" | "model" | "thinking">;
}

/** What the person asked for; every field may be absent. */
export interface TargetRequest {
  readonly agent?: AgentSpec | undefined;
  readonly model?: string | undefined;
  readonly thinking?: string | undefined;
}

/** What a target is resolved against. */
export interface TargetInputs extends KeyLookupInputs {
  readonly config: Config;
  readonly sources: readonly AgentSource[];
}

/** The agent, model and reasoning level of a run. */
export interface RunTarget {
  readonly agent: AgentDefinition;
  /** `provider/model`. */
  readonly modelRef: string;
  /** The reasoning level; undefined for off. */
  readonly thinking: string | undefined;
  /** Whether the model is the continued session's own (not `-m`): its failure suggests -m. */
  readonly modelFromSession: boolean;
}

/**
 * The agent a run uses.
 *
 * @throws {Error} naming the file for an agent that does not load, or the
 * session for a session agent that no longer exists
 */
export async function loadTargetAgent(
  inputs: Pick<TargetInputs, "config" | "sources">,
  spec: AgentSpec | undefined,
  session: TargetSession | null,
): Promise<AgentDefinition> {
  if (spec?.kind === "file") return await loadAgentFile(spec.path);
  if (spec?.kind === "id") {
    return await loadAgent(inputs.sources, spec.id, { implicit: spec.implicit === true });
  }
  if (session !== null) return await loadSessionAgent(inputs.sources, session);
  return await loadDefaultAgent(inputs.sources, inputs.config);
}

/**
 * The agent, model and reasoning level of a run.
 *
 * @throws {Error} when no model can be worked out, or a name does not
 * resolve (an agent file's own `model:` names the file and line)
 */
export async function resolveRunTarget(
  inputs: TargetInputs,
  request: TargetRequest,
  session: TargetSession | null,
): Promise<RunTarget> {
  const agent = await loadTargetAgent(inputs, request.agent, session);
  return { agent, ...targetModel(inputs, agent, request, session) };
}

/**
 * The model and reasoning level `agent` runs with.
 *
 * @throws {Error} as {@link resolveRunTarget}
 */
export function targetModel(
  inputs: Omit<TargetInputs, "sources">,
  agent: AgentDefinition,
  request: TargetRequest,
  session: TargetSession | null,
): Omit<RunTarget, "agent"> {
  const { config } = inputs;
  // An agent without a model of its own (or `inherit`) takes the default agent's.
  const named = request.model ?? session?.branch.model ??
    agentModel(agent.model, config, inputs)?.ref;
  if (named === undefined) throw new Error(noModelMessage(config, agent));
  if (request.model === undefined && session === null && named === agent.model) {
    checkAgentModel(agent, config, inputs);
  }
  return {
    modelRef: fullModelRef(config, named),
    thinking: request.thinking ?? session?.branch.thinking ?? agent.thinking,
    modelFromSession: request.model === undefined && session !== null,
  };
}

/** What a front end shows of a target before a turn runs it. */
export interface TargetPreview {
  /** `provider/model`, or the name as given when it does not resolve; "" when there is none. */
  readonly modelRef: string;
  /** The reasoning level; null for off. */
  readonly thinking: string | null;
  /** The model's context window; null when the model is unknown. */
  readonly contextWindow: number | null;
}

/**
 * The model, reasoning level and context window a turn of `agent` (null: the
 * session's agent, which no longer loads) would use; never throws: what is
 * wrong is for the turn to say.
 */
export function previewTarget(
  inputs: Omit<TargetInputs, "sources">,
  agent: AgentDefinition | null,
  request: TargetRequest,
  session: TargetSession | null,
): TargetPreview {
  const thinking = request.thinking ?? session?.branch.thinking ?? agent?.thinking ?? null;
  let modelRef = request.model ?? session?.branch.model ?? agent?.model ?? "";
  try {
    if (agent !== null) modelRef = targetModel(inputs, agent, request, session).modelRef;
    else if (modelRef !== "") modelRef = fullModelRef(inputs.config, modelRef);
  } catch {
    // the name as given
  }
  return {
    modelRef,
    thinking: thinking === THINKING_OFF ? null : thinking,
    contextWindow: contextWindowOf(inputs, modelRef),
  };
}

/** The context window of `ref`, whether or not its key is set; null when unknown. */
function contextWindowOf(inputs: Omit<TargetInputs, "sources">, ref: string): number | null {
  if (ref === "") return null;
  try {
    return resolveModel(inputs.config, ref, { ...inputs, keyOptional: true }).contextWindow;
  } catch {
    return null;
  }
}

/**
 * Throws, naming the file and line, when the agent file's own `model:` is an
 * unknown name or names an unknown provider: the error is the file's.
 */
function checkAgentModel(agent: AgentDefinition, config: Config, keys: KeyLookupInputs): void {
  if (agent.model === undefined) return;
  const readiness = modelReadiness(agent.model, config, keys);
  if (readiness.kind !== "unknown_model" && readiness.kind !== "unknown_provider") return;
  const line = agent.lines.get("model");
  throw new AgentFileError(
    `${agent.path}${line === undefined ? "" : `:${line}`}: model: ${readiness.fix}`,
    { path: agent.path, line, field: "model" },
  );
}
