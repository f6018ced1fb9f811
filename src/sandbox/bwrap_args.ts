/**
 * The bubblewrap command line of a sandboxed command on Linux
 * (docs/sandbox.md, "How it works"): the root bound read-only, the writable
 * folders bound read-write over it, the protected paths inside them bound
 * read-only again, a fresh `/dev` and `/proc` in a new PID namespace, a new
 * network namespace when the network is off, every capability dropped and a
 * new session (no terminal to push keystrokes into). `--die-with-parent`
 * and the PID namespace end every process of the command when it ends or is
 * killed, so background processes do not outlive the call.
 *
 * @module
 */

/** The concrete confinement of one command: real, existing absolute paths. */
export interface SandboxPlan {
  /** Whether the network stays reachable. */
  readonly network: boolean;
  /** Folders (and files) bound read-write: the workspace, the private temp folder, `writable:`. */
  readonly writable: readonly string[];
  /** Paths inside a writable one bound read-only again (`.git`, rienda's home). */
  readonly readOnly: readonly string[];
}

/** Parents before children, so a nested bind lands on top of its parent's. */
function outerFirst(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
}

/** The arguments of `bwrap` (after the program) that run `command` confined by `plan`. */
export function bwrapArgs(plan: SandboxPlan, command: readonly string[]): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const path of outerFirst(plan.writable)) args.push("--bind", path, path);
  for (const path of outerFirst(plan.readOnly)) args.push("--ro-bind", path, path);
  args.push("--unshare-pid");
  if (!plan.network) args.push("--unshare-net");
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL", "--", ...command);
  return args;
}
