/**
 * One folder of agent files (`agent_sources.ts`): the `<id>.md` files it
 * holds, loaded one by id or all at once with the problems of broken ones.
 *
 * A project folder's files are read only when they are regular files whose
 * real path stays inside the project root: a link out of the project
 * (`.rienda -> /tmp/shared`) or a named pipe is a problem naming it, never
 * read (docs/security.md, "Project trust").
 *
 * @module
 */

import { join } from "node:path";
import { type AgentDefinition, AgentFileError, loadAgentFile } from "./agent_file.ts";
import { AGENT_SUFFIX, agentFileNames, type AgentSource } from "./agent_sources.ts";
import { AGENT_ID_RULE, isValidAgentId } from "../base/names.ts";
import { resolveInside } from "../host/project_root.ts";
import { errorMessage } from "../base/unknown.ts";

/** A file of an agents folder that could not be loaded. */
export interface AgentProblemEntry {
  readonly path: string;
  /** The complete error message (it names the file). */
  readonly message: string;
}

/** The agents of one folder, and its files that failed. */
export interface FolderListing {
  readonly agents: AgentDefinition[];
  readonly problems: AgentProblemEntry[];
}

/** A project agent file that is not read: a link out of the project, or not a regular file. */
export class UnreadAgentFileError extends AgentFileError {
  override name = "UnreadAgentFileError";
}

/** The file of agent `id` in `agentsDir`. */
export function agentPath(agentsDir: string, id: string): string {
  return join(agentsDir, `${id}${AGENT_SUFFIX}`);
}

/** The id of an agent file name (`review.md` → `review`). */
export function agentIdOf(fileName: string): string {
  return fileName.slice(0, -AGENT_SUFFIX.length);
}

/**
 * Loads `<id>.md` of `source`.
 *
 * @throws {AgentFileError} with a `Deno.errors.NotFound` cause when the folder has no such file,
 * else when the file is invalid
 * @throws {UnreadAgentFileError} when a project file leads out of its project or is not a file
 */
export async function loadFromSource(source: AgentSource, id: string): Promise<AgentDefinition> {
  const path = agentPath(source.dir, id);
  const project = source.project;
  if (project === undefined) return await loadAgentFile(path, { peer: source.peer });
  const found = await resolveInside(path, project.realRoot).catch((error: unknown) => {
    throw new AgentFileError(`${path}: cannot read the agent file: ${errorMessage(error)}`, {
      path,
      cause: error,
    });
  });
  switch (found.kind) {
    case "absent":
      throw new AgentFileError(`${path}: agent file does not exist`, {
        path,
        cause: new Deno.errors.NotFound(path),
      });
    case "outside":
      throw new UnreadAgentFileError(
        `${path}: leads to ${found.realPath}, outside the project ${project.realRoot}, so it is not read`,
        { path },
      );
    case "not_file":
      throw new UnreadAgentFileError(`${path}: not a regular file, so it is not read`, { path });
    case "file":
      return await loadAgentFile(path, { peer: source.peer, readFrom: found.realPath });
  }
}

/** Every agent of `source`, sorted by file name; broken files are problems, never thrown. */
export async function listFolder(source: AgentSource): Promise<FolderListing> {
  let names: string[];
  try {
    names = await agentFileNames(source);
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
  const id = agentIdOf(name);
  if (!isValidAgentId(id)) {
    const message = `${path}: invalid agent id ${JSON.stringify(id)} ` +
      `(rename the file to ${AGENT_ID_RULE}, then ".md")`;
    return { problem: { path, message } };
  }
  try {
    return { agent: await loadFromSource(source, id) };
  } catch (error) {
    if (!(error instanceof AgentFileError)) throw error;
    return { problem: { path, message: error.message } };
  }
}
