/**
 * The user tools and hooks of one run (reference: rienda-tools.md,
 * rienda-hooks.md; docs/extensions.md, "Wiring").
 *
 * - An agent that declares no hook and only built-in tools (none replaced by
 *   a user tool of the same name) never imports the extension host: its run
 *   pays for a few `stat` calls, not for QuickJS.
 * - Otherwise the host starts, the declared extensions are loaded and
 *   checked, and an unknown or broken one fails here, before any request.
 * - Hook notices (throws, bad returns, `ctx.log` and exec output of hooks)
 *   go to the `notice` callback, which the front end turns into `notice`
 *   events. `ctx.confirm` is true with `-y`, else asks the front end's
 *   `confirm` when a person can answer, else false; so is the approval
 *   `write` and `edit` need outside the workspace.
 *
 * @module
 */

import { join } from "node:path";
import type { AgentDefinition } from "../agents/agent_file.ts";
import type { EditorFiles } from "../tools/editor_files.ts";
import { withEntryNames } from "../agents/entry_options.ts";
import type { RiendaPaths } from "../config/paths.ts";
import type { HookCallReport, HookRunner } from "../engine/hooks.ts";
import type { HookEntry } from "../config/hook_entries.ts";
import { createRunHooks, loadRunMatchers, runHookOrder, scriptHookNames } from "./run_hooks.ts";
import type { SessionHook } from "../hooks/session_hook.ts";
import type { ExtensionRunContext, UserNotice } from "../extensions/run_context.ts";
import type { CapabilityPolicy } from "../extensions/capabilities.ts";
import { builtinTools, type GuardedPath } from "../tools/builtins.ts";
import type { Tool } from "../tools/tool.ts";
import type { SecretSet } from "../secrets/secrets.ts";
import type { Delegation } from "../tools/agent.ts";
import type { CommandSandbox } from "../sandbox/command_sandbox.ts";

/** The folders of the rienda home extensions use, and the files the file tools guard. */
export type ExtensionPaths = Pick<
  RiendaPaths,
  | "home"
  | "toolsDir"
  | "hooksDir"
  | "cacheDir"
  | "storeDir"
  | "exportsCacheDir"
  | "credentialsFile"
  | "configFile"
  | "sessionsDir"
>;

/**
 * rienda's own files that `read`, `grep`, `edit` and `write` touch only with
 * approval (docs/security.md, "What the file tools refuse").
 */
export function guardedHomePaths(
  paths: Pick<RiendaPaths, "credentialsFile" | "configFile" | "sessionsDir" | "storeDir">,
): GuardedPath[] {
  return [
    { path: paths.credentialsFile, what: "rienda's credentials file (API keys)" },
    { path: paths.configFile, what: "rienda's config file (it may hold API keys)" },
    { path: paths.sessionsDir, what: "rienda's sessions folder (past conversations)" },
    { path: paths.storeDir, what: "rienda's store (what extensions keep)" },
  ];
}

/** What every `ctx` of one run, or of one `tools test` / `hooks test`, is built from. */
export interface ExtensionContextOptions {
  readonly paths: ExtensionPaths;
  readonly workdir: string;
  readonly sessionId: string;
  readonly modelRef: string;
  /** The agent behind `ctx.agent`. */
  readonly agent: Pick<AgentDefinition, "id" | "frontmatter" | "systemPrompt">;
  /** The whole parsed `config.yaml`. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Its `extensions:` section: what extensions' capabilities must be. */
  readonly policy?: CapabilityPolicy;
  /** The run's secrets (`Io.secrets`): what `ctx.config` and MCP failures are masked with. */
  readonly secrets: SecretSet;
  /** `-y`: every `ctx.confirm` answers true. */
  readonly autoApprove: boolean;
  /** Receives hook notices. */
  readonly notice: (text: string) => void;
  /** Shows `ctx.notify`; absent without a UI (docs/extensions.md: then nothing). */
  readonly notify?: (notice: UserNotice) => void;
  /** Asks a person for `ctx.confirm`; absent when nobody can answer. */
  readonly confirm?: ExtensionRunContext["confirm"];
  /** Confines `shell` and `ctx.system.exec` (docs/sandbox.md); absent with `sandbox: off`. */
  readonly sandbox?: CommandSandbox;
}

/** The run context behind every `ctx` (`ctx.confirm`: `-y`, else the person when one can be asked, else false). */
export function createExtensionContext(options: ExtensionContextOptions): ExtensionRunContext {
  const { paths, agent, notify, confirm } = options;
  return {
    workdir: options.workdir,
    session: { id: options.sessionId, agentId: agent.id, modelId: options.modelRef },
    agent: {
      name: agent.id,
      frontmatter: withEntryNames(agent.frontmatter),
      systemPrompt: agent.systemPrompt,
    },
    config: options.config,
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    secrets: options.secrets,
    cacheDir: paths.cacheDir,
    storeDir: paths.storeDir,
    autoApprove: options.autoApprove,
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    notice: options.notice,
    ...(notify === undefined ? {} : { notify }),
    ...(confirm === undefined ? {} : { confirm }),
  };
}

/** What {@link loadRunExtensions} needs. */
export interface RunExtensionsRequest extends Omit<ExtensionContextOptions, "agent"> {
  readonly agent: AgentDefinition;
  /** Whom the `agent` tool can call and how; absent: it cannot. */
  readonly delegation?: Delegation | undefined;
  /** An editor's files, which `read`, `write` and `edit` go through (`tools/editor_files.ts`). */
  readonly editorFiles?: EditorFiles | undefined;
  /** `hooks:` of `config.yaml`, run for every agent; none when absent. */
  readonly configHooks?: readonly HookEntry[];
  /** The file `config.yaml` was read from, named in messages. */
  readonly configFile?: string | null;
  /** Receives one report per hook call (the `hook` events). */
  readonly hookReport?: (report: HookCallReport) => void;
  /** The chat's own hooks (`/hooks add`), run after the priority-0 entries. */
  readonly sessionHooks?: readonly SessionHook[];
  /** The root of the workspace's project when you have not trusted it (docs/security.md, "Hooks"). */
  readonly untrustedProject?: string | undefined;
  /** Aborts loading (a module's top-level code) on interrupt. */
  readonly signal: AbortSignal;
}

/** The tools and hooks of a run, and the host behind them (dispose it when the run ends). */
export interface RunExtensions extends AsyncDisposable {
  /** The agent's tools in declared order. */
  readonly tools: readonly Tool[];
  readonly hooks: HookRunner;
  /** To report once at the start of the run (`tool "x": …`, `hook "x": …`). */
  readonly diagnostics: readonly string[];
}

/**
 * Resolves the agent's tools and hooks.
 *
 * @throws {Error} naming the agent file when a declared tool or hook is unknown or broken
 */
export async function loadRunExtensions(request: RunExtensionsRequest): Promise<RunExtensions> {
  const { agent, paths } = request;
  const { autoApprove, confirm } = request;
  const builtins = builtinTools(
    {
      autoApprove,
      ...(confirm === undefined ? {} : { confirm }),
      guarded: guardedHomePaths(paths),
      home: paths.home,
    },
    request.delegation,
    request.sandbox ?? null,
    request.editorFiles,
  );
  const byName = new Map(builtins.map((tool) => [tool.name, tool]));
  const ordered = runHookOrder({
    config: request.configHooks ?? [],
    configFile: request.configFile ?? null,
    agent,
  });
  await loadRunMatchers(ordered);
  const scripts = scriptHookNames(ordered);
  const context = createExtensionContext(request);
  const hooksOf = (loaded: RunHooksInput) =>
    createRunHooks({
      ordered,
      ...loaded,
      context,
      ...(request.hookReport === undefined ? {} : { report: request.hookReport }),
      ...(request.sessionHooks === undefined ? {} : { session: request.sessionHooks }),
      untrustedProject: request.untrustedProject,
    });
  const builtinOnly = scripts.names.length === 0 &&
    agent.tools.every((name) => byName.has(name)) &&
    !(await anyExists(agent.tools.map((name) => join(paths.toolsDir, name))));
  if (builtinOnly) {
    return {
      tools: agent.tools.flatMap((name) => byName.get(name) ?? []),
      hooks: hooksOf({ scripts: new Map() }),
      diagnostics: [],
      [Symbol.asyncDispose]: () => Promise.resolve(),
    };
  }
  // Loaded on demand: runs without user extensions never import the host.
  const [{ ExtensionHost }, { loadAgentExtensions }] = await Promise.all([
    import("../extensions/host.ts"),
    import("../extensions/load_extensions.ts"),
  ]);
  const host = new ExtensionHost();
  try {
    const loaded = await loadAgentExtensions({
      host,
      toolsDir: paths.toolsDir,
      hooksDir: paths.hooksDir,
      builtinToolNames: [...byName.keys()],
      exportsCacheDir: paths.exportsCacheDir,
      builtins,
      agentPath: agent.path,
      tools: agent.tools,
      hooks: scripts.names,
      hookOrigins: scripts.origins,
      lines: agent.lines,
      context,
      signal: request.signal,
    });
    return {
      tools: loaded.tools,
      hooks: hooksOf({ scripts: loaded.hooks, host }),
      diagnostics: loaded.diagnostics,
      [Symbol.asyncDispose]() {
        host.close();
        return Promise.resolve();
      },
    };
  } catch (error) {
    host.close();
    throw error;
  }
}

/** What the hooks of a run are built from besides their entries. */
type RunHooksInput = Pick<Parameters<typeof createRunHooks>[0], "scripts" | "host">;

async function anyExists(paths: readonly string[]): Promise<boolean> {
  const found = await Promise.all(
    paths.map((path) =>
      Deno.lstat(path).then(() => true, (error: unknown) => {
        if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
          return false;
        }
        throw error;
      })
    ),
  );
  return found.includes(true);
}
