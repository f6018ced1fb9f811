/**
 * The composition root of a run: agent, configuration, model, key, tools,
 * hooks, workspace context (instructions, skills), compaction and session
 * (new, or continued with `-s`/`-c`) → the engine's `RunOptions`. Everything
 * that can fail before the first request fails here, before anything is written.
 *
 * @module
 */

import type { EditorFiles } from "../tools/editor_files.ts";
import { resolve } from "node:path";
import { agentSources } from "../agents/agent_sources.ts";
import { loadConfig, type McpServerSettings } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
import { resolvePaths } from "../config/paths.ts";
import type { RunOptions } from "../engine/run.ts";
import type { HookCallReport } from "../engine/hooks.ts";
import type { RunCassette } from "./cassette.ts";
import type { SecretSet } from "../secrets/secrets.ts";
import { newSessionId } from "../sessions/ids.ts";
import {
  loadWorkspaceContext,
  maskedContext,
  type RefuseFile,
  systemPromptWith,
} from "../workspace/context.ts";
import { type GuardedPath, guardOf } from "../tools/guarded_paths.ts";
import { guardedHomePaths } from "./extensions.ts";
import { createCompactor } from "./compactor.ts";
import { openContinuedSession, type SessionTarget } from "./continue_session.ts";
import type { ExtensionRunContext } from "../extensions/run_context.ts";
import { loadTargetAgent, targetModel } from "./run_target.ts";
import { openRunSession } from "./run_session.ts";
import { runModel } from "./run_model.ts";
import type { KeptTools } from "./kept_tools.ts";
import { homeWorkspaceWarning } from "./home_workspace.ts";
import { callableTools, loadRunTools } from "./run_tools.ts";
import { untrustedProjectOf } from "./run_hooks.ts";
import type { EventSink } from "../engine/events.ts";
import { AGENT_TOOL_NAME } from "../tools/agent.ts";
import { callableAgents, createDelegation, type ParentLink } from "./subagents.ts";
import { runSandbox } from "./run_sandbox.ts";
import type { SandboxMode, SandboxSetting } from "../sandbox/sandbox_setting.ts";
import type { SessionHook } from "../hooks/session_hook.ts";

/** What the user asked for. */
export interface RunRequest {
  /** `-a` / `-f`; absent: the session's agent when continuing one, else the agent `default`. */
  readonly agent: { readonly kind: "id"; readonly id: string } | {
    readonly kind: "file";
    readonly path: string;
  } | undefined;
  /** `-s ID` / `-c`: the session to continue; absent for a new session. */
  readonly continueSession?: SessionTarget | undefined;
  /**
   * The id of a new session, when the front end names it before its first
   * turn (an ACP editor gets it from `session/new`); absent: a fresh one.
   */
  readonly newSessionId?: string | undefined;
  readonly model: string | undefined;
  readonly workdir: string | undefined;
  readonly config: string | undefined;
  readonly autoApprove: boolean;
  readonly maxTurns: number | undefined;
  readonly noSession: boolean;
  /** The `--thinking` level; absent means off. */
  readonly thinking?: string | undefined;
  /**
   * The title of a new session when its first prompt would make a poor one
   * (words with standard input appended); a continued session keeps its own.
   */
  readonly title?: string | undefined;
  readonly env: (name: string) => string | undefined;
  readonly cwd: string;
  /**
   * The secrets the run masks tool results, the system prompt's project text
   * and failures with (`Io.secrets`); the keys it learns are remembered into them.
   */
  readonly secrets: SecretSet;
  /** Receives hook notices during the run (the front end makes them `notice` events). */
  readonly notice?: ((text: string) => void) | undefined;
  /** Receives one report per hook call (the front end makes them `hook` events). */
  readonly hookReport?: ((report: HookCallReport) => void) | undefined;
  /** Asks a person for `ctx.confirm`; absent when nobody can answer (then no, unless -y). */
  readonly confirm?: ExtensionRunContext["confirm"];
  /** Shows `ctx.notify`; absent without a UI. */
  readonly notify?: ExtensionRunContext["notify"];
  /** An editor's files, which `read`, `write` and `edit` go through (`tools/editor_files.ts`). */
  readonly editorFiles?: EditorFiles | undefined;
  /** MCP servers the front end adds to the agent's (an editor's), every tool offered. */
  readonly extraMcpServers?: readonly McpServerSettings[] | undefined;
  /** Aborts loading the extensions on interrupt. */
  readonly signal?: AbortSignal | undefined;
  /** `--record` / `--replay`: builds the model client, so its requests are recorded or replayed. */
  readonly cassette?: RunCassette | undefined;
  /** Where the events of subagents go, tagged with the parent's call id; absent: nowhere. */
  readonly subagentEvents?: EventSink | undefined;
  /** A subagent's run: the session and `agent` call it answers, and its depth. */
  readonly parent?: ParentLink | undefined;
  /** The model of an agent that names none (a subagent: its parent's). */
  readonly inheritModel?: string | undefined;
  /** `--sandbox MODE`: wins over the agent's and config.yaml's `sandbox:` (docs/sandbox.md). */
  readonly sandbox?: SandboxMode | undefined;
  /** A subagent's run: its parent's sandbox, which the child may tighten, never loosen. */
  readonly parentSandbox?: SandboxSetting | undefined;
  /** The tools a conversation keeps between its turns; absent: the run's own. */
  readonly kept?: KeptTools | undefined;
  /** The chat's own hooks (`/hooks add`); a subagent gets none. */
  readonly sessionHooks?: readonly SessionHook[] | undefined;
}

/** A prepared run; dispose it to release the session and the extension host. */
export interface RunPlan extends AsyncDisposable {
  readonly options: Omit<RunOptions, "emit" | "signal">;
  /** Tokens the model can read (for a front end's context-use display). */
  readonly contextWindow: number;
  /** The reasoning level the run asks for; undefined for none. */
  readonly thinking: string | undefined;
  /** Marks the session as ended by the run's `error`, when the run stored anything. */
  recordFailure(error: string): Promise<void>;
}

/** Resolves everything a run needs, or throws a message that names the fix. */
export async function prepareRun(request: RunRequest): Promise<RunPlan> {
  const paths = resolvePaths(
    request.env,
    request.config === undefined ? {} : { config: request.config },
  );
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const requestedWorkdir = await resolveWorkdir(request.cwd, request.workdir);
  // Releases a continued session's lock when preparing fails.
  await using failure = new AsyncDisposableStack();
  const continued = request.continueSession === undefined
    ? null
    : await openContinuedSession(paths.sessionsDir, requestedWorkdir, request.continueSession);
  if (continued !== null) failure.defer(() => continued.writer.close());
  // A full id may name a session of another workspace: the run works in that one.
  const workdir = continued?.workdir ?? requestedWorkdir;
  const sources = await agentSources(paths, workdir);
  const agentSpec = request.agent?.kind === "file"
    ? { kind: "file" as const, path: agentFilePath(request.cwd, request.agent.path) }
    // A model picks a subagent: an untrusted project's files never supply it.
    : request.agent && { ...request.agent, implicit: request.parent !== undefined };
  const agent = await loadTargetAgent({ config, sources }, agentSpec, continued);
  const credentials = await loadCredentials(paths.credentialsFile);
  const keys = { env: request.env, credentials };
  const target = {
    agent,
    ...targetModel({ config, ...keys }, agent, {
      model: request.model ?? (agent.model === undefined ? request.inheritModel : undefined),
      thinking: request.thinking,
    }, continued),
  };
  const { modelRef, thinking } = target;
  const { client: model, resolved } = runModel({
    config,
    ...keys,
    target,
    session: continued,
    cassette: request.cassette,
    secrets: request.secrets,
  });
  const sessionId = continued?.id ?? request.newSessionId ?? newSessionId();
  // The workspace context (instructions, skills, git) is read while the extensions load.
  const reading = loadWorkspaceContext(workdir, {
    environment: config.environmentContext,
    refuse: refusingOwnFiles(guardedHomePaths(paths)),
  });
  reading.catch(() => {}); // awaited below; a failure of the extensions must not leave it unhandled
  const delegates = agent.tools.includes(AGENT_TOOL_NAME)
    ? await callableAgents(sources, agent)
    : undefined;
  const confinement = await runSandbox({
    flag: request.sandbox,
    config,
    agent,
    paths,
    workdir,
    home: request.env("HOME") ?? paths.home,
    parent: request.parentSandbox,
  });
  // Refusals of tool calls go into the session once it is open (hooks run only during the run).
  let recordDenial: (report: HookCallReport) => void = () => {};
  const extensions = await loadRunTools({
    mcpServers: config.mcpServers,
    extraMcpServers: request.extraMcpServers,
    editorFiles: request.editorFiles,
    env: request.env,
    secrets: request.secrets,
    paths,
    agent,
    config: config.raw,
    configHooks: config.hooks,
    configFile: config.file,
    hookReport: (report) => {
      request.hookReport?.(report);
      recordDenial(report);
    },
    ...(request.sessionHooks === undefined ? {} : { sessionHooks: request.sessionHooks }),
    untrustedProject: await untrustedProjectOf(sources, paths.trustFile, workdir),
    policy: config.capabilityPolicy,
    workdir,
    sessionId,
    modelRef,
    autoApprove: request.autoApprove,
    ...(confinement.sandbox === null ? {} : { sandbox: confinement.sandbox }),
    notice: request.notice ?? (() => {}),
    ...(request.confirm === undefined ? {} : { confirm: request.confirm }),
    ...(request.notify === undefined ? {} : { notify: request.notify }),
    signal: request.signal ?? new AbortController().signal,
    delegation: delegates && createDelegation({
      agents: delegates.agents,
      sessionId,
      keepsSessions: !request.noSession,
      depth: request.parent?.depth ?? 0,
      limits: config.subagents,
      events: request.subagentEvents,
      // A child is prepared like any run, in this run's workspace, with this run's model as its default.
      prepare: (child) =>
        prepareRun({
          ...request,
          agent: { kind: "id", id: child.agent },
          continueSession: undefined,
          model: undefined,
          inheritModel: modelRef,
          workdir,
          maxTurns: undefined,
          thinking: undefined,
          title: child.title,
          notice: (text) => child.events({ type: "notice", text }),
          subagentEvents: child.events,
          parent: child.parent,
          parentSandbox: confinement.setting,
          signal: child.signal,
          // A conversation's kept tools are its own agent's: a child loads and stops its own.
          kept: undefined,
          sessionHooks: undefined,
        }),
    }),
    kept: request.kept,
  });
  failure.use(extensions);
  const workspace = await reading;
  const atHome = await homeWorkspaceWarning(workdir, request.env);
  const approval = {
    autoApprove: request.autoApprove,
    ...(request.confirm === undefined ? {} : { confirm: request.confirm }),
  };
  const { session, history, summary } = await openRunSession({
    sessionsDir: paths.sessionsDir,
    workdir,
    sessionId,
    continued,
    chosen: {
      agent: agent.id,
      agentFile: agentSpec === undefined
        ? continued?.branch.agentFile ?? null
        : agentSpec.kind === "file"
        ? agentSpec.path
        : null,
      model: modelRef,
      thinking: thinking ?? null,
    },
    noSession: request.noSession,
    title: request.title,
    parent: request.parent,
  });
  recordDenial = (report) => {
    if (report.outcome !== "deny" && report.outcome !== "failed_closed") return;
    // A refused prompt is neither sent nor stored: only tool calls are recorded.
    if (report.callId === undefined) return;
    const { point, hook, outcome, reason, callId } = report;
    session.recordHookDenial({
      point,
      hook,
      outcome,
      callId,
      ...(reason === undefined ? {} : { reason }),
    });
  };
  const compactor = config.compaction.enabled
    ? createCompactor({
      contextWindow: resolved.contextWindow,
      reserveTokens: config.compaction.reserveTokens,
      keepRecentTokens: config.compaction.keepRecentTokens,
      promptFile: paths.compactionPromptFile,
      record: (compaction) => session.recordCompaction(compaction),
    })
    : undefined;
  failure.move();
  const maxTurns = request.maxTurns ?? agent.maxTurns;
  return {
    contextWindow: resolved.contextWindow,
    thinking,
    recordFailure: (error) => session.recordFailure(error),
    options: {
      sessionId,
      agentId: agent.id,
      modelRef,
      // What the project's files say may hold keys (AGENTS.md -> .env): masked like a tool result.
      system: systemPromptWith(
        agent.systemPrompt,
        maskedContext(workspace, (text) => request.secrets.mask(text)),
      ),
      model,
      tools: callableTools(extensions.tools, agent, approval),
      hooks: extensions.hooks,
      // Every tool result is masked with the run's secrets (docs/security.md).
      redact: (text) => request.secrets.mask(text),
      session,
      history,
      ...(summary === undefined ? {} : { summary }),
      ...(compactor === undefined ? {} : { compactor }),
      workdir,
      diagnostics: [
        ...agent.warnings,
        ...(confinement.warning === undefined ? [] : [confinement.warning]),
        ...credentials.warnings,
        ...(continued?.warnings ?? []),
        ...extensions.diagnostics,
        ...(delegates?.diagnostics ?? []),
        ...workspace.diagnostics,
        ...(atHome === undefined ? [] : [atHome]),
      ],
      ...(maxTurns === undefined ? {} : { maxTurns }),
    },
    async [Symbol.asyncDispose]() {
      try {
        await session[Symbol.asyncDispose]?.();
      } finally {
        await extensions[Symbol.asyncDispose]();
      }
    },
  };
}

/**
 * Refuses rienda's own files as instructions or skills: a project holding the
 * home (rienda started in `~`) can link `AGENTS.md` to its credentials.
 */
function refusingOwnFiles(guarded: readonly GuardedPath[]): RefuseFile {
  return async (realPath) => {
    const guard = await guardOf(guarded, realPath);
    return guard === null ? null : `is ${guard.what}`;
  };
}

/** The absolute path of a `-f FILE`, as the session records it. */
function agentFilePath(cwd: string, path: string): string {
  return resolve(cwd, path);
}

/** The absolute workspace directory (`-C`, default the current directory); it must exist. */
export async function resolveWorkdir(cwd: string, workdir: string | undefined): Promise<string> {
  const path = resolve(cwd, workdir ?? ".");
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) return path;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  throw new Error(`workdir ${path} is not a directory: pass an existing directory with -C`);
}
