/**
 * The agent of a run or a chat that names none: `default_agent:` of
 * config.yaml, else `default` (docs/cli.md). An unknown `default_agent` is
 * an error naming config.yaml and the field, since that is where the fix is.
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import type { AgentSource } from "../agents/agent_sources.ts";
import { AgentNotFoundError, loadAgent } from "../agents/catalog.ts";
import { DEFAULT_AGENT_ID } from "../agents/default_agent.ts";
import type { Config } from "../config/config.ts";

/** The id of the agent that runs when none is named. */
export function defaultAgentId(config: Config): string {
  return config.defaultAgent ?? DEFAULT_AGENT_ID;
}

/**
 * Loads the agent that runs when none is named.
 *
 * @throws {Error} naming config.yaml's `default_agent` when it names no agent
 */
export async function loadDefaultAgent(
  sources: readonly AgentSource[],
  config: Config,
): Promise<AgentDefinition> {
  try {
    return await loadAgent(sources, defaultAgentId(config), { implicit: true });
  } catch (error) {
    if (!(error instanceof AgentNotFoundError) || config.defaultAgent === undefined) throw error;
    throw new Error(
      `${config.file ?? "config.yaml"}: default_agent: ${error.message} ` +
        `(change default_agent, or remove it to use the agent default)`,
      { cause: error },
    );
  }
}
