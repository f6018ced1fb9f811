/**
 * `rienda agents`: the agents of `$RIENDA_HOME/agents` with their model and
 * description, and the built-in agent `default` unless a file replaces it,
 * then the problems of the files that do not load.
 *
 * ```
 * coder     openai/gpt-4o-mini                       Answers briefly.
 * default   anthropic/claude-sonnet-4-5 (key found)  A concise coding assistant… (built-in)
 * reviewer  (no model)                               Reviews a diff.
 *
 * problems:
 *   /home/ana/.rienda/agents/broken.md:2: description: missing (…)
 * ```
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import { listRunnableAgents } from "../agents/catalog.ts";
import { DEFAULT_AGENT_ID, isBuiltinAgent } from "../agents/default_agent.ts";
import { firstKeyedModel } from "../app/default_model.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
import { resolvePaths } from "../config/paths.ts";
import type { Io } from "../ui/io.ts";
import { formatColumns } from "./columns.ts";
import { EXIT } from "./exit.ts";

/** The flags of `rienda agents`. */
export interface AgentsFlags {
  readonly config: string | undefined;
}

/** The model column: the agent's own, else `default_model`, else (for `default`) the first key's. */
async function modelColumn(
  agent: AgentDefinition,
  config: Config,
  io: Io,
  credentialsFile: string,
): Promise<string> {
  if (agent.model !== undefined) return agent.model;
  if (config.defaultModel !== undefined) return `${config.defaultModel} (default)`;
  if (agent.id !== DEFAULT_AGENT_ID) return "(no model)";
  const found = firstKeyedModel(config, io.env, await loadCredentials(credentialsFile));
  return found === undefined ? "(no model)" : `${found} (key found)`;
}

/** Lists the agents; exits 1 when a file has problems, so scripts notice. */
export async function agentsCommand(io: Io, flags: AgentsFlags): Promise<number> {
  const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const { agents, problems } = await listRunnableAgents(paths.agentsDir);
  const rows = await Promise.all(agents.map(async (agent) => [
    agent.id,
    await modelColumn(agent, config, io, paths.credentialsFile),
    isBuiltinAgent(agent) ? `${agent.description} (built-in)` : agent.description,
  ]));
  io.stdout.write(formatColumns(rows));
  if (problems.length === 0) return EXIT.ok;
  io.stderr.write("\nproblems:\n");
  for (const problem of problems) {
    io.stderr.write(`${problem.message.split("\n").map((line) => `  ${line}`).join("\n")}\n`);
  }
  return EXIT.failure;
}
