/**
 * The sandbox of a run's commands (docs/sandbox.md): `--sandbox`, the
 * agent's `sandbox:` and config.yaml's chosen by `sandbox/sandbox_choice.ts`,
 * where an agent file inside the project (its `.rienda/`, `.claude/`,
 * `.opencode/` folders, or any file of it given with `-f`) may only tighten;
 * rienda's home and config file stay read-only inside a writable folder.
 *
 * @module
 */

import { dirname } from "node:path";
import type { AgentDefinition } from "../agents/agent_file.ts";
import type { Config } from "../config/config.ts";
import type { RiendaPaths } from "../config/paths.ts";
import { findProjectRoot, isInside } from "../host/project_root.ts";
import { type CommandSandbox, createCommandSandbox } from "../sandbox/command_sandbox.ts";
import { chooseSandbox, tighterSandbox } from "../sandbox/sandbox_choice.ts";
import type { SandboxMode, SandboxSetting } from "../sandbox/sandbox_setting.ts";

/** The sandbox of a run, its setting, and the warning when a project's agent file asked for more. */
export interface RunSandbox {
  readonly setting: SandboxSetting;
  /** Null with `off`. */
  readonly sandbox: CommandSandbox | null;
  readonly warning?: string;
}

/** What {@link runSandbox} reads. */
export interface RunSandboxInputs {
  readonly flag: SandboxMode | undefined;
  readonly config: Config;
  readonly agent: Pick<AgentDefinition, "path" | "sandbox">;
  readonly paths: Pick<RiendaPaths, "home" | "agentsDir" | "configFile">;
  readonly workdir: string;
  /** The person's home folder (`~/` of `writable:`). */
  readonly home: string;
  /** A subagent's: the parent run's setting, the most the child may have. */
  readonly parent?: SandboxSetting | undefined;
}

async function realPath(path: string): Promise<string> {
  return await Deno.realPath(path).catch(() => path);
}

/** Whether `agentFile` belongs to the project of `workdir` rather than to the person. */
async function isProjectFile(agentFile: string, inputs: RunSandboxInputs): Promise<boolean> {
  const file = await realPath(agentFile);
  if (isInside(file, await realPath(inputs.paths.agentsDir))) return false;
  const root = await realPath(await findProjectRoot(inputs.workdir));
  return isInside(dirname(file), root);
}

/** Chooses and builds the sandbox of a run (see the module doc). */
export async function runSandbox(inputs: RunSandboxInputs): Promise<RunSandbox> {
  const { agent } = inputs;
  const choice = chooseSandbox({
    flag: inputs.flag,
    config: inputs.config.sandbox,
    agent: agent.sandbox === undefined ? undefined : {
      setting: agent.sandbox,
      path: agent.path,
      fromProject: await isProjectFile(agent.path, inputs),
    },
    home: inputs.home,
  });
  // A subagent is never looser than the run that delegated to it.
  const setting = inputs.parent === undefined
    ? choice.setting
    : tighterSandbox(inputs.parent, choice.setting, inputs.home);
  const sandbox = createCommandSandbox(setting, {
    workspace: inputs.workdir,
    home: inputs.home,
    protect: [inputs.paths.home, inputs.paths.configFile],
  });
  return {
    setting,
    sandbox,
    ...(choice.warning === undefined ? {} : { warning: choice.warning }),
  };
}
