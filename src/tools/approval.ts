/**
 * The rules for risky file actions (docs/tools.md, "Where tools may write";
 * docs/security.md, "What the file tools refuse"):
 *
 * - `write` and `edit` change files inside the workspace freely; a path
 *   outside it needs approval, and so does one that runs code later even
 *   inside it: in a `.git` folder (its config and hooks run at the next git
 *   command) or in rienda's home ({@link Approval.home}: its tools, hooks,
 *   agents and trust.json), when the workspace contains it.
 * - rienda's own files ({@link Approval.guarded}: keys, config, sessions,
 *   store) need approval for every file tool that reads or writes them.
 *
 * Approval comes from `-y` or, where a person can answer, from
 * {@link Approval.confirm}. Without either the call is refused with an error
 * result that says why and names `-y`.
 *
 * @module
 */

import { sep } from "node:path";
import { type GuardedPath, guardOf } from "./guarded_paths.ts";
import { isInsideWorkspace } from "./tool_paths.ts";

export type { GuardedPath } from "./guarded_paths.ts";

/** A yes/no question to the person behind a run (the shape of `ctx.confirm`'s). */
export interface ApprovalQuestion {
  readonly title: string;
  readonly body: string;
  /**
   * Set on the questions of rienda's own tools, never on `ctx.confirm`'s: an
   * answer remembered for one kind is never taken for the other.
   */
  readonly from?: "rienda";
}

/** How the built-in tools get approval for a risky action. */
export interface Approval {
  /** `-y`: approve without asking. */
  readonly autoApprove: boolean;
  /** Asks a person; absent when nobody can answer, and then nothing is approved. */
  readonly confirm?: (question: ApprovalQuestion, signal: AbortSignal) => Promise<boolean>;
  /** rienda's own files, which the file tools touch only with approval; none when absent. */
  readonly guarded?: readonly GuardedPath[];
  /** `$RIENDA_HOME`, which `write` and `edit` change only with approval; none when absent. */
  readonly home?: string;
}

/** No person and no `-y`: every write outside the workspace is refused. */
export const NO_APPROVAL: Approval = { autoApprove: false };

/** What a file tool is about to do with a path. */
export interface FileAction {
  readonly tool: string;
  /** `read`, `search`, `edit` or `write`, as the question words it. */
  readonly verb: string;
  readonly path: string;
  readonly signal: AbortSignal;
}

/** Whether `question` is approved: `-y`, else the person's answer, else no. */
async function approved(
  approval: Approval,
  question: ApprovalQuestion,
  signal: AbortSignal,
): Promise<boolean> {
  if (approval.autoApprove) return true;
  return approval.confirm !== undefined && await approval.confirm(question, signal);
}

/** The end of a refusal: how approval could have been given, else what to do instead. */
function refusalEnd(approval: Approval, needs: string, instead: string): string {
  return approval.confirm === undefined
    ? `, and ${needs} need approval: run rienda with -y (--auto-approve) to allow them, or ${instead}`
    : `, and the user declined: ${instead}, or ask the user (-y allows ${needs} without asking)`;
}

/**
 * Null when `action` may touch its path (not one of rienda's own files, or
 * approved), else the error text the model reads.
 */
export async function checkGuarded(approval: Approval, action: FileAction): Promise<string | null> {
  const guard = await guardOf(approval.guarded ?? [], action.path);
  if (guard === null) return null;
  const question: ApprovalQuestion = {
    title: `${action.tool}: ${action.verb} ${guard.what}?`,
    body: `${action.path} is ${guard.what}.`,
    from: "rienda",
  };
  if (await approved(approval, question, action.signal)) return null;
  return `refused to ${action.verb} ${action.path}: it is ${guard.what}` +
    refusalEnd(approval, "reads and writes of rienda's own files", "leave them alone");
}

/**
 * Null when `tool` may write `path` (inside the workspace and none of
 * rienda's own files, or approved), else the error text the model reads.
 */
export async function checkWrite(
  approval: Approval,
  request: { tool: string; workdir: string; path: string; signal: AbortSignal },
): Promise<string | null> {
  const { tool, workdir, path, signal } = request;
  const verb = tool === "edit" ? "edit" : "write";
  if ((approval.guarded ?? []).length > 0 && await guardOf(approval.guarded ?? [], path)) {
    // One question covers both: it is rienda's own file, wherever it is.
    return await checkGuarded(approval, { tool, verb, path, signal });
  }
  if (await isInsideWorkspace(workdir, path)) {
    const what = await runsCodeLater(approval, path);
    if (what === null) return null;
    const question: ApprovalQuestion = {
      title: `${tool}: write inside ${what}?`,
      body: `${path} is inside ${what}.`,
      from: "rienda",
    };
    if (await approved(approval, question, signal)) return null;
    return `refused to write ${path}: it is inside ${what}` +
      refusalEnd(approval, "writes there", "leave it alone");
  }
  const question: ApprovalQuestion = {
    title: `${tool}: write outside the workspace?`,
    body: `${path} is outside the workspace ${workdir}.`,
    from: "rienda",
  };
  if (await approved(approval, question, signal)) return null;
  return `refused to write ${path}: it is outside the workspace ${workdir}` +
    refusalEnd(approval, "writes outside the workspace", "write inside the workspace");
}

/** A folder name git reads commands from (any case: a case-insensitive disk opens `.GIT` as `.git`). */
const GIT_DIR = ".git";

/**
 * What the real path `path` lies in that runs code later, worded for a
 * question, or null: a `.git` folder or file, or rienda's home.
 */
async function runsCodeLater(approval: Approval, path: string): Promise<string | null> {
  if (path.split(sep).some((part) => part.toLowerCase() === GIT_DIR)) {
    return "a .git folder (git runs what its config and hooks name)";
  }
  if (approval.home === undefined) return null;
  const home = { path: approval.home, what: `rienda's home ${approval.home}` };
  return (await guardOf([home], path)) === null
    ? null
    : `${home.what} (its tools, hooks and agents run)`;
}
