/**
 * `rienda hooks [list]` (docs/cli.md): first the hook entries a run of one
 * agent runs (`-a ID`, else the default agent), config.yaml's and the
 * agent's, numbered in the run's order; then the hooks installed in the
 * rienda home with the points they implement, their policy and their
 * grant, and the diagnostics of broken ones on stderr.
 *
 * ```
 * hooks of agent careful, in run order:
 * 1  guard
 *    afterRun, beforeToolExecute; matcher "shell"; priority -10; fail-closed
 *    /home/ana/.rienda/config.yaml: hooks[0]
 * 2  node hooks/policy.mjs {tool} {path}
 *    beforeToolExecute; timeout 10000 ms
 *    /home/ana/.rienda/agents/careful.md: hooks[1]
 *    refuses every call here: it would run "hooks/policy.mjs" of /src/clone, a project you have not trusted (rienda trust)
 *
 * installed in /home/ana/.rienda/hooks:
 * guard  afterRun, beforeToolExecute  fail-closed; agent careful: timeout 5000 ms
 *   capabilities: file read: none; file write: none; http: none; exec: git; env: none
 * ```
 *
 * The fourth line is there only in a project you have not trusted, for an
 * entry that would run one of its files (`hooks/project_files.ts`, the rule
 * a run and `rienda doctor` apply).
 *
 * Every field of an entry is written on one line with its controls written
 * out (`\x1b`, `\n`), to a pipe too: a command of a hostile file can neither
 * drive the terminal nor forge a line of the listing.
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import { agentSources } from "../agents/agent_sources.ts";
import { listAgents } from "../agents/catalog.ts";
import { loadHomeExtensions } from "../app/extension_workbench.ts";
import { resolveWorkdir } from "../app/prepare_run.ts";
import { loadTargetAgent } from "../app/run_target.ts";
import { entryWhere, runHookOrder, untrustedProjectOf } from "../app/run_hooks.ts";
import { loadConfig } from "../config/config.ts";
import {
  commandText,
  type HookEntry,
  type ScriptHookEntry,
  type SourcedHookEntry,
} from "../config/hook_entries.ts";
import { resolvePaths, type RiendaPaths } from "../config/paths.ts";
import type { CapabilityPolicy } from "../extensions/capabilities.ts";
import type { LoadedHook } from "../extensions/load_module.ts";
import { CLAUDE_EVENT_POINTS } from "../hooks/claude_hook.ts";
import { entryProjectFile } from "../hooks/project_files.ts";
import type { Io } from "../ui/io.ts";
import { terminalSafe } from "../ui/terminal_text.ts";
import { formatColumns } from "./columns.ts";
import { EXIT } from "./exit.ts";
import { capabilitiesLine } from "./extension_output.ts";

/** The flags of `rienda hooks [list]`. */
export interface HooksListFlags {
  /** `-a ID`: the agent whose run is listed; the default agent when absent. */
  readonly agent: string | undefined;
  /** `-C DIR`: the workspace whose project agents count. */
  readonly workdir: string | undefined;
  /** `--config PATH`. */
  readonly config: string | undefined;
}

/** The entry of JavaScript hook `name` in `agent`'s `hooks:`, if it lists it. */
function scriptEntry(
  agent: Pick<AgentDefinition, "hookEntries">,
  name: string,
): ScriptHookEntry | undefined {
  return agent.hookEntries.find((entry): entry is ScriptHookEntry =>
    entry.kind === "script" && entry.name === name
  );
}

/** `text` on one line with every control written out, `\n` and `\t` too. */
function oneLine(text: string): string {
  return terminalSafe(text).replaceAll("\n", "\\n").replaceAll("\t", "\\t");
}

/** What a listing shows as an entry's name: a hook's name, or the whole command. */
function entryText(entry: HookEntry): string {
  switch (entry.kind) {
    case "script":
      return entry.name;
    case "command":
      return commandText(entry.argv);
    case "claude":
      return entry.command;
  }
}

/** The details line of an entry: its points, matcher, priority and policy. */
function entryDetails(entry: HookEntry, hook: LoadedHook | undefined): string {
  const points = entry.kind === "command"
    ? entry.points.join(", ")
    : entry.kind === "claude"
    ? `claude ${entry.event} (${CLAUDE_EVENT_POINTS[entry.event]})`
    : hook?.points.join(", ") ?? "not installed";
  const moduleClosed = entry.kind === "script" && hook?.failClosed === true;
  const failClosed = entry.failClosed ?? moduleClosed;
  const timeoutMs = entry.kind === "script" ? entry.timeoutMs ?? hook?.timeoutMs : entry.timeoutMs;
  return [
    points,
    ...(entry.matcher === undefined ? [] : [`matcher ${JSON.stringify(entry.matcher)}`]),
    ...(entry.priority === 0 ? [] : [`priority ${entry.priority}`]),
    ...(failClosed ? ["fail-closed"] : moduleClosed ? ["fail-open"] : []),
    ...(timeoutMs === undefined ? [] : [`timeout ${timeoutMs} ms`]),
  ].join("; ");
}

/** Why `entry` refuses every call in `run`'s workspace, when its project is untrusted; null when it runs. */
async function refusalNote(entry: HookEntry, run: ListedRun, path: string): Promise<string | null> {
  if (run.untrustedProject === undefined) return null;
  const file = await entryProjectFile(entry, run.workdir, path);
  return file === null
    ? null
    : `refuses every call here: it would run ${
      JSON.stringify(file)
    } of ${run.untrustedProject}, a project you have not trusted (rienda trust)`;
}

/** The lines of the entries of a run, numbered from 1 (see the module doc). */
async function entryLines(
  run: ListedRun,
  hooks: ReadonlyMap<string, LoadedHook>,
  path: string,
): Promise<string> {
  const { ordered } = run;
  const width = String(ordered.length).length;
  const indent = " ".repeat(width + 2);
  const lines = ordered.map(async ({ entry, file }, index) => {
    const hook = entry.kind === "script" ? hooks.get(entry.name) : undefined;
    const note = await refusalNote(entry, run, path);
    return `${String(index + 1).padStart(width)}  ${oneLine(entryText(entry))}\n` +
      `${indent}${oneLine(entryDetails(entry, hook))}\n` +
      `${indent}${oneLine(entryWhere(file, entry))}\n` +
      (note === null ? "" : `${indent}${oneLine(note)}\n`);
  });
  return (await Promise.all(lines)).join("");
}

/** What the listing reads: the paths, the workspace, and the entries of a run of the agent. */
interface ListedRun {
  readonly paths: RiendaPaths;
  readonly workdir: string;
  readonly agent: AgentDefinition;
  /** The entries in run order. */
  readonly ordered: SourcedHookEntry[];
  /** The workspace's project root when you have not trusted it. */
  readonly untrustedProject: string | undefined;
}

/** The entries a run of the `-a` agent (else the default one) runs, in run order, and that agent. */
export async function listedEntries(
  io: Pick<Io, "env" | "cwd">,
  flags: HooksListFlags,
): Promise<ListedRun> {
  const paths = resolvePaths(io.env, { config: flags.config, cwd: io.cwd });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const workdir = await resolveWorkdir(io.cwd, flags.workdir);
  const sources = await agentSources(paths, workdir);
  const agent = await loadTargetAgent(
    { config, sources },
    flags.agent === undefined ? undefined : { kind: "id", id: flags.agent },
    null,
  );
  const ordered = runHookOrder({ config: config.hooks, configFile: config.file, agent });
  const untrustedProject = await untrustedProjectOf(sources, paths.trustFile, workdir);
  return { paths, workdir, agent, ordered, untrustedProject };
}

/** The policy column of `hook`: the module's, then each agent's override. */
function policyText(hook: LoadedHook, agents: readonly AgentDefinition[]): string {
  const parts = hook.failClosed ? ["fail-closed"] : [];
  for (const agent of agents) {
    const policy = scriptEntry(agent, hook.name);
    if (policy === undefined) continue;
    const failClosed = policy.failClosed ?? hook.failClosed;
    const settings = [
      ...(failClosed === hook.failClosed ? [] : [failClosed ? "fail-closed" : "fail-open"]),
      ...(policy.timeoutMs === undefined ? [] : [`timeout ${policy.timeoutMs} ms`]),
    ];
    if (settings.length > 0) parts.push(`agent ${agent.id}: ${settings.join(", ")}`);
  }
  return parts.join("; ");
}

/** The installed hooks, one line each with its points and policy, then its grant. */
function installedLines(
  hooks: readonly LoadedHook[],
  agents: readonly AgentDefinition[],
  policy: CapabilityPolicy,
): string {
  const rows = formatColumns(hooks.map((hook) => {
    const column = policyText(hook, agents);
    return [hook.name, hook.points.join(", "), ...(column === "" ? [] : [column])];
  })).split("\n");
  return hooks.map((hook, index) => `${rows[index]}\n${capabilitiesLine(hook, policy)}`).join("");
}

/**
 * `rienda hooks`: the entries of a run, then the installed hooks; problems
 * on stderr, exit 1 when an installed hook is broken or an entry names a
 * hook that is not installed.
 */
export async function hooksList(
  io: Io,
  signal: AbortSignal,
  flags: HooksListFlags,
): Promise<number> {
  const run = await listedEntries(io, flags);
  const { paths, workdir, agent, ordered } = run;
  const { catalog, dir, policy } = await loadHomeExtensions(
    { env: io.env, cwd: io.cwd, config: flags.config, signal },
    "hook",
  );
  const installed = new Map(catalog.hooks.map((hook) => [hook.name, hook]));
  io.stdout.write(
    ordered.length === 0
      ? `agent ${agent.id} runs no hooks (none in its hooks: or in config.yaml's)\n`
      : `hooks of agent ${agent.id}, in run order:\n${await entryLines(
        run,
        installed,
        io.env("PATH") ?? "",
      )}`,
  );
  if (catalog.hooks.length > 0) {
    const { agents } = await listAgents(await agentSources(paths, workdir));
    io.stdout.write(`\ninstalled in ${dir}:\n${installedLines(catalog.hooks, agents, policy)}`);
  }
  for (const warning of agent.warnings) io.stderr.write(`${warning}\n`);
  for (const diagnostic of catalog.diagnostics) io.stderr.write(`${diagnostic}\n`);
  // A hook an entry names that is neither loaded nor broken (its problem is printed above).
  const missing = ordered.filter(({ entry }) =>
    entry.kind === "script" && !installed.has(entry.name)
  );
  for (const { entry, file } of missing) {
    if (entry.kind !== "script") continue;
    if (catalog.problems.some((problem) => problem.startsWith(`hook "${entry.name}":`))) continue;
    io.stderr.write(
      `${entryWhere(file, entry)}: hook "${entry.name}" is not installed ` +
        `(a hook is ${dir}/${entry.name}/index.js)\n`,
    );
  }
  if (ordered.length === 0 && catalog.hooks.length === 0 && catalog.diagnostics.length === 0) {
    io.stderr.write(`no hooks in ${dir} (a hook is ${dir}/<name>/index.js)\n`);
  }
  return catalog.problems.length > 0 || missing.length > 0 ? EXIT.failure : EXIT.ok;
}
