/**
 * The `sandbox-exec` command line of a sandboxed command on macOS
 * (docs/sandbox.md): a Seatbelt profile that allows everything but writes
 * outside the writable paths (and into the protected paths inside them) and,
 * when the network is off, IP networking. Paths are passed as `-D`
 * parameters, never spliced into the profile text, so no path can change
 * the profile.
 *
 * @module
 */

import type { SandboxPlan } from "./bwrap_args.ts";

/** The one `sandbox-exec` used: a copy found on `PATH` could be anyone's. */
export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** Devices every command writes to (its terminal, `/dev/null`). */
const DEVICE_RULES = [
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(literal "/dev/dtracehelper")',
  '(regex #"^/dev/tty")',
  '(regex #"^/dev/fd/")',
];

/** The profile text of `plan`; path `i` of `plan.writable` is parameter `W<i>`, of `plan.readOnly` `R<i>`. */
export function seatbeltProfile(plan: SandboxPlan): string {
  const protectedPaths = plan.readOnly.map((_, index) =>
    `(require-not (subpath (param "R${index}")))`
  );
  const writable = plan.writable.map((_, index) =>
    protectedPaths.length === 0
      ? `(subpath (param "W${index}"))`
      : `(require-all (subpath (param "W${index}")) ${protectedPaths.join(" ")})`
  );
  const lines = [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    `(allow file-write*\n  ${[...writable, ...DEVICE_RULES].join("\n  ")})`,
  ];
  if (!plan.network) {
    lines.push("(deny network-outbound (remote ip))", "(deny network-inbound (local ip))");
    lines.push("(deny network-bind (local ip))");
  }
  return `${lines.join("\n")}\n`;
}

/** The arguments of {@link SANDBOX_EXEC} that run `command` confined by `plan`. */
export function seatbeltArgs(plan: SandboxPlan, command: readonly string[]): string[] {
  return [
    "-p",
    seatbeltProfile(plan),
    ...plan.writable.map((path, index) => `-DW${index}=${path}`),
    ...plan.readOnly.map((path, index) => `-DR${index}=${path}`),
    "--",
    ...command,
  ];
}
