/**
 * The sandbox of one run's commands (docs/sandbox.md): built from the chosen
 * setting and the workspace, it turns a command into the confined one
 * (`bwrap …` on Linux, `sandbox-exec …` on macOS) with a private temp folder
 * as `TMPDIR`, or says why the sandbox cannot start, so a command asked to
 * run confined never runs unconfined. A failed command whose output shows a
 * refusal (a read-only file system, an unreachable network) gets a last line
 * saying the sandbox blocked it and which setting would allow it.
 *
 * @module
 */

import { isAbsolute, join } from "node:path";
import { isInside } from "../host/project_root.ts";
import { type SandboxPlan } from "./bwrap_args.ts";
import { describeSandbox, type SandboxSetting } from "./sandbox_setting.ts";
import { confinedArgv, OR_OFF, probeSandbox } from "./sandbox_probe.ts";

/** A command confined, ready for `runInProcessGroup`, and the folder to remove after it. */
export interface ConfinedCommand {
  readonly command: readonly [string, ...string[]];
  /** Variables to add: `TMPDIR`, the private temp folder. */
  readonly env: Readonly<Record<string, string>>;
  /** Removes the private temp folder. */
  release(): Promise<void>;
}

/** The sandbox of one run's commands. */
export interface CommandSandbox {
  readonly setting: SandboxSetting;
  /**
   * The confined form of `command` (a shell string runs as `sh -c`), or the
   * message saying why the sandbox cannot start (then nothing may run).
   */
  confine(
    command: string | readonly [string, ...string[]],
  ): Promise<ConfinedCommand | { readonly refused: string }>;
  /** The line to add to a failed command's result when its output shows a sandbox refusal, or null. */
  explain(output: string): string | null;
}

/** What the sandbox confines to, besides the setting. */
export interface SandboxPlace {
  /** The run's workspace (absolute). */
  readonly workspace: string;
  /** The home folder `~/` of `writable:` stands for. */
  readonly home: string;
  /** rienda's own files and folders (its home, config.yaml), kept read-only when inside a writable path. */
  readonly protect: readonly string[];
  /** How a refusal says to turn the sandbox off, when not with `sandbox: off` of config.yaml, the agent or the flag. */
  readonly offHint?: string;
}

async function realPathOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.realPath(path);
  } catch {
    return null;
  }
}

function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/**
 * The writable and protected paths of `setting` for `place`, plus `tmpdir`:
 * real paths (a link is bound where it leads), writable paths that do not
 * exist left out; `.git` of every writable folder is protected, so no
 * command plants a hook that git runs later outside the sandbox.
 */
export async function sandboxPlan(
  setting: SandboxSetting,
  place: SandboxPlace,
  tmpdir: string,
): Promise<SandboxPlan> {
  const wanted = setting.mode === "workspace-write"
    ? [place.workspace, ...setting.writable.map((path) => expandHome(path, place.home))]
    : [];
  const writable = [tmpdir];
  for (const path of wanted) {
    const real = isAbsolute(path) ? await realPathOrNull(path) : null;
    if (real !== null && real !== "/") writable.push(real);
  }
  const candidates = [...writable.slice(1).map((root) => join(root, ".git")), ...place.protect];
  const readOnly: string[] = [];
  for (const path of candidates) {
    const real = await realPathOrNull(path);
    if (real === null || readOnly.includes(real)) continue;
    if (writable.some((root) => isInside(real, root))) readOnly.push(real);
  }
  return { network: setting.network, writable, readOnly };
}

/** How a refused write reads: a read-only bind on Linux, Seatbelt's EPERM on macOS. */
const WRITE_REFUSED = /read-only file system|EROFS/i;
const SEATBELT_REFUSED = /operation not permitted|EPERM/i;
const NETWORK_REFUSED =
  /network is unreachable|ENETUNREACH|temporary failure in name resolution|could not resolve host|name or service not known|EAI_AGAIN|getaddrinfo/i;

/** The line naming the setting that would allow what `setting` refused in `output`, or null. */
export function refusalLine(
  setting: SandboxSetting,
  output: string,
  os: typeof Deno.build.os = Deno.build.os,
): string | null {
  const mode = describeSandbox(setting);
  if (WRITE_REFUSED.test(output) || (os === "darwin" && SEATBELT_REFUSED.test(output))) {
    const allow = setting.mode === "read-only"
      ? "run with --sandbox workspace-write for the workspace"
      : "add the folder to writable: in the sandbox: setting of config.yaml";
    return `sandbox: the write was blocked by rienda's sandbox (${mode}: only ${
      setting.mode === "read-only" ? "TMPDIR is" : "the workspace, TMPDIR and writable: are"
    } writable, .git is read-only); to allow it, ${allow}, or run with --sandbox off`;
  }
  if (!setting.network && NETWORK_REFUSED.test(output)) {
    return `sandbox: the network is off in rienda's sandbox (${mode}); to allow it, set ` +
      `network: true in the sandbox: setting of config.yaml, or run with --sandbox off`;
  }
  return null;
}

/** The sandbox of `setting` for `place`; null when the mode is `off`. */
export function createCommandSandbox(
  setting: SandboxSetting,
  place: SandboxPlace,
): CommandSandbox | null {
  if (setting.mode === "off") return null;
  return {
    setting,
    async confine(command) {
      const probe = await probeSandbox();
      if (!probe.ok) {
        const hint = place.offHint;
        return {
          refused: hint === undefined ? probe.message : probe.message.replace(OR_OFF, hint),
        };
      }
      const tmpdir = await Deno.makeTempDir({ prefix: "rienda-sandbox-" });
      const release = () => Deno.remove(tmpdir, { recursive: true }).catch(() => {});
      try {
        const plan = await sandboxPlan(setting, place, tmpdir);
        const inner = typeof command === "string" ? ["sh", "-c", command] : [...command];
        return {
          command: confinedArgv(probe.program, plan, inner),
          env: { TMPDIR: tmpdir },
          release,
        };
      } catch (error) {
        await release();
        throw error;
      }
    },
    explain: (output) => refusalLine(setting, output),
  };
}
