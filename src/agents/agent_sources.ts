/**
 * Where `-a ID` looks for agent files, first match wins (docs/formats.md,
 * "Where agents are found"): the project's `.rienda/agents/`, then the peer
 * folders `.claude/agents/` and `.opencode/agent/` (or `.opencode/agents/`),
 * then `$RIENDA_HOME/agents/`. Tools and hooks are never read from a project.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { findProjectRoot } from "../project_root.ts";

/** One folder of agent files. */
export interface AgentSource {
  readonly dir: string;
  /** How listings name it: `.claude/agents` (relative to the project) or `home`. */
  readonly label: string;
  /** A Claude Code or opencode folder: no `tools:` means the default agent's tools. */
  readonly peer: boolean;
}

/** The project folders looked in, in order, relative to the project root. */
const PROJECT_FOLDERS: readonly (readonly [string, boolean])[] = [
  [".rienda/agents", false],
  [".claude/agents", true],
  [".opencode/agent", true],
  [".opencode/agents", true],
];

/** The label of `$RIENDA_HOME/agents`. */
export const HOME_LABEL = "home";

/** `$RIENDA_HOME/agents` alone (commands and tests without a workspace). */
export function homeSource(agentsDir: string): AgentSource {
  return { dir: agentsDir, label: HOME_LABEL, peer: false };
}

/** The folders of the project of `workdir`, then `agentsDir`, each once. */
export async function agentSources(agentsDir: string, workdir: string): Promise<AgentSource[]> {
  const root = await findProjectRoot(workdir);
  const home = resolve(agentsDir);
  const sources = PROJECT_FOLDERS
    .map(([folder, peer]) => ({ dir: join(root, folder), label: folder, peer }))
    .filter((source) => source.dir !== home);
  return [...sources, homeSource(agentsDir)];
}
