/**
 * Extensions outside a run: what `rienda tools test` and `rienda hooks test`
 * run one in (the host, the folders of the rienda home and a `ctx` like a
 * run's, for a workspace given by `-C`), and the checked listing behind
 * `rienda tools` and `rienda hooks`.
 *
 * - `ctx.session.id` is a fresh session id (nothing is stored);
 *   `ctx.session.agentId` and `ctx.agent.name` are `test`, the agent's
 *   frontmatter is empty; `ctx.session.modelId` is the configured
 *   `default_model`, else `test/test`. With `--agent ID` they are that
 *   agent's (its frontmatter, `config`, prompt and model), and so are the
 *   policies of its `tools:` and `hooks:` entries; `hookOrder` is
 *   config.yaml's hook entries and the agent's, in run order.
 * - `ctx.config` is the whole `config.yaml` (`--config` picks another one).
 * - `ctx.system.exec` and `shell` are confined as a run's are: config.yaml's
 *   `sandbox:`, or the `--agent`'s (docs/sandbox.md).
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import { agentSources } from "../agents/agent_sources.ts";
import { loadAgent } from "../agents/catalog.ts";
import { loadConfig } from "../config/config.ts";
import { resolvePaths } from "../config/paths.ts";
import { ExtensionHost } from "../extensions/host.ts";
import type { ExtensionKind } from "../extensions/discovery.ts";
import {
  type ExtensionCatalog,
  type ExtensionDirs,
  loadExtensionCatalog,
} from "../extensions/load_extensions.ts";
import type { ExtensionRunContext, UserNotice } from "../extensions/run_context.ts";
import type { CapabilityPolicy } from "../extensions/capabilities.ts";
import { newSessionId } from "../sessions/ids.ts";
import { builtinTools } from "../tools/builtins.ts";
import type { Tool } from "../tools/tool.ts";
import { createExtensionContext, guardedHomePaths } from "./extensions.ts";
import { runSandbox } from "./run_sandbox.ts";
import { resolveWorkdir } from "./prepare_run.ts";
import { loadDefaultAgent } from "./default_agent.ts";
import { runHookOrder, untrustedProjectOf } from "./run_hooks.ts";
import type { SourcedHookEntry } from "../config/hook_entries.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** The agent id `ctx` shows outside a run. */
const WORKBENCH_AGENT_ID = "test";

/** The model reference `ctx` shows outside a run when no `default_model` is configured. */
const WORKBENCH_MODEL_REF = "test/test";

/** What {@link openExtensionWorkbench} needs. */
export interface WorkbenchRequest {
  readonly env: (name: string) => string | undefined;
  readonly cwd: string;
  /** The process's secrets (`Io.secrets`): `ctx.config` shows its keys masked with them. */
  readonly secrets: SecretSet;
  /** `--config PATH`. */
  readonly config: string | undefined;
  /** `-C DIR`; the current directory when absent. */
  readonly workdir: string | undefined;
  /** `-y`: every `ctx.confirm` answers true. */
  readonly autoApprove: boolean;
  /** `--agent ID`: the agent whose frontmatter, config and model `ctx` shows. */
  readonly agent?: string | undefined;
  /** Without `agent`, the agent a run that names none runs (`default_agent`, else `default`). */
  readonly defaultAgent?: boolean;
  /** Hook notices and the lines of `ctx.log` / exec output of hooks. */
  readonly notice: (text: string) => void;
  /** `ctx.notify`. */
  readonly notify: (notice: UserNotice) => void;
  readonly signal: AbortSignal;
}

/** A host, the extension folders and a `ctx` for one workspace; dispose it to stop the host. */
export interface ExtensionWorkbench extends Disposable {
  readonly dirs: ExtensionDirs;
  readonly builtins: readonly Tool[];
  readonly context: ExtensionRunContext;
  readonly workdir: string;
  /** The agent of `--agent` (or the default one, when asked); absent without it. */
  readonly agent?: AgentDefinition;
  /** The hook entries of config.yaml and of the agent, in run order. */
  readonly hookOrder: readonly SourcedHookEntry[];
  /** The root of the workspace's project when it is not trusted (its files run as no hook). */
  readonly untrustedProject: string | undefined;
}

/**
 * Resolves the home, the configuration and the workspace, and creates the host.
 *
 * @throws {Error} when the configuration is invalid or the workspace does not exist
 */
export async function openExtensionWorkbench(
  request: WorkbenchRequest,
): Promise<ExtensionWorkbench> {
  const paths = resolvePaths(request.env, { config: request.config, cwd: request.cwd });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const workdir = await resolveWorkdir(request.cwd, request.workdir);
  const sources = await agentSources(paths, workdir);
  const agent = request.agent !== undefined
    ? await loadAgent(sources, request.agent)
    : request.defaultAgent === true
    ? await loadDefaultAgent(sources, config)
    : undefined;
  const hookOrder = runHookOrder({
    config: config.hooks,
    configFile: config.file,
    agent: agent ?? { path: "", hookEntries: [] },
  });
  // The sandbox a run of the agent (or of any agent, without --agent) would give its commands.
  const { sandbox } = await runSandbox({
    flag: undefined,
    config,
    agent: agent ?? { path: "" },
    paths,
    workdir,
    home: request.env("HOME") ?? paths.home,
  });
  const builtins = builtinTools(
    {
      autoApprove: request.autoApprove,
      guarded: guardedHomePaths(paths),
      home: paths.home,
    },
    undefined,
    sandbox,
  );
  const host = new ExtensionHost();
  const context = createExtensionContext({
    paths,
    workdir,
    sessionId: newSessionId(),
    modelRef: agent?.model ?? config.defaultModel ?? WORKBENCH_MODEL_REF,
    agent: agent ?? { id: WORKBENCH_AGENT_ID, frontmatter: {}, systemPrompt: "" },
    config: config.raw,
    policy: config.capabilityPolicy,
    secrets: request.secrets,
    autoApprove: request.autoApprove,
    ...(sandbox === null ? {} : { sandbox }),
    notice: request.notice,
    notify: request.notify,
  });
  return {
    dirs: {
      host,
      toolsDir: paths.toolsDir,
      hooksDir: paths.hooksDir,
      builtinToolNames: builtins.map((tool) => tool.name),
      exportsCacheDir: paths.exportsCacheDir,
      signal: request.signal,
    },
    builtins,
    context,
    workdir,
    ...(agent === undefined ? {} : { agent }),
    hookOrder,
    untrustedProject: await untrustedProjectOf(sources, paths.trustFile, workdir),
    [Symbol.dispose]: () => host.close(),
  };
}

/** Every user tool or hook of the home, checked, and the built-in tools (for `rienda tools|hooks`). */
export interface HomeExtensions {
  readonly catalog: ExtensionCatalog;
  readonly builtins: readonly Tool[];
  /** The folder listed: `$RIENDA_HOME/tools` or `$RIENDA_HOME/hooks`. */
  readonly dir: string;
  /** `extensions:` of `config.yaml`, for showing each extension's grant. */
  readonly policy: CapabilityPolicy;
}

/** Loads and checks every extension of `kind` in the rienda home. */
export async function loadHomeExtensions(
  request: Pick<WorkbenchRequest, "env" | "cwd" | "signal"> & {
    readonly config?: string | undefined;
  },
  kind: ExtensionKind,
): Promise<HomeExtensions> {
  const paths = resolvePaths(request.env, { config: request.config, cwd: request.cwd });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const builtins = builtinTools();
  using host = new ExtensionHost();
  const catalog = await loadExtensionCatalog({
    host,
    toolsDir: paths.toolsDir,
    hooksDir: paths.hooksDir,
    builtinToolNames: builtins.map((tool) => tool.name),
    exportsCacheDir: paths.exportsCacheDir,
    signal: request.signal,
  }, [kind]);
  return {
    catalog,
    builtins,
    dir: kind === "tool" ? paths.toolsDir : paths.hooksDir,
    policy: config.capabilityPolicy,
  };
}
