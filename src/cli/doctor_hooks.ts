/**
 * `rienda doctor`'s line about config.yaml's hooks in the current project
 * (docs/security.md, "Project trust"): in a project you have not trusted, a
 * command or Claude Code hook that would run one of the workspace's files
 * refuses every call it is asked about, so doctor names each such entry and
 * the file, with `rienda trust` as the fix.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import { entryLabel } from "../config/hook_entries.ts";
import { formatFieldPath } from "../base/field_path.ts";
import { entryProjectFile } from "../hooks/project_files.ts";
import { findAgentProject } from "../agents/agent_sources.ts";

/** One line of doctor's report, when there is something to say. */
export interface HooksCheck {
  readonly status: "warn";
  readonly label: "hooks";
  readonly summary: string;
  readonly details: readonly string[];
}

/** Checks config.yaml's hook entries against the trust of `workdir`'s project. */
export async function checkProjectHooks(
  config: Config | null,
  trustFile: string,
  workdir: string,
  path: string,
): Promise<HooksCheck | undefined> {
  if (config === null || config.hooks.length === 0) return undefined;
  const project = await findAgentProject(trustFile, workdir);
  if (project.trust === "trusted") return undefined;
  const details: string[] = [];
  for (const entry of config.hooks) {
    const file = await entryProjectFile(entry, workdir, path);
    if (file === null) continue;
    details.push(
      `${formatFieldPath(["hooks", entry.index])} (${entryLabel(entry)}) would run ${
        JSON.stringify(file)
      }`,
    );
  }
  if (details.length === 0) return undefined;
  return {
    status: "warn",
    label: "hooks",
    summary: `${project.realRoot} is not trusted: ${details.length} of config.yaml's hooks ` +
      "would run its files, so they refuse every call here (run rienda trust to let them run)",
    details,
  };
}
