/**
 * The agents a run can use: `<id>.md` in the folders of `agent_sources.ts`,
 * first folder first, loaded by id (or by the `name:` of a file) or listed
 * with the problems of broken files (`rienda agents`). What a project's
 * files may take the place of depends on its trust (`project_agents.ts`).
 *
 * A missing agents folder means "no agents", never an error (docs/formats.md).
 * The id `default` without a file is the built-in agent (`default_agent.ts`).
 *
 * @module
 */

import { type AgentDefinition, AgentFileError } from "./agent_file.ts";
import {
  agentIdOf,
  agentPath,
  type AgentProblemEntry,
  listFolder,
  loadFromSource,
  UnreadAgentFileError,
} from "./agent_folder.ts";
import { agentFileNames, type AgentProject, type AgentSource, isTrusted } from "./agent_sources.ts";
import { builtinDefaultAgent, DEFAULT_AGENT_ID } from "./default_agent.ts";
import {
  answersTo,
  asProjectAgent,
  claimedId,
  foldId,
  leftOutWarning,
  reservedIds,
} from "./project_agents.ts";
import { AGENT_ID_RULE, isValidAgentId } from "../base/names.ts";

export { agentPath, type AgentProblemEntry } from "./agent_folder.ts";

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
  /** The files of an untrusted project left out for a home (or built-in) agent, by its id. */
  readonly leftOut: ReadonlyMap<string, readonly string[]>;
  /** The project of the folders, when there is one. */
  readonly project?: AgentProject;
}

/** How {@link loadAgent} was asked. */
export interface LoadAgentOptions {
  /**
   * The id comes from config.yaml's `default_agent`, not from `-a`: an
   * untrusted project's files never supply it.
   */
  readonly implicit?: boolean;
}

/** No agent of that id or name exists in any folder. */
export class AgentNotFoundError extends AgentFileError {
  override name = "AgentNotFoundError";
}

/**
 * Loads agent `id`: `<id>.md` of the first folder that has it, else the one
 * file whose `name:` is `id`, else (for `default`) the built-in agent. An
 * untrusted project's files are looked at only for an id the home does not
 * have, named with `-a` (never for an `implicit` one).
 *
 * @throws {AgentNotFoundError} when no file matches (listing the available ids)
 * @throws {AgentFileError} when the id is invalid, several files have that
 * name, or the file is invalid
 */
export async function loadAgent(
  sources: readonly AgentSource[],
  id: string,
  options: LoadAgentOptions = {},
): Promise<AgentDefinition> {
  const home = sources.filter((source) => source.project === undefined);
  if (!isValidAgentId(id)) {
    throw new AgentFileError(`invalid agent id ${JSON.stringify(id)} (expected ${AGENT_ID_RULE})`, {
      path: home.at(-1)?.dir ?? ".",
      field: "id",
    });
  }
  const project = sources.find((source) => source.project !== undefined)?.project;
  if (project === undefined || project.trust === "trusted") {
    const found = await findAgent(sources, id);
    if (found === undefined) throw await notFound(sources, id, []);
    if (found.source?.project === undefined) return found.agent;
    return asProjectAgent(found.agent, await homeCounterpart(home, id));
  }
  const projectSources = sources.filter((source) => source.project !== undefined);
  const claimants = (await Promise.all(projectSources.map(listFolder)))
    .flatMap((listing) => listing.agents)
    .filter((agent) => answersTo(agent, id))
    .map((agent) => agent.path);
  const fromHome = await findAgent(home, id);
  if (fromHome !== undefined) {
    if (claimants.length === 0 || project.trust === "untrusted") return fromHome.agent;
    const warning = leftOutWarning(project, claimants);
    return { ...fromHome.agent, warnings: [...fromHome.agent.warnings, warning] };
  }
  const reserved = reservedIds((await listAgents(home)).agents);
  const found = reserved.has(foldId(id)) || options.implicit === true
    ? undefined
    : await findAgent(projectSources, id);
  if (found === undefined) throw await notFound(sources, id, claimants, project);
  return asProjectAgent(found.agent, undefined);
}

// The first `<id>.md`, else the one file named `id`, else the built-in default (no source).
async function findAgent(
  sources: readonly AgentSource[],
  id: string,
): Promise<{ agent: AgentDefinition; source: AgentSource | null } | undefined> {
  const unread: string[] = [];
  const found = (agent: AgentDefinition, source: AgentSource | null) => ({
    agent: unread.length === 0 ? agent : { ...agent, warnings: [...unread, ...agent.warnings] },
    source,
  });
  for (const source of sources) {
    try {
      return found(await loadFromSource(source, id), source);
    } catch (error) {
      if (error instanceof UnreadAgentFileError) {
        unread.push(error.message);
        continue;
      }
      if (!(error instanceof AgentFileError) || !(error.cause instanceof Deno.errors.NotFound)) {
        throw error;
      }
    }
  }
  const listing = await listAgents(sources);
  const named = listing.agents.filter((agent) => agent.name === id);
  const [first] = named;
  if (named.length === 1 && first !== undefined) {
    return found(first, listing.origins.get(first.path)?.source ?? null);
  }
  if (named.length > 1) {
    throw new AgentFileError(
      `agent name "${id}" is ambiguous: ${named.map((agent) => agent.path).join(", ")} ` +
        `all have name: ${id} (pass -a with a file's id, or -f FILE)`,
      { path: first?.path ?? ".", field: "name" },
    );
  }
  return id === DEFAULT_AGENT_ID ? found(builtinDefaultAgent(), null) : undefined;
}

// The home agent a project agent of `id` takes the place of; none when absent or broken.
async function homeCounterpart(home: readonly AgentSource[], id: string) {
  try {
    return (await findAgent(home, id))?.agent;
  } catch {
    return undefined; // broken: nothing of it would have run
  }
}

async function notFound(
  sources: readonly AgentSource[],
  id: string,
  leftOut: readonly string[],
  project?: AgentProject,
): Promise<AgentNotFoundError> {
  const home = sources.at(-1)?.dir ?? ".";
  const ids = [...new Set([...await listAgentIds(sources), DEFAULT_AGENT_ID])].sort();
  const where = await existingDirs(sources);
  const looked = where.length <= 1
    ? `${agentPath(home, id)} does not exist`
    : `no ${id}.md in ${where.join(", ")}`;
  const untrusted = project === undefined || leftOut.length === 0
    ? ""
    : `; ${leftOutWarning(project, leftOut)}`;
  return new AgentNotFoundError(
    `agent ${JSON.stringify(id)} not found: ${looked} (available: ${ids.join(", ")})${untrusted}`,
    { path: agentPath(home, id), cause: new Deno.errors.NotFound(id) },
  );
}

/** The ids of the `.md` files of the folders that are valid ids, sorted, without loading them. */
export async function listAgentIds(sources: readonly AgentSource[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const source of sources) {
    for (const name of await agentFileNames(source).catch(() => [])) {
      const id = agentIdOf(name);
      if (isValidAgentId(id)) ids.add(id);
    }
  }
  return [...ids].sort();
}

/**
 * Loads every agent of the folders, sorted by id; an id of an earlier folder
 * shadows the same id of later ones. An untrusted project's files that claim
 * the id or name of a home agent (or `default`) are left out. Broken files
 * are reported, never thrown.
 */
export async function listAgents(sources: readonly AgentSource[]): Promise<AgentListing> {
  const project = sources.find((source) => source.project !== undefined)?.project;
  // The home first when the project is not trusted: its ids are reserved.
  const ordered = [...sources.filter(isTrusted), ...sources.filter((s) => !isTrusted(s))];
  const perSource = await Promise.all(ordered.map((source) => listFolder(source)));
  const agents: AgentDefinition[] = [];
  const problems: AgentProblemEntry[] = [];
  const origins = new Map<string, { source: AgentSource; shadows: string[] }>();
  const byId = new Map<string, { source: AgentSource; shadows: string[] }>();
  const leftOut = new Map<string, string[]>();
  let reserved: Map<string, string> | undefined;
  perSource.forEach((listing, index) => {
    const source = ordered[index];
    if (source === undefined) return;
    problems.push(...listing.problems);
    if (!isTrusted(source)) reserved ??= reservedIds(agents);
    for (const agent of listing.agents) {
      const claimed = reserved === undefined ? undefined : claimedId(agent, reserved);
      if (claimed !== undefined) {
        leftOut.set(claimed, [...leftOut.get(claimed) ?? [], agent.path]);
        continue;
      }
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
  // Project agents as they run: with the hooks of the home agent they take the place of.
  const homeAgents = perSource.filter((_, index) => ordered[index]?.project === undefined)
    .flatMap((listing) => listing.agents);
  const shown = agents.map((agent) =>
    origins.get(agent.path)?.source.project === undefined ? agent : asProjectAgent(
      agent,
      homeAgents.find((home) => home.id === agent.id) ??
        homeAgents.find((home) => home.name === agent.id),
    )
  );
  shown.sort((a, b) => compare(a.id, b.id));
  problems.sort((a, b) => compare(a.path, b.path));
  return {
    agents: shown,
    problems,
    origins,
    leftOut,
    ...(project === undefined ? {} : { project }),
  };
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
