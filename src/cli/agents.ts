/**
 * `rienda agents`: the agents a run in the workspace can use (the project's
 * folders, then `$RIENDA_HOME/agents`) with their model, description and
 * source, and the built-in agent `default` unless a file replaces it, then
 * the warnings and the problems of the files.
 *
 * ```
 * coder     openai/gpt-4o-mini (no key)              Answers briefly.            home
 * default   anthropic/claude-sonnet-4-5 (key found)  A concise coding assistant…  built-in
 * reviewer  sonnet (anthropic/claude-sonnet-4-5)     Reviews a diff. (no tools)  .claude/agents
 *
 * warnings:
 *   /home/ana/.rienda/agents/coder.md: ignored keys of other tools: color
 *
 * problems:
 *   /home/ana/.rienda/agents/broken.md:2: description: missing (…)
 * ```
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import { chooseSandbox, type SandboxChoice } from "../sandbox/sandbox_choice.ts";
import { DEFAULT_SANDBOX, describeSandbox } from "../sandbox/sandbox_setting.ts";
import { type AgentProject, agentSources, isTrusted } from "../agents/agent_sources.ts";
import { type AgentOrigin, listRunnableAgents } from "../agents/catalog.ts";
import { agentModel, type KeyLookupInputs, modelReadiness } from "../app/agent_model.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
import { resolvePaths } from "../config/paths.ts";
import { resolveWorkdir } from "../app/prepare_run.ts";
import type { Io } from "../ui/io.ts";
import { formatColumns } from "./columns.ts";
import { EXIT } from "./exit.ts";

/** The flags of `rienda agents`. */
export interface AgentsFlags {
  readonly config: string | undefined;
  /** `-C`: the workspace whose project agents are listed. */
  readonly workdir?: string | undefined;
}

/**
 * The model column: the agent's own, else `default_model`, else the first
 * key's (an agent without `model:`, or with `inherit`, runs as the default
 * one would), and what stops it from running.
 */
function modelColumn(
  agent: AgentDefinition,
  config: Config,
  keys: KeyLookupInputs,
): string {
  const chosen = agentModel(agent.model, config, keys);
  if (chosen === undefined) return "(no model)";
  const readiness = modelReadiness(chosen.ref, config, keys);
  const marks = [
    ...(readiness.kind !== "unknown_model" && readiness.ref !== chosen.ref ? [readiness.ref] : []),
    ...(chosen.origin === "default_model" ? ["default"] : []),
    ...(chosen.origin === "first_key" ? ["key found"] : []),
    ...(readiness.kind === "ready" ? [] : [READINESS_MARKS[readiness.kind]]),
  ];
  return marks.length === 0 ? chosen.ref : `${chosen.ref} (${marks.join(", ")})`;
}

/** How the model column says why a model cannot run. */
const READINESS_MARKS = {
  no_key: "no key",
  unknown_model: "unknown model",
  unknown_provider: "unknown provider",
  bad_base_url: "bad base URL",
} as const;

/**
 * Where the agent comes from (`(untrusted)` for an untrusted project's), the
 * files of the same id it hides, and the untrusted project files left out for it.
 */
function sourceColumn(origin: AgentOrigin | undefined, leftOut: readonly string[]): string {
  const label = origin === undefined
    ? "built-in"
    : isTrusted(origin.source)
    ? origin.source.label
    : `${origin.source.label} (untrusted)`;
  const notes = [
    ...(origin === undefined || origin.shadows.length === 0
      ? []
      : [`shadows ${origin.shadows.join(", ")}`]),
    ...(leftOut.length === 0 ? [] : [`left out: ${leftOut.join(", ")}`]),
  ];
  return notes.length === 0 ? label : `${label} (${notes.join("; ")})`;
}

/** The longest description shown; longer ones (Claude Code's run to pages) are cut. */
const DESCRIPTION_CHARS = 80;

/**
 * The description column: its first line, cut, then `(no tools)` when the
 * agent has none, or `(sandbox: MODE)` when its commands run confined.
 */
function describeAgent(agent: AgentDefinition, sandbox: SandboxChoice): string {
  const first = agent.description.split("\n")[0]?.trim() ?? "";
  const cut = agent.description === ""
    ? "(no description)"
    : first.length > DESCRIPTION_CHARS || first !== agent.description
    ? `${first.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…`
    : first;
  if (agent.tools.length === 0) return `${cut} (no tools)`;
  const mode = sandbox.setting.mode === "off"
    ? ""
    : ` (sandbox: ${describeSandbox(sandbox.setting)})`;
  return `${cut}${mode}`;
}

/** What an untrusted project's listed agents mean, when it has any; undefined otherwise. */
function trustNote(
  project: AgentProject,
  agents: readonly AgentDefinition[],
  origins: ReadonlyMap<string, AgentOrigin>,
): string | undefined {
  const own = agents.some((agent) => origins.get(agent.path)?.source.project !== undefined);
  if (project.trustProblem !== undefined) return project.trustProblem;
  if (project.trust === "trusted" || !own) return undefined;
  return `project ${project.realRoot} is not trusted: its agents run only by an explicit -a ID ` +
    "of an id the home does not have (run rienda trust to trust it)";
}

/** Lists the agents; exits 1 when a file has problems, so scripts notice. */
export async function agentsCommand(io: Io, flags: AgentsFlags): Promise<number> {
  const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const workdir = await resolveWorkdir(io.cwd, flags.workdir);
  const sources = await agentSources(paths, workdir);
  const { agents, problems, origins, leftOut, project } = await listRunnableAgents(sources);
  const keys = { env: io.env, credentials: await loadCredentials(paths.credentialsFile) };
  // The sandbox each agent's commands get: a project's file may only tighten config.yaml's.
  const sandboxes = new Map(agents.map((agent) => [
    agent.path,
    chooseSandbox({
      config: config.sandbox,
      agent: agent.sandbox === undefined ? undefined : {
        setting: agent.sandbox,
        path: agent.path,
        fromProject: origins.get(agent.path)?.source.project !== undefined,
      },
      home: io.env("HOME") ?? paths.home,
    }),
  ]));
  const rows = agents.map((agent) => [
    agent.id,
    modelColumn(agent, config, keys),
    describeAgent(agent, sandboxes.get(agent.path) ?? { setting: DEFAULT_SANDBOX }),
    sourceColumn(origins.get(agent.path), leftOut.get(agent.id) ?? []),
  ]);
  io.stdout.write(formatColumns(rows));
  const note = project === undefined ? undefined : trustNote(project, agents, origins);
  if (note !== undefined) io.stderr.write(`\n${note}\n`);
  // What files set that rienda ignores is said here (and by doctor), never on a run.
  const warnings = agents.flatMap((agent) => [
    ...agent.notes,
    ...agent.warnings,
    ...[sandboxes.get(agent.path)?.warning ?? []].flat(),
  ]);
  if (warnings.length > 0) {
    io.stderr.write(`\nwarnings:\n${warnings.map((line) => `  ${line}\n`).join("")}`);
  }
  if (problems.length === 0) return EXIT.ok;
  io.stderr.write("\nproblems:\n");
  for (const problem of problems) {
    io.stderr.write(`${problem.message.split("\n").map((line) => `  ${line}`).join("\n")}\n`);
  }
  return EXIT.failure;
}
