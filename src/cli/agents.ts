/**
 * `rienda agents`: the agents of `$RIENDA_HOME/agents` with their model and
 * description, then the problems of the files that do not load.
 *
 * ```
 * coder     openai/gpt-4o-mini  Answers briefly.
 * reviewer  (default model)     Reviews a diff.
 *
 * problems:
 *   /home/ana/.rienda/agents/broken.md:2: description: missing (…)
 * ```
 *
 * @module
 */

import { listAgents } from "../agents/catalog.ts";
import { loadConfig } from "../config/config.ts";
import { resolvePaths } from "../config/paths.ts";
import type { Io } from "../ui/io.ts";
import { formatColumns } from "./columns.ts";
import { EXIT } from "./exit.ts";

/** The flags of `rienda agents`. */
export interface AgentsFlags {
  readonly config: string | undefined;
}

/** Lists the agents; exits 1 when a file has problems, so scripts notice. */
export async function agentsCommand(io: Io, flags: AgentsFlags): Promise<number> {
  const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const { agents, problems } = await listAgents(paths.agentsDir);
  if (agents.length === 0 && problems.length === 0) {
    io.stderr.write(
      `no agents in ${paths.agentsDir}: create one with rienda init, or write <id>.md there\n`,
    );
    return EXIT.ok;
  }
  const defaultModel = config.defaultModel === undefined
    ? "(no model)"
    : `${config.defaultModel} (default)`;
  io.stdout.write(formatColumns(
    agents.map((agent) => [agent.id, agent.model ?? defaultModel, agent.description]),
  ));
  if (problems.length === 0) return EXIT.ok;
  io.stderr.write(`${agents.length === 0 ? "" : "\n"}problems:\n`);
  for (const problem of problems) {
    io.stderr.write(`${problem.message.split("\n").map((line) => `  ${line}`).join("\n")}\n`);
  }
  return EXIT.failure;
}
