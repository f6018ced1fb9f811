/**
 * The rule for writes outside the workspace (docs/tools.md, "Where tools may
 * write"): `write` and `edit` change files inside the workspace freely; a
 * path outside it needs approval, from `-y` or, where a person can answer,
 * from {@link Approval.confirm}. Without either the write is refused with an
 * error result that says why and names `-y`.
 *
 * @module
 */

import { isInsideWorkspace } from "./tool_paths.ts";

/** A yes/no question to the person behind a run (the shape of `ctx.confirm`'s). */
export interface ApprovalQuestion {
  readonly title: string;
  readonly body: string;
}

/** How the built-in tools get approval for a risky action. */
export interface Approval {
  /** `-y`: approve without asking. */
  readonly autoApprove: boolean;
  /** Asks a person; absent when nobody can answer, and then nothing is approved. */
  readonly confirm?: (question: ApprovalQuestion, signal: AbortSignal) => Promise<boolean>;
}

/** No person and no `-y`: every write outside the workspace is refused. */
export const NO_APPROVAL: Approval = { autoApprove: false };

/**
 * Null when `tool` may write `path` (inside the workspace, or approved),
 * else the error text the model reads.
 */
export async function checkWrite(
  approval: Approval,
  request: { tool: string; workdir: string; path: string; signal: AbortSignal },
): Promise<string | null> {
  const { tool, workdir, path, signal } = request;
  if (await isInsideWorkspace(workdir, path)) return null;
  if (approval.autoApprove) return null;
  const question = {
    title: `${tool}: write outside the workspace?`,
    body: `${path} is outside the workspace ${workdir}.`,
  };
  if (approval.confirm !== undefined && await approval.confirm(question, signal)) return null;
  const where = `refused to write ${path}: it is outside the workspace ${workdir}`;
  if (approval.confirm === undefined) {
    return `${where}, and writes outside the workspace need approval: ` +
      "run rienda with -y (--auto-approve) to allow them, or write inside the workspace";
  }
  return `${where}, and the user declined: write inside the workspace, ` +
    "or ask the user (-y allows writes outside the workspace without asking)";
}
