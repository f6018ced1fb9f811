/**
 * What a project's agent files may do (docs/security.md, "Project trust"):
 *
 * - Until the project is trusted, a project file never takes the place of
 *   the built-in `default` or of a home agent: not by its id, not by its
 *   `name:`, not by a case variant of either (`Coder.md` beside the home's
 *   `coder.md`, which a case-insensitive disk would open for `-a coder`).
 * - Trusted or not, a project agent runs with the hooks of the home agent
 *   it takes the place of, with that agent's settings, and the settings a
 *   project file writes on a hook (`fail_closed`, `timeout_ms`) are ignored:
 *   a repository can neither drop a guard nor make it fail open.
 *
 * @module
 */

import type { AgentDefinition } from "./agent_file.ts";
import type { AgentProject } from "./agent_sources.ts";
import { DEFAULT_AGENT_ID } from "./default_agent.ts";
import { entryLabel, type HookEntry } from "../config/hook_entries.ts";
import { entrySettings } from "./agent_hooks.ts";

/** An id or name as the reservation compares it (case folded). */
export function foldId(id: string): string {
  return id.toLowerCase();
}

/**
 * The folded ids and names of `homeAgents`, and `default`, mapped to the id
 * they stand for: what an untrusted project may not claim.
 */
export function reservedIds(homeAgents: readonly AgentDefinition[]): Map<string, string> {
  const reserved = new Map<string, string>([[DEFAULT_AGENT_ID, DEFAULT_AGENT_ID]]);
  for (const agent of homeAgents) {
    reserved.set(foldId(agent.id), agent.id);
    if (agent.name !== undefined && !reserved.has(foldId(agent.name))) {
      reserved.set(foldId(agent.name), agent.id);
    }
  }
  return reserved;
}

/** The reserved id `agent` claims by its id or name, or undefined. */
export function claimedId(
  agent: AgentDefinition,
  reserved: ReadonlyMap<string, string>,
): string | undefined {
  return reserved.get(foldId(agent.id)) ??
    (agent.name === undefined ? undefined : reserved.get(foldId(agent.name)));
}

/** Whether `agent` answers to `id` by its id or name, case folded. */
export function answersTo(agent: AgentDefinition, id: string): boolean {
  return foldId(agent.id) === foldId(id) ||
    (agent.name !== undefined && foldId(agent.name) === foldId(id));
}

/** The line saying which project files were left out, and how to trust the project. */
export function leftOutWarning(project: AgentProject, files: readonly string[]): string {
  return `project ${project.realRoot} is not trusted: left out ${files.join(", ")} ` +
    "(run rienda trust to use its agent files)";
}

/**
 * The project agent `agent` as it runs: the hook entries of `home` (the home
 * agent it takes the place of) first, with their settings, then its own
 * JavaScript hooks by name; settings it writes on hooks are dropped, and its
 * command and Claude Code hooks left out (a project never brings code that
 * runs), each with a warning.
 */
export function asProjectAgent(
  agent: AgentDefinition,
  home: AgentDefinition | undefined,
): AgentDefinition {
  const homeEntries = home?.hookEntries ?? [];
  const homeHooks = home?.hooks ?? [];
  const own = agent.hookEntries.flatMap((entry) =>
    entry.kind === "script" && !homeHooks.includes(entry.name) ? [entry] : []
  );
  const hookEntries: HookEntry[] = [
    ...homeEntries.map((entry) =>
      home === undefined ? entry : { ...entry, origin: { file: home.path, index: entry.index } }
    ),
    ...own.map((entry, i) => ({
      kind: "script" as const,
      name: entry.name,
      index: homeEntries.length + i,
      priority: 0,
      origin: { file: agent.path, index: entry.index },
    })),
  ];
  const stated = agent.hookEntries.flatMap((entry) =>
    entry.kind === "script" && entrySettings(entry) !== "none" ? [entry.name] : []
  );
  const programs = agent.hookEntries.flatMap((entry) =>
    entry.kind === "script" ? [] : [entryLabel(entry)]
  );
  const lines = new Map(
    [...agent.lines].filter(([key]) =>
      !key.startsWith("hooks:") || agent.hooks.includes(key.slice(6))
    ),
  );
  const warnings = [
    ...agent.warnings,
    ...(stated.length === 0 ? [] : [
      `${agent.path}: hooks: the settings of ${stated.join(", ")} are ignored: ` +
      "a project agent's hooks run with the settings of the home",
    ]),
    ...(programs.length === 0 ? [] : [
      `${agent.path}: hooks: ${
        programs.map((label) => JSON.stringify(label)).join(", ")
      } left out: ` +
      "a project agent cannot add command hooks (declare them in the home's agent or config.yaml)",
    ]),
  ];
  return {
    ...agent,
    hooks: [...homeHooks, ...own.map((entry) => entry.name)],
    hookEntries,
    lines,
    warnings,
  };
}
