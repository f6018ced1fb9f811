/**
 * Which sandbox a run's commands get (docs/sandbox.md, "Where it is set"):
 * `--sandbox MODE` wins, then the agent's `sandbox:`, then config.yaml's,
 * then `off`. An agent file of the project (`.rienda/`, `.claude/`,
 * `.opencode/` of the repository) may only tighten what the flag or
 * config.yaml set: what it asks beyond that is dropped, with a warning
 * naming the file.
 *
 * @module
 */

import { join, normalize } from "node:path";
import {
  DEFAULT_SANDBOX,
  describeSandbox,
  modeSetting,
  SANDBOX_MODES,
  type SandboxMode,
  type SandboxSetting,
} from "./sandbox_setting.ts";

/** Where the setting of a run can come from. */
export interface SandboxSources {
  /** `--sandbox MODE`. */
  readonly flag?: SandboxMode | undefined;
  /** `sandbox:` of config.yaml; absent when it sets none. */
  readonly config?: SandboxSetting | undefined;
  /** `sandbox:` of the agent file, when it sets one. */
  readonly agent?: {
    readonly setting: SandboxSetting;
    /** The file, named in the warning. */
    readonly path: string;
    /** A file of the project's own folders: it may only tighten. */
    readonly fromProject: boolean;
  } | undefined;
  /** The home folder `~/` of `writable:` stands for. */
  readonly home: string;
}

/** The chosen setting, and the warning when a project's agent file asked for more. */
export interface SandboxChoice {
  readonly setting: SandboxSetting;
  readonly warning?: string;
}

function strictness(mode: SandboxMode): number {
  return SANDBOX_MODES.indexOf(mode);
}

/** `path` with `~` expanded and `.`/`//` folded, for comparing. */
function expand(path: string, home: string): string {
  if (path === "~") return normalize(home);
  return normalize(path.startsWith("~/") ? join(home, path.slice(2)) : path);
}

function covers(outer: string, inner: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith("/") ? outer : `${outer}/`);
}

/** The writable paths of `wanted` that `allowed` already allows. */
function allowedWritable(
  allowed: SandboxSetting,
  wanted: SandboxSetting,
  home: string,
): string[] {
  if (allowed.mode === "off") return [...wanted.writable];
  const roots = allowed.writable.map((path) => expand(path, home));
  return wanted.writable.filter((path) => roots.some((root) => covers(root, expand(path, home))));
}

/** What both settings allow: the stricter mode, network only when both allow it, the shared writable paths. */
export function tighterSandbox(
  base: SandboxSetting,
  agent: SandboxSetting,
  home: string,
): SandboxSetting {
  if (base.mode === "off") return agent;
  if (agent.mode === "off") return base;
  const mode = strictness(agent.mode) > strictness(base.mode) ? agent.mode : base.mode;
  return {
    mode,
    network: base.network && agent.network,
    writable: mode === "read-only" ? [] : allowedWritable(base, agent, home),
  };
}

/** Whether `agent` asks for anything `base` does not allow. */
function asksMore(base: SandboxSetting, agent: SandboxSetting, home: string): boolean {
  if (base.mode === "off") return false;
  if (strictness(agent.mode) < strictness(base.mode)) return true;
  if (agent.network && !base.network) return true;
  return agent.mode === "workspace-write" &&
    allowedWritable(base, agent, home).length < agent.writable.length;
}

/** `--sandbox MODE` over the personal setting: the mode changes, its network and writable paths stay. */
function withFlag(personal: SandboxSetting, flag: SandboxMode | undefined): SandboxSetting {
  if (flag === undefined) return personal;
  if (flag === "off" || personal.mode === "off") return modeSetting(flag);
  return { ...personal, mode: flag };
}

/** Chooses the sandbox of a run from its sources (see the module doc). */
export function chooseSandbox(sources: SandboxSources): SandboxChoice {
  const { agent, flag, home } = sources;
  const config = sources.config ?? DEFAULT_SANDBOX;
  const personal = agent !== undefined && !agent.fromProject ? agent.setting : config;
  const base = withFlag(personal, flag);
  if (agent === undefined || !agent.fromProject) return { setting: base };
  const setting = tighterSandbox(base, agent.setting, home);
  if (!asksMore(base, agent.setting, home)) return { setting };
  const by = flag === undefined ? "config.yaml" : "--sandbox";
  return {
    setting,
    warning: `${agent.path}: sandbox: asks for ${describeSandbox(agent.setting)}, more than ` +
      `${by} allows (${describeSandbox(base)}); an agent file of the project may only tighten ` +
      `the sandbox, so commands run with ${describeSandbox(setting)}`,
  };
}
