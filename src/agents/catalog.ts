/**
 * The agents of the rienda home: `<agentsDir>/<id>.md`, loaded by id or
 * listed with the problems of broken files (`rienda agents`).
 *
 * A missing agents folder means "no agents", never an error (docs/formats.md).
 * The id `default` without a file is the built-in agent (`default_agent.ts`).
 *
 * @module
 */

import { join } from "node:path";
import { type AgentDefinition, AgentFileError, loadAgentFile } from "./agent_file.ts";
import { builtinDefaultAgent, DEFAULT_AGENT_ID } from "./default_agent.ts";
import { isValidName, NAME_RULE } from "../names.ts";
import { errorMessage } from "../unknown.ts";

/** A file of the agents folder that could not be loaded. */
export interface AgentProblemEntry {
  readonly path: string;
  /** The complete error message (it names the file). */
  readonly message: string;
}

/** Every agent of a folder, by id, and the files that failed. */
export interface AgentListing {
  readonly agents: AgentDefinition[];
  readonly problems: AgentProblemEntry[];
}

const AGENT_SUFFIX = ".md";

/** The file of agent `id` in `agentsDir`. */
export function agentPath(agentsDir: string, id: string): string {
  return join(agentsDir, `${id}${AGENT_SUFFIX}`);
}

/**
 * Loads agent `id` from `agentsDir`; `default` without a file is the built-in agent.
 *
 * @throws {AgentFileError} when the id is invalid, the file does not exist (listing the
 * available ids) or the file is invalid
 */
export async function loadAgent(agentsDir: string, id: string): Promise<AgentDefinition> {
  if (!isValidName(id)) {
    throw new AgentFileError(`invalid agent id ${JSON.stringify(id)} (expected ${NAME_RULE})`, {
      path: agentsDir,
      field: "id",
    });
  }
  const path = agentPath(agentsDir, id);
  try {
    return await loadAgentFile(path);
  } catch (error) {
    if (!(error instanceof AgentFileError) || !(error.cause instanceof Deno.errors.NotFound)) {
      throw error;
    }
    if (id === DEFAULT_AGENT_ID) return builtinDefaultAgent();
    const ids = [...new Set([...await listAgentIds(agentsDir), DEFAULT_AGENT_ID])].sort();
    throw new AgentFileError(
      `agent ${JSON.stringify(id)} not found: ${path} does not exist ` +
        `(available: ${ids.join(", ")})`,
      { path, cause: error.cause },
    );
  }
}

/** The ids of the `.md` files of `agentsDir` that are valid names, sorted; none when it is missing. */
export async function listAgentIds(agentsDir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const name of await agentFileNames(agentsDir)) {
    const id = name.slice(0, -AGENT_SUFFIX.length);
    if (isValidName(id)) ids.push(id);
  }
  return ids.sort();
}

/** Loads every agent of `agentsDir`, sorted by id, and reports broken files instead of failing. */
export async function listAgents(agentsDir: string): Promise<AgentListing> {
  let names: string[];
  try {
    names = await agentFileNames(agentsDir);
  } catch (error) {
    const reason = errorMessage(error);
    return {
      agents: [],
      problems: [{
        path: agentsDir,
        message: `${agentsDir}: cannot read the agents folder: ${reason}`,
      }],
    };
  }
  const results = await Promise.all(names.map((name) => loadEntry(agentsDir, name)));
  const agents: AgentDefinition[] = [];
  const problems: AgentProblemEntry[] = [];
  for (const result of results) {
    if ("agent" in result) agents.push(result.agent);
    else problems.push(result.problem);
  }
  agents.sort((a, b) => compare(a.id, b.id));
  problems.sort((a, b) => compare(a.path, b.path));
  return { agents, problems };
}

async function loadEntry(
  agentsDir: string,
  name: string,
): Promise<{ agent: AgentDefinition } | { problem: AgentProblemEntry }> {
  const path = join(agentsDir, name);
  const id = name.slice(0, -AGENT_SUFFIX.length);
  if (!isValidName(id)) {
    const message = `${path}: invalid agent id ${JSON.stringify(id)} ` +
      `(rename the file to ${NAME_RULE}, then ".md")`;
    return { problem: { path, message } };
  }
  try {
    return { agent: await loadAgentFile(path) };
  } catch (error) {
    if (!(error instanceof AgentFileError)) throw error;
    return { problem: { path, message: error.message } };
  }
}

/**
 * {@link listAgents}, plus the built-in agent `default` (in id order) unless
 * `default.md` replaces it: every agent a run can use by id.
 */
export async function listRunnableAgents(agentsDir: string): Promise<AgentListing> {
  const listing = await listAgents(agentsDir);
  if (listing.agents.some((agent) => agent.id === DEFAULT_AGENT_ID)) return listing;
  const agents = [...listing.agents, builtinDefaultAgent()].sort((a, b) => compare(a.id, b.id));
  return { agents, problems: listing.problems };
}

// File names ending in .md that are not folders; dot files (editor locks) are skipped.
async function agentFileNames(agentsDir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(agentsDir)) {
      if (entry.isDirectory || entry.name.startsWith(".")) continue;
      if (entry.name.endsWith(AGENT_SUFFIX)) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return names;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
