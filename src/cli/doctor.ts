/**
 * `rienda doctor`: checks the whole installation and says what is wrong and
 * how to fix it: home, config.yaml, agents, tools, hooks, credentials,
 * providers (key and reachability), whether each agent has a model that can
 * run (a failure when none has), MCP servers (each enabled one is started and
 * lists its tools), the shell, the sandbox, and config.yaml's hooks that
 * would run an untrusted project's files.
 *
 * ```
 * rienda 0.1.0 (deno 2.9.6, linux x86_64)
 * ok    home         /home/ana/.rienda
 * ok    config       /home/ana/.rienda/config.yaml
 * fail  agents       2 agents, 1 broken
 *                    /home/ana/.rienda/agents/x.md:2: description: missing (…)
 * ok    provider     openai: key from environment (OPENAI_API_KEY), reachable (HTTP 404)
 * warn  agent        claude cannot run: anthropic/claude-sonnet-4-5: provider "anthropic" needs …
 * ```
 *
 * Exit 0 when nothing failed (warnings allowed), 1 otherwise. Keys are never
 * printed nor sent: reachability is an unauthenticated request to the base URL.
 *
 * @module
 */

import { describeKeySource, lookupApiKey } from "../app/api_key.ts";
import { providerNames, resolveProvider } from "../app/provider_settings.ts";
import { agentSources, HOME_LABEL } from "../agents/agent_sources.ts";
import { type AgentListing, listAgents } from "../agents/catalog.ts";
import { builtinDefaultAgent, DEFAULT_AGENT_ID } from "../agents/default_agent.ts";
import type { AgentDefinition } from "../agents/agent_file.ts";
import { agentModel, type KeyLookupInputs, modelReadiness } from "../app/agent_model.ts";
import { noModelFix } from "../app/default_model.ts";
import { checkMcpServers, describeServer } from "../app/mcp_check.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
import { resolvePaths, type RiendaPaths } from "../config/paths.ts";
import { builtinTools } from "../tools/builtins.ts";
import type { Io } from "../ui/io.ts";
import { createStyle, useColor } from "../ui/terminal.ts";
import { safeFor } from "../ui/terminal_text.ts";
import { VERSION } from "../base/version.ts";
import { formatColumns } from "./columns.ts";
import { EXIT } from "./exit.ts";
import { reachability } from "./reachability.ts";
import { findExecutable } from "../host/find_executable.ts";
import { errorMessage } from "../base/unknown.ts";
import { checkSandbox } from "./doctor_sandbox.ts";
import { checkProjectHooks } from "./doctor_hooks.ts";

/** How long a provider may take to answer the reachability request. */
const REACH_TIMEOUT_MS = 5_000;

/** One line of the report, with its detail lines. */
interface Check {
  readonly status: "ok" | "warn" | "fail";
  readonly label: string;
  readonly summary: string;
  readonly details?: readonly string[];
}

/** The flags of `rienda doctor`. */
export interface DoctorFlags {
  readonly config: string | undefined;
  /** Skip the network requests. */
  readonly offline: boolean;
}

/** Runs every check and prints the report; `signal` stops the MCP server starts. */
export async function doctorCommand(
  io: Io,
  flags: DoctorFlags,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
  const checks: Check[] = [await checkHome(paths)];
  const config = await checkConfig(paths, checks);
  const agents = await checkAgents(paths, io.cwd);
  checks.push(...agents.checks);
  checks.push(...await checkExtensions(paths, config));
  checks.push(...await checkProviders(io, paths, config, flags.offline));
  if (config !== null) checks.push(...await checkModels(io, paths, config, agents.agents));
  checks.push(...await checkMcp(io, config, flags.offline, signal));
  checks.push(await checkShell(io));
  checks.push(await checkSandbox(config, io.env("PATH") ?? ""));
  const hooks = await checkProjectHooks(config, paths.trustFile, io.cwd, io.env("PATH") ?? "");
  if (hooks !== undefined) checks.push(hooks);
  const style = createStyle(useColor(io.stdout, io.env));
  const paint = { ok: style.green, warn: style.yellow, fail: style.red } as const;
  const safe = (text: string) => safeFor(io.stdout.isTerminal, text);
  io.stdout.write(
    `rienda ${VERSION} (deno ${Deno.version.deno}, ${Deno.build.os} ${Deno.build.arch})\n`,
  );
  const rows = checks.flatMap((check) => [
    [paint[check.status](check.status.padEnd(4)), check.label, safe(check.summary)],
    ...(check.details ?? []).map((detail) => ["", "", safe(detail)]),
  ]);
  io.stdout.write(formatColumns(rows));
  return checks.some((check) => check.status === "fail") ? EXIT.failure : EXIT.ok;
}

async function checkHome(paths: RiendaPaths): Promise<Check> {
  try {
    const info = await Deno.stat(paths.home);
    return info.isDirectory
      ? { status: "ok", label: "home", summary: paths.home }
      : { status: "fail", label: "home", summary: `${paths.home} is not a directory` };
  } catch {
    return {
      status: "warn",
      label: "home",
      summary: `${paths.home} does not exist yet (rienda init creates it with examples)`,
    };
  }
}

async function checkConfig(paths: RiendaPaths, checks: Check[]): Promise<Config | null> {
  try {
    const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
    checks.push({
      status: "ok",
      label: "config",
      summary: config.file === null ? `${paths.configFile} (absent: defaults)` : paths.configFile,
    });
    return config;
  } catch (error) {
    checks.push({
      status: "fail",
      label: "config",
      summary: "config.yaml does not load",
      details: errorMessage(error).split("\n"),
    });
    return null;
  }
}

/** The agents `-a` finds from the current folder: the project's folders, then the home's. */
async function checkAgents(
  paths: RiendaPaths,
  workdir: string,
): Promise<{ checks: Check[]; agents: readonly AgentDefinition[] }> {
  const listing = await listAgents(await agentSources(paths, workdir));
  const project = checkProject(listing);
  const checks = project === undefined
    ? [agentsCheck(paths, listing)]
    : [agentsCheck(paths, listing), project];
  return { checks, agents: listing.agents };
}

/** Whether the project is trusted, when it has agent files (or trust.json is broken). */
function checkProject(listing: AgentListing): Check | undefined {
  const { project } = listing;
  if (project === undefined) return undefined;
  if (project.trustProblem !== undefined) {
    return { status: "warn", label: "project", summary: project.trustProblem };
  }
  const own = [...listing.origins.values()].some((origin) => origin.source.project !== undefined);
  const leftOut = [...listing.leftOut.values()].flat();
  if (!own && leftOut.length === 0) return undefined;
  const root = project.realRoot;
  switch (project.trust) {
    case "trusted":
      return { status: "ok", label: "project", summary: `${root}: trusted` };
    case "untrusted":
      return { status: "ok", label: "project", summary: `${root}: not trusted (as you decided)` };
    case "undecided":
      return {
        status: "warn",
        label: "project",
        summary: `${root}: not trusted: its agent files run only by an explicit -a ID of an id ` +
          "the home does not have (run rienda trust to trust it)",
        details: leftOut.map((file) => `left out: ${file}`),
      };
  }
}

function agentsCheck(paths: RiendaPaths, listing: AgentListing): Check {
  const { agents, problems } = listing;
  const perFolder = new Map<string, number>();
  for (const { source } of listing.origins.values()) {
    const folder = source.label === HOME_LABEL ? paths.agentsDir : source.label;
    perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
  }
  const plural = (count: number) => `${count} agent${count === 1 ? "" : "s"}`;
  const where = [...perFolder].filter(([folder]) => folder !== paths.agentsDir)
    .map(([folder, count]) => `${count} in ${folder}`);
  const builtin = agents.some((agent) => agent.id === DEFAULT_AGENT_ID)
    ? ""
    : " and the built-in default";
  const summary = `${plural(perFolder.get(paths.agentsDir) ?? 0)} in ${paths.agentsDir}` +
    (where.length === 0 ? "" : ` (and ${where.join(", ")} of the project)`) + builtin +
    (problems.length === 0 ? "" : `, ${problems.length} broken`);
  return {
    // The built-in default agent runs without any file.
    status: problems.length > 0 ? "fail" : "ok",
    label: "agents",
    summary,
    details: [
      ...problems.flatMap((problem) => problem.message.split("\n")),
      ...agents.flatMap((agent) => [...agent.notes, ...agent.warnings]),
    ],
  };
}

async function checkExtensions(paths: RiendaPaths, config: Config | null): Promise<Check[]> {
  // Loaded on demand: the QuickJS host is only needed when extensions exist.
  const { loadExtensionCatalog } = await import("../extensions/load_extensions.ts");
  const { ExtensionHost } = await import("../extensions/host.ts");
  const { describeGrant, grantOf } = await import("../extensions/capabilities.ts");
  const policy = config?.capabilityPolicy ?? { requireCapabilities: false, grants: {} };
  using host = new ExtensionHost();
  const catalog = await loadExtensionCatalog({
    host,
    toolsDir: paths.toolsDir,
    hooksDir: paths.hooksDir,
    builtinToolNames: builtinTools().map((tool) => tool.name),
    signal: AbortSignal.timeout(30_000),
  });
  const broken = catalog.problems.length;
  const warnings = catalog.diagnostics.length - broken;
  return [{
    status: broken > 0 ? "fail" : warnings > 0 ? "warn" : "ok",
    label: "extensions",
    summary: `${catalog.tools.length} tool${catalog.tools.length === 1 ? "" : "s"}, ` +
      `${catalog.hooks.length} hook${catalog.hooks.length === 1 ? "" : "s"}` +
      (broken === 0 ? "" : `, ${broken} broken`) +
      (warnings === 0 ? "" : `, ${warnings} warning${warnings === 1 ? "" : "s"}`),
    details: [
      ...catalog.diagnostics,
      ...[...catalog.tools, ...catalog.hooks].map((extension) =>
        `${extension.kind} "${extension.name}": capabilities: ${
          describeGrant(grantOf(extension, policy))
        }`
      ),
    ],
  }];
}

async function checkProviders(
  io: Io,
  paths: RiendaPaths,
  config: Config | null,
  offline: boolean,
): Promise<Check[]> {
  if (config === null) return [];
  const credentials = await loadCredentials(paths.credentialsFile);
  const checks: Check[] = credentials.warnings.map((warning) => ({
    status: "warn",
    label: "credentials",
    summary: warning,
  }));
  const settingsList = providerNames(config)
    .map((name) => resolveProvider(config, name, io.env))
    .filter((settings) => settings !== undefined)
    .map((settings) => ({ settings, key: lookupApiKey(settings, io.env, credentials) }))
    // A built-in without a key the user never configured is not worth a line.
    .filter(({ settings, key }) => settings.configured || key.source.kind !== "missing");
  const reports = await Promise.all(settingsList.map(async ({ settings, key }) => {
    const keyText = describeKeySource(settings, key.source);
    if (key.source.kind === "missing") {
      return {
        status: "fail",
        label: "provider",
        summary: `${settings.name}: ${keyText}`,
      } as const;
    }
    if (offline) {
      return { status: "ok", label: "provider", summary: `${settings.name}: ${keyText}` } as const;
    }
    const reach = await reachability(settings.baseUrl, REACH_TIMEOUT_MS);
    // A local server nobody configured (ollama, lmstudio) is optional: not running is no failure.
    const optional = !settings.configured && key.source.kind === "not_needed";
    return {
      status: reach.ok ? "ok" : optional ? "warn" : "fail",
      label: "provider",
      summary: `${settings.name}: ${keyText}, ${reach.text}`,
    } as const;
  }));
  return [...checks, ...reports];
}

/**
 * Whether each agent (the built-in default too) has a model that can run: one
 * warning per agent that cannot, and a failure when none can.
 */
async function checkModels(
  io: Io,
  paths: RiendaPaths,
  config: Config,
  files: readonly AgentDefinition[],
): Promise<Check[]> {
  const keys = { env: io.env, credentials: await loadCredentials(paths.credentialsFile) };
  const agents = files.some((agent) => agent.id === DEFAULT_AGENT_ID)
    ? files
    : [builtinDefaultAgent(), ...files];
  const blocked = agents.flatMap((agent) => {
    const why = whyCannotRun(agent, config, keys);
    return why === undefined ? [] : [{ agent, why }];
  });
  if (blocked.length < agents.length) {
    return blocked.map(({ agent, why }) => ({
      status: "warn",
      label: "agent",
      summary: `${agent.id} cannot run: ${why}`,
    }));
  }
  const fix = blocked.some(({ why }) => why === NO_MODEL)
    ? noModelFix(config)
    : "fix one of the agents below";
  return [{
    status: "fail",
    label: "run",
    summary: `no agent can run: ${fix}`,
    details: blocked.map(({ agent, why }) => `${agent.id}: ${why}`),
  }];
}

/** What {@link whyCannotRun} says of an agent without a model, no default_model and no key. */
const NO_MODEL = "no model (it names none, there is no default_model and no provider has a key)";

/** Why the agent cannot run, or undefined when it can. */
function whyCannotRun(
  agent: AgentDefinition,
  config: Config,
  keys: KeyLookupInputs,
): string | undefined {
  const chosen = agentModel(agent.model, config, keys);
  if (chosen === undefined) return NO_MODEL;
  const readiness = modelReadiness(chosen.ref, config, keys);
  switch (readiness.kind) {
    case "ready":
      return undefined;
    case "no_key":
    case "unknown_provider":
    case "bad_base_url":
      return `${readiness.ref}: ${readiness.fix}`;
    case "unknown_model":
      return readiness.fix;
  }
}

/** Starts each enabled MCP server (remote ones only online) and reports what it offers. */
async function checkMcp(
  io: Io,
  config: Config | null,
  offline: boolean,
  signal: AbortSignal,
): Promise<Check[]> {
  const enabled = Object.values(config?.mcpServers ?? {}).filter((server) => server.enabled);
  const skipped = enabled.filter((server) => offline && server.kind === "remote");
  const checks = await checkMcpServers(
    enabled.filter((server) => !skipped.includes(server)),
    { workdir: io.cwd, env: io.env, secrets: io.secrets, signal },
  );
  return [
    ...checks.map((check): Check =>
      check.ok
        ? {
          status: "ok",
          label: "mcp",
          summary: `"${check.settings.name}": ${check.tools.length} tool` +
            `${check.tools.length === 1 ? "" : "s"} over ${check.transport} ` +
            `(${describeServer(check.settings)})`,
        }
        : { status: "fail", label: "mcp", summary: check.message.replace(/^mcp server /, "") }
    ),
    ...skipped.map((server): Check => ({
      status: "ok",
      label: "mcp",
      summary: `"${server.name}": ${describeServer(server)} not contacted (--offline)`,
    })),
  ];
}

async function checkShell(io: Io): Promise<Check> {
  const sh = await findExecutable("sh", { path: io.env("PATH") ?? "", cwd: io.cwd });
  if (sh !== null) return { status: "ok", label: "shell", summary: sh };
  return {
    status: "fail",
    label: "shell",
    summary: "sh is not on PATH (the shell tool and ctx.system.exec need it)",
  };
}
