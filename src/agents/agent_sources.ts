/**
 * Where `-a ID` looks for agent files (docs/formats.md, "Where agents are
 * found"): the project's `.rienda/agents/`, then the peer folders
 * `.claude/agents/` and `.opencode/agent/` (or `.opencode/agents/`), then
 * `$RIENDA_HOME/agents/`. Tools and hooks are never read from a project.
 *
 * Each project folder carries its project: the root's real path and whether
 * the user trusts it (`config/trust.ts`); the catalog decides what an
 * untrusted project may do.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { findProjectRoot, isInside } from "../host/project_root.ts";
import { loadTrust, type TrustState, trustStateOf, trustWarning } from "../config/trust.ts";

/** The project of a workspace, as the agent folders see it. */
export interface AgentProject {
  /** The root as found upward from the workspace (named in listings). */
  readonly root: string;
  /** Its real path: the key of trust.json, and the folder project agent files must stay in. */
  readonly realRoot: string;
  readonly trust: TrustState;
  /** What is wrong with trust.json (then nothing is trusted), once per run. */
  readonly trustProblem?: string;
}

/** One folder of agent files. */
export interface AgentSource {
  readonly dir: string;
  /** How listings name it: `.claude/agents` (relative to the project) or `home`. */
  readonly label: string;
  /** A Claude Code or opencode folder: no `tools:` means the default agent's tools. */
  readonly peer: boolean;
  /** The project whose folder it is; absent for the home's. */
  readonly project?: AgentProject;
}

/** The rienda home's files `agentSources` reads. */
export interface AgentHome {
  readonly agentsDir: string;
  readonly trustFile: string;
}

/** The project folders looked in, in order, relative to the project root. */
const PROJECT_FOLDERS: readonly (readonly [string, boolean])[] = [
  [".rienda/agents", false],
  [".claude/agents", true],
  [".opencode/agent", true],
  [".opencode/agents", true],
];

/** What agent file names end with. */
export const AGENT_SUFFIX = ".md";

/** The label of `$RIENDA_HOME/agents`. */
export const HOME_LABEL = "home";

/** `$RIENDA_HOME/agents` alone (commands and tests without a workspace). */
export function homeSource(agentsDir: string): AgentSource {
  return { dir: agentsDir, label: HOME_LABEL, peer: false };
}

/** Whether the agents of `source` may take the place of the home's (the home's own, or a trusted project's). */
export function isTrusted(source: AgentSource): boolean {
  return source.project === undefined || source.project.trust === "trusted";
}

/** The project of `workdir` with its trust, read from `trustFile`. */
export async function findAgentProject(trustFile: string, workdir: string): Promise<AgentProject> {
  const root = await findProjectRoot(workdir);
  const realRoot = await Deno.realPath(root);
  const records = await loadTrust(trustFile);
  const problem = trustWarning(records);
  return {
    root,
    realRoot,
    trust: trustStateOf(records, realRoot),
    ...(problem === undefined ? {} : { trustProblem: problem }),
  };
}

/** The folders of the project of `workdir`, then the home's, each once. */
export async function agentSources(home: AgentHome, workdir: string): Promise<AgentSource[]> {
  const project = await findAgentProject(home.trustFile, workdir);
  const homeDir = resolve(home.agentsDir);
  const realHome = await Deno.realPath(homeDir).catch(() => homeDir);
  const sources: AgentSource[] = [];
  for (const [folder, peer] of PROJECT_FOLDERS) {
    const dir = join(project.root, folder);
    // The home's own folder seen from a project at or above it (rienda started in ~) is the home.
    const real = await Deno.realPath(dir).catch(() => dir);
    if (dir !== homeDir && real !== realHome) sources.push({ dir, label: folder, peer, project });
  }
  return [...sources, homeSource(home.agentsDir)];
}

/**
 * File names ending in .md that are not folders; dot files (editor locks) are
 * skipped; a missing folder has none. A project folder that leads out of its
 * project is an error.
 */
export async function agentFileNames(source: AgentSource): Promise<string[]> {
  const project = source.project;
  if (project !== undefined) {
    const real = await Deno.realPath(source.dir).catch(() => null);
    if (real === null) return [];
    if (!isInside(real, project.realRoot)) {
      throw new Error(
        `it leads to ${real}, outside the project ${project.realRoot}, so it is not read`,
      );
    }
  }
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(source.dir)) {
      if (entry.isDirectory || entry.name.startsWith(".")) continue;
      if (entry.name.endsWith(AGENT_SUFFIX)) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return names;
}
