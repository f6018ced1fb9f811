/**
 * The agents a run can use: `<id>.md` in the folders of `agent_sources.ts`,
 * first folder first, loaded by id (or by the `name:` of a file) or listed
 * with the problems of broken files (`rienda agents`).
 *
 * A missing agents folder means "no agents", never an error (docs/formats.md).
 * The id `default` without a file is the built-in agent (`default_agent.ts`).
 *
 * @module
 */

import { join } from "node:path";
import { type AgentDefinition, AgentFileError, loadAgentFile } from "./agent_file.ts";
import type { AgentSource } from "./agent_sources.ts";
import { builtinDefaultAgent, DEFAULT_AGENT_ID } from "./default_agent.ts";
import { isValidName, NAME_RULE } from "../names.ts";
import { errorMessage } from "../unknown.ts";

/** A file of an agents folder that could not be loaded. */
export interface AgentProblemEntry {
  readonly path: string;
  /** The complete error message (it names the file). */
  readonly message: string;
}

/** Where a listed agent comes from, and the files of the same id it hides. */
export interface AgentOrigin {
  readonly source: AgentSource;
  /** Files of later folders with the same id. */
  readonly shadows: readonly string[];
}

/** Every agent of the folders, by id (the first folder's file wins), and the files that failed. */
export interface AgentListing {
  readonly agents: AgentDefinition[];
  readonly problems: AgentProblemEntry[];
  /** The origin of each listed agent file, by path (none for the built-in agent). */
  readonly origins: ReadonlyMap<string, AgentOrigin>;
}

/** No agent of that id or name exists in any folder. */
export class AgentNotFoundError extends AgentFileError {
  override name = "AgentNotFoundError";
}

const AGENT_SUFFIX = ".md";

/** The file of agent `id` in `agentsDir`. */
export function agentPath(agentsDir: string, id: string): string {
  return join(agentsDir, `${id}${AGENT_SUFFIX}`);
}

/**
 * Loads agent `id`: `<id>.md` of the first folder that has it, else the one
 * file whose `name:` is `id`, else (for `default`) the built-in agent.
 *
 * @throws {AgentNotFoundError} when no file matches (listing the available ids)
 * @throws {AgentFileError} when the id is invalid, several files have that
 * name, or the file is invalid
 */
export async function loadAgent(
  sources: readonly AgentSource[],
  id: string,
): Promise<AgentDefinition> {
  const home = sources.at(-1)?.dir ?? ".";
  if (!isValidName(id)) {
    throw new AgentFileError(`invalid agent id ${JSON.stringify(id)} (expected ${NAME_RULE})`, {
      path: home,
      field: "id",
    });
  }
  let notFound: unknown;
  for (const source of sources) {
    try {
      const agent = await loadAgentFile(agentPath(source.dir, id), { peer: source.peer });
      const last = sources.at(-1);
      return source === last || last === undefined ? agent : await saysWhatItHides(agent, last);
    } catch (error) {
      if (!(error instanceof AgentFileError) || !(error.cause instanceof Deno.errors.NotFound)) {
        throw error;
      }
      notFound = error.cause;
    }
  }
  const listing = await listAgents(sources);
  const named = listing.agents.filter((agent) => agent.name === id);
  if (named.length === 1 && named[0] !== undefined) return named[0];
  if (named.length > 1) {
    throw new AgentFileError(
      `agent name "${id}" is ambiguous: ${named.map((agent) => agent.path).join(", ")} ` +
        `all have name: ${id} (pass -a with a file's id, or -f FILE)`,
      { path: named[0]?.path ?? home, field: "name" },
    );
  }
  if (id === DEFAULT_AGENT_ID) return builtinDefaultAgent();
  const ids = [...new Set([...await listAgentIds(sources), DEFAULT_AGENT_ID])].sort();
  const where = await existingDirs(sources);
  const looked = where.length <= 1
    ? `${agentPath(home, id)} does not exist`
    : `no ${id}${AGENT_SUFFIX} in ${where.join(", ")}`;
  throw new AgentNotFoundError(
    `agent ${JSON.stringify(id)} not found: ${looked} (available: ${ids.join(", ")})`,
    { path: agentPath(home, id), cause: notFound },
  );
}

/**
 * `agent` (of a project folder) with a warning when it hides the file of the
 * same id in `home` and does not run all of that file's hooks: a cloned
 * repository would otherwise drop a guard of yours without a word.
 */
async function saysWhatItHides(agent: AgentDefinition, home: AgentSource) {
  let hidden: AgentDefinition;
  try {
    hidden = await loadAgentFile(agentPath(home.dir, agent.id), { peer: home.peer });
  } catch {
    return agent; // none there, or broken: nothing of it would have run
  }
  const dropped = hidden.hooks.filter((hook) => !agent.hooks.includes(hook));
  if (dropped.length === 0) return agent;
  const warning = `${agent.path} takes the place of ${hidden.path}, ` +
    `and runs without its hooks: ${dropped.join(", ")}`;
  return { ...agent, warnings: [...agent.warnings, warning] };
}

/** The ids of the `.md` files of the folders that are valid names, sorted, without loading them. */
export async function listAgentIds(sources: readonly AgentSource[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const source of sources) {
    for (const name of await agentFileNames(source.dir).catch(() => [])) {
      const id = name.slice(0, -AGENT_SUFFIX.length);
      if (isValidName(id)) ids.add(id);
    }
  }
  return [...ids].sort();
}

/**
 * Loads every agent of the folders, sorted by id; an id of an earlier folder
 * shadows the same id of later ones. Broken files are reported, never thrown.
 */
export async function listAgents(sources: readonly AgentSource[]): Promise<AgentListing> {
  const perSource = await Promise.all(sources.map((source) => listFolder(source)));
  const agents: AgentDefinition[] = [];
  const problems: AgentProblemEntry[] = [];
  const origins = new Map<string, { source: AgentSource; shadows: string[] }>();
  const byId = new Map<string, { source: AgentSource; shadows: string[] }>();
  perSource.forEach((listing, index) => {
    const source = sources[index];
    if (source === undefined) return;
    problems.push(...listing.problems);
    for (const agent of listing.agents) {
      const first = byId.get(agent.id);
      if (first !== undefined) {
        first.shadows.push(agent.path);
        continue;
      }
      const origin = { source, shadows: [] };
      byId.set(agent.id, origin);
      origins.set(agent.path, origin);
      agents.push(agent);
    }
  });
  agents.sort((a, b) => compare(a.id, b.id));
  problems.sort((a, b) => compare(a.path, b.path));
  return { agents, problems, origins };
}

async function listFolder(
  source: AgentSource,
): Promise<{ agents: AgentDefinition[]; problems: AgentProblemEntry[] }> {
  let names: string[];
  try {
    names = await agentFileNames(source.dir);
  } catch (error) {
    const message = `${source.dir}: cannot read the agents folder: ${errorMessage(error)}`;
    return { agents: [], problems: [{ path: source.dir, message }] };
  }
  const results = await Promise.all(names.sort().map((name) => loadEntry(source, name)));
  const agents: AgentDefinition[] = [];
  const problems: AgentProblemEntry[] = [];
  for (const result of results) {
    if ("agent" in result) agents.push(result.agent);
    else problems.push(result.problem);
  }
  return { agents, problems };
}

async function loadEntry(
  source: AgentSource,
  name: string,
): Promise<{ agent: AgentDefinition } | { problem: AgentProblemEntry }> {
  const path = join(source.dir, name);
  const id = name.slice(0, -AGENT_SUFFIX.length);
  if (!isValidName(id)) {
    const message = `${path}: invalid agent id ${JSON.stringify(id)} ` +
      `(rename the file to ${NAME_RULE}, then ".md")`;
    return { problem: { path, message } };
  }
  try {
    return { agent: await loadAgentFile(path, { peer: source.peer }) };
  } catch (error) {
    if (!(error instanceof AgentFileError)) throw error;
    return { problem: { path, message: error.message } };
  }
}

/**
 * {@link listAgents}, plus the built-in agent `default` (in id order) unless
 * a `default.md` replaces it: every agent a run can use by id.
 */
export async function listRunnableAgents(sources: readonly AgentSource[]): Promise<AgentListing> {
  const listing = await listAgents(sources);
  if (listing.agents.some((agent) => agent.id === DEFAULT_AGENT_ID)) return listing;
  const agents = [...listing.agents, builtinDefaultAgent()].sort((a, b) => compare(a.id, b.id));
  return { ...listing, agents };
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

// The folders that exist, and always the last one (the rienda home's).
async function existingDirs(sources: readonly AgentSource[]): Promise<string[]> {
  const exists = await Promise.all(
    sources.map((source, index) =>
      index === sources.length - 1 ||
      Deno.stat(source.dir).then((info) => info.isDirectory, () => false)
    ),
  );
  return sources.filter((_, index) => exists[index]).map((source) => source.dir);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
