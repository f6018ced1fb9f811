/**
 * Whether the sandbox can start on this machine, found once per process by
 * running `true` under the very flags every command gets: `bwrap` on
 * rienda's `PATH` on Linux, `/usr/bin/sandbox-exec` on macOS, nothing on
 * Windows. A refusal (no bubblewrap, user namespaces refused in a container,
 * an old bubblewrap) is one message saying what to do, for the tool result
 * and for `rienda doctor`.
 *
 * @module
 */

import { isAbsolute } from "node:path";
import { findExecutable } from "../host/find_executable.ts";
import { bwrapArgs, type SandboxPlan } from "./bwrap_args.ts";
import { SANDBOX_EXEC, seatbeltArgs } from "./seatbelt_profile.ts";

/** Whether the sandbox works here: the program that confines, or why it cannot start. */
export type SandboxProbe =
  | { readonly ok: true; readonly program: string; readonly os: "linux" | "darwin" }
  | { readonly ok: false; readonly message: string };

/** What every refusal ends with (`SandboxPlace.offHint` replaces it where the fix is elsewhere). */
export const OR_OFF =
  "or set sandbox: off (config.yaml, the agent, or --sandbox off) to run commands unconfined";

/** The confined argv of `command` under `program` (a `bwrap` or {@link SANDBOX_EXEC}). */
export function confinedArgv(
  program: string,
  plan: SandboxPlan,
  command: readonly string[],
): [string, ...string[]] {
  return program === SANDBOX_EXEC
    ? [program, ...seatbeltArgs(plan, command)]
    : [program, ...bwrapArgs(plan, command)];
}

/** The reason of a `bwrap` that failed with `stderr`. */
export function bwrapFailure(program: string, stderr: string): string {
  const first = stderr.trim().split("\n")[0] ?? "";
  if (/unknown option|unrecognized option/i.test(stderr)) {
    return `${program} is too old for rienda's sandbox (${first}): install bubblewrap 0.5 or later`;
  }
  if (/namespace|uid map|setting up uid|operation not permitted|permission denied/i.test(stderr)) {
    return `bubblewrap cannot create its namespaces here (${first}): user namespaces are ` +
      `refused, as in many containers; allow them (docker run --security-opt seccomp=unconfined, ` +
      `sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu ` +
      `kernel.apparmor_restrict_unprivileged_userns=0)`;
  }
  return `${program} failed: ${first === "" ? "no message" : first}`;
}

async function runProbe(program: string, args: readonly string[]): Promise<string | null> {
  try {
    // Through sh, the one program rienda's permission set runs.
    const output = await new Deno.Command("sh", {
      args: ["-c", 'exec "$@"', "sh", program, ...args],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    return output.success ? null : new TextDecoder().decode(output.stderr);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The sandbox of this machine, probed afresh (see {@link probeSandbox} for the cached one). */
export async function probeSandboxNow(
  path = Deno.env.get("PATH") ?? "",
  os: typeof Deno.build.os = Deno.build.os,
): Promise<SandboxProbe> {
  const plan: SandboxPlan = { network: false, writable: [], readOnly: [] };
  if (os === "darwin") {
    const found = await findExecutable(SANDBOX_EXEC, { path: "", cwd: "/" });
    if (found === null) {
      return {
        ok: false,
        message: `the sandbox cannot start: ${SANDBOX_EXEC} is missing; ${OR_OFF}`,
      };
    }
    const failed = await runProbe(SANDBOX_EXEC, seatbeltArgs(plan, ["true"]));
    if (failed === null) return { ok: true, program: SANDBOX_EXEC, os };
    return {
      ok: false,
      message: `the sandbox cannot start: ${SANDBOX_EXEC} failed: ${failed.trim()}; ${OR_OFF}`,
    };
  }
  if (os !== "linux") {
    return { ok: false, message: `the sandbox is not available on ${os}; ${OR_OFF}` };
  }
  const dirs = path.split(":").filter((dir) => isAbsolute(dir)).join(":");
  const program = await findExecutable("bwrap", { path: dirs, cwd: "/" });
  if (program === null) {
    return {
      ok: false,
      message: `the sandbox cannot start: bwrap (bubblewrap) is not on PATH; install it ` +
        `(apt-get install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap), ${OR_OFF}`,
    };
  }
  const failed = await runProbe(program, bwrapArgs(plan, ["true"]));
  if (failed === null) return { ok: true, program, os };
  return {
    ok: false,
    message: `the sandbox cannot start: ${bwrapFailure(program, failed)}; ${OR_OFF}`,
  };
}

let cached: Promise<SandboxProbe> | undefined;

/** The sandbox of this machine, probed on first use and remembered for the process. */
export function probeSandbox(): Promise<SandboxProbe> {
  cached ??= probeSandboxNow();
  return cached;
}
