/**
 * `rienda trust [-C DIR] [--untrust]` and `rienda trust --list`: record
 * whether the project of a workspace is trusted, so its agent files may
 * take the place of the home's (docs/security.md, "Project trust").
 *
 * ```
 * $ rienda trust
 * trusted /home/me/app
 * $ rienda trust --list
 * trusted    /home/me/app    2026-12-01T10:00:00.000Z
 * untrusted  /home/me/fork   2026-12-02T09:30:00.000Z
 * ```
 *
 * @module
 */

import { findAgentProject } from "../agents/agent_sources.ts";
import { resolveWorkdir } from "../app/prepare_run.ts";
import { resolvePaths } from "../config/paths.ts";
import { loadTrust, saveTrustDecision, trustWarning } from "../config/trust.ts";
import type { Io } from "../ui/io.ts";
import { formatColumns } from "./columns.ts";
import { EXIT } from "./exit.ts";

/** The flags of `rienda trust`. */
export interface TrustFlags {
  readonly workdir: string | undefined;
  readonly untrust: boolean;
  readonly list: boolean;
}

/** Records the decision for the workspace's project, or lists the decisions. */
export async function trustCommand(io: Io, flags: TrustFlags): Promise<number> {
  const paths = resolvePaths(io.env, { cwd: io.cwd });
  if (flags.list) return await listDecisions(io, paths.trustFile);
  const workdir = await resolveWorkdir(io.cwd, flags.workdir);
  const project = await findAgentProject(paths.trustFile, workdir);
  await saveTrustDecision(paths.trustFile, project.realRoot, !flags.untrust);
  if (project.root === workdir && !await hasGit(workdir)) {
    io.stderr.write(
      `no .git in ${workdir} or above it: the project is this folder alone\n`,
    );
  }
  io.stdout.write(`${flags.untrust ? "untrusted" : "trusted"} ${project.realRoot}\n`);
  return EXIT.ok;
}

async function listDecisions(io: Io, trustFile: string): Promise<number> {
  const records = await loadTrust(trustFile);
  const problem = trustWarning(records);
  if (problem !== undefined) {
    io.stderr.write(`${problem}\n`);
    return EXIT.failure;
  }
  const rows = [...records.entries].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    .map(([root, entry]) => [entry.trusted ? "trusted" : "untrusted", root, entry.decided]);
  if (rows.length === 0) {
    io.stderr.write("no project is trusted yet (rienda trust trusts the current one)\n");
    return EXIT.ok;
  }
  io.stdout.write(formatColumns(rows));
  return EXIT.ok;
}

async function hasGit(dir: string): Promise<boolean> {
  return await Deno.lstat(`${dir}/.git`).then(() => true, () => false);
}
