/**
 * `rienda doctor`'s line about the command sandbox (docs/sandbox.md): the
 * mode config.yaml sets and whether the sandbox starts on this machine, with
 * the reason and the fix when it does not. A confined mode that cannot start
 * fails the report, since every command would be refused.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import { probeSandboxNow } from "../sandbox/sandbox_probe.ts";
import { describeSandbox } from "../sandbox/sandbox_setting.ts";

/** One line of doctor's report. */
export interface SandboxCheck {
  readonly status: "ok" | "fail";
  readonly label: "sandbox";
  readonly summary: string;
}

/** Checks the sandbox with rienda's own `PATH` (`path`). */
export async function checkSandbox(config: Config | null, path: string): Promise<SandboxCheck> {
  const setting = config?.sandbox;
  const mode = setting === undefined ? "off (the default)" : describeSandbox(setting);
  const probe = await probeSandboxNow(path);
  if (probe.ok) {
    return { status: "ok", label: "sandbox", summary: `${mode}; ${probe.program} works here` };
  }
  if (setting === undefined || setting.mode === "off") {
    return { status: "ok", label: "sandbox", summary: `${mode}; ${probe.message}` };
  }
  return { status: "fail", label: "sandbox", summary: `${mode}: ${probe.message}` };
}
