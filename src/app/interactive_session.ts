/**
 * A conversation a person holds over many turns: the chat's, and an
 * editor's (ACP). Open it once, run turns, compact, switch agent, model or
 * session, and close it.
 *
 * - Each turn runs exactly as `rienda run -s ID` (or, for the first turn of
 *   a new session, `rienda run -a AGENT`) would run it, so sessions started
 *   here continue with `rienda run -c` and the other way round. A turn takes
 *   the session's lock and releases it when it ends: between turns another
 *   process may continue the session.
 * - What the next turn will use (agent, model, reasoning level, context
 *   window) is known before it runs ({@link InteractiveSession.state}), from
 *   the same resolution `rienda run` makes (`run_target.ts`).
 * - Switching agent, model or reasoning level only changes what the next
 *   turn asks for; that turn writes the switch entries.
 * - The MCP servers and the extension host outlive the turns
 *   (`kept_tools.ts`) until {@link InteractiveSession.close}: a stateful MCP
 *   server keeps its state between messages. What they report (a notice,
 *   `ctx.confirm`, `ctx.notify`) goes to the turn running then; a notice
 *   between turns comes with the next one, a question between turns is no.
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import { agentSources } from "../agents/agent_sources.ts";
import { loadAgent } from "../agents/catalog.ts";
import { type Config, loadConfig, type McpServerSettings } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
import { resolvePaths, type RiendaPaths } from "../config/paths.ts";
import type { EventSink } from "../engine/events.ts";
import { runAgent } from "../engine/run.ts";
import { stoppedBy } from "../engine/hook_stop.ts";
import type { ExtensionRunContext } from "../extensions/run_context.ts";
import { EMPTY_USAGE, type Message, type Usage } from "../llm/messages.ts";
import { THINKING_OFF } from "../providers/thinking.ts";
import { findSessionFile, latestSessionFile, noSessionMessage } from "../sessions/catalog.ts";
import { branchContext } from "../sessions/history.ts";
import { readSessionFile } from "../sessions/reader.ts";
import { errorMessage } from "../base/unknown.ts";
import { openCassette } from "./cassette.ts";
import { compactRun } from "./compact_run.ts";
import { createKeptTools } from "./kept_tools.ts";
import { loadSessionAgent, type SessionTarget } from "./continue_session.ts";
import { prepareRun, resolveWorkdir, type RunPlan, type RunRequest } from "./prepare_run.ts";
import {
  type AgentSpec,
  loadTargetAgent,
  previewTarget,
  type TargetPreview,
  type TargetSession,
} from "./run_target.ts";
import { createSessionHookList, type SessionHookList } from "./session_hooks.ts";

/**
 * What {@link openInteractiveSession} starts from (the chat's flags, an
 * editor's request): the fields a run takes as `rienda run` reads them, and
 * what only a conversation has.
 */
export type InteractiveSessionOptions =
  & Pick<RunRequest, "env" | "cwd" | "secrets" | "newSessionId" | "editorFiles" | "sandbox">
  & Partial<Pick<RunRequest, "workdir" | "config" | "model" | "thinking">>
  & {
    /** `-a` / `-f` (an absolute path); absent: the session's, else `default_agent` or `default`. */
    readonly agent?: AgentSpec | undefined;
    /** `-s ID` / `-c`: the stored session to continue; absent for a new one. */
    readonly session?: SessionTarget | undefined;
    /** MCP servers started for every turn next to the agent's own (an editor's), every tool offered. */
    readonly mcpServers?: readonly McpServerSettings[] | undefined;
    /** `--record FILE`: one cassette for every turn (docs/testing.md). */
    readonly record?: string | undefined;
  };

/** What the next turn uses. */
export interface InteractiveState {
  /** The session turns append to; null before the first turn of a new session. */
  readonly sessionId: string | null;
  readonly agent: string;
  /** `provider/model` (or the name as given, when it does not resolve); "" when there is none. */
  readonly model: string;
  /** The reasoning level; null for off. */
  readonly thinking: string | null;
  /** The model's context window, when known. */
  readonly contextWindow: number | null;
}

/** What a turn reports to the person while it runs. */
export interface TurnIo {
  readonly emit: EventSink;
  /** Asks the person (`ctx.confirm`, a built-in tool's approval); false when `signal` aborts. */
  readonly confirm: NonNullable<ExtensionRunContext["confirm"]>;
  /** Shows a `ctx.notify` notice. */
  readonly notify: NonNullable<ExtensionRunContext["notify"]>;
  readonly signal: AbortSignal;
}

/** How a turn (or a compaction) ended. */
export interface TurnOutcome {
  readonly reason: "end_turn" | "interrupted" | "error" | "hook_stop";
  readonly error?: string | undefined;
  /** With `hook_stop`: `hook "x" stopped the run: <reason>`. */
  readonly stopped?: string;
  /** A neutral word on how it ended ("nothing to compact: …"). */
  readonly note?: string;
  readonly usage: Usage;
  /**
   * A `beforePrompt` hook refused the prompt (`error` says why) or stopped
   * the run there (`stopped`): nothing was sent or stored.
   */
  readonly promptRefused?: true;
  /** The run failed because it reached the agent's `max_turns`. */
  readonly maxTurnsReached?: boolean;
}

/** What the last turn's run offered: its tools' names and its load diagnostics. */
export interface OfferedTools {
  readonly tools: readonly { readonly name: string }[];
  readonly diagnostics: readonly string[];
}

/** A conversation over many turns; dispose it (or `close`) when the person leaves. */
export interface InteractiveSession extends AsyncDisposable {
  readonly workdir: string;
  readonly paths: RiendaPaths;
  /** config.yaml as read when the session opened. */
  readonly config: Config;
  state(): InteractiveState;
  /** Runs one turn on `prompt`; never throws (failures come back as `error`). */
  runTurn(prompt: string, io: TurnIo): Promise<TurnOutcome>;
  /** Summarises the older part of the conversation now; never throws. */
  compact(io: TurnIo): Promise<TurnOutcome>;
  /** The current agent's definition; null when it no longer loads. */
  agent(): Promise<AgentDefinition | null>;
  /** What the last turn offered; null before the first turn. */
  offered(): OfferedTools | null;
  /** The current session's file; throws before the first turn of a new session. */
  sessionFile(): Promise<string>;
  /** Starts a new session (its file appears with the first message), with `agent` or the current one. */
  newSession(agent?: AgentSpec): Promise<void>;
  /** Continues a stored session; resolves to its branch's messages. */
  resume(target: SessionTarget): Promise<Message[]>;
  /** Uses `agent` from the next turn on. */
  setAgent(agent: AgentSpec): Promise<void>;
  /** Uses model `ref` from the next turn on. */
  setModel(ref: string): void;
  /** Uses reasoning level `level` (null: off) from the next turn on. */
  setThinking(level: string | null): void;
  /** The hooks this conversation added (`/hooks add`), for its next turns; `newSession` drops them. */
  readonly hooks: SessionHookList;
  close(): Promise<void>;
}

/**
 * Resolves the workspace, the agent and the session to continue, so a front
 * end can show them; fails like `rienda run` would (bad agent, unknown
 * session) before the first turn.
 */
export async function openInteractiveSession(
  options: InteractiveSessionOptions,
): Promise<InteractiveSession> {
  const { env, cwd } = options;
  const paths = resolvePaths(env, options.config === undefined ? {} : { config: options.config });
  const workdir = await resolveWorkdir(cwd, options.workdir);
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const cassette = await openCassette(cwd, { record: options.record });
  // Read once, for what the state shows before a turn; each turn reads them again.
  const credentials = await loadCredentials(paths.credentialsFile);
  const keys = { config, env, credentials };
  const inputs = async () => ({ ...keys, sources: await agentSources(paths, workdir) });
  const chat = {
    /** The stored session the next turn continues; null for a new one. */
    stored: null as TargetSession | null,
    /** The agent the next turn asks for; undefined: the session's. */
    agent: options.agent,
    agentId: "",
    definition: null as AgentDefinition | null,
    model: options.model,
    thinking: options.thinking,
    preview: { modelRef: "", thinking: null, contextWindow: null } as TargetPreview,
    offered: null as OfferedTools | null,
    /** The id the first turn of the new session takes, when the front end named it. */
    newId: options.newSessionId,
  };

  const hooks = createSessionHookList();

  function refresh(): void {
    chat.preview = previewTarget(keys, chat.definition, {
      model: chat.model,
      thinking: chat.thinking,
    }, chat.stored);
  }

  /** Uses `spec`, or (undefined) the agent that runs when none is named. */
  async function useAgent(spec: AgentSpec | undefined): Promise<void> {
    const definition = await loadTargetAgent(await inputs(), spec, null);
    chat.agent = spec ?? { kind: "id", id: definition.id };
    chat.agentId = definition.id;
    chat.definition = definition;
    refresh();
  }

  async function useSession(target: SessionTarget): Promise<Message[]> {
    const file = target.kind === "id"
      ? await findSessionFile(paths.sessionsDir, workdir, target.id)
      : await latestSessionFile(paths.sessionsDir, workdir);
    if (file === null) {
      throw new Error(await noSessionMessage(paths.sessionsDir, workdir, "rienda"));
    }
    const data = await readSessionFile(file.path);
    const branch = branchContext(data);
    chat.stored = { id: data.header.id, branch };
    chat.agent = undefined;
    chat.agentId = branch.agent;
    chat.thinking = options.thinking;
    // The turn says what is wrong with an agent that no longer loads.
    chat.definition = await loadSessionAgent((await inputs()).sources, chat.stored)
      .catch(() => null);
    refresh();
    return branch.messages;
  }

  async function sessionFile(): Promise<string> {
    if (chat.stored === null) throw new Error("the session has no messages yet");
    return (await findSessionFile(paths.sessionsDir, workdir, chat.stored.id)).path;
  }

  const kept = createKeptTools();
  /** The turn running now: what the kept tools and hooks report to. */
  let current: TurnIo | null = null;
  /** Notices that came between turns (an MCP server that died), shown with the next one. */
  const between: string[] = [];
  const notice = (text: string) => {
    if (current === null) between.push(text);
    else current.emit({ type: "notice", text });
  };

  /** Runs `task` as the current turn. */
  async function asTurn(io: TurnIo, task: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
    current = io;
    for (const text of between.splice(0)) io.emit({ type: "notice", text });
    try {
      return await task();
    } catch (error) {
      return failed(error, io.signal);
    } finally {
      current = null;
    }
  }

  const request = (io: TurnIo): RunRequest => ({
    agent: chat.agent,
    continueSession: chat.stored === null ? undefined : { kind: "id", id: chat.stored.id },
    newSessionId: chat.stored === null ? chat.newId : undefined,
    extraMcpServers: options.mcpServers,
    editorFiles: options.editorFiles,
    model: chat.model,
    workdir,
    config: options.config,
    // Questions go to the person; `-y` is answered (and shown) by the front end.
    autoApprove: false,
    maxTurns: undefined,
    noSession: false,
    thinking: chat.thinking,
    sandbox: options.sandbox,
    env,
    cwd,
    secrets: options.secrets,
    // The kept tools and hooks were loaded by an earlier turn: they ask and tell the current one.
    notice,
    confirm: (question, signal) => current?.confirm(question, signal) ?? Promise.resolve(false),
    notify: (shown) => current?.notify(shown),
    subagentEvents: (event) => current?.emit(event),
    signal: io.signal,
    cassette,
    kept,
    sessionHooks: hooks.list(),
  });

  /** What the state shows once a turn has prepared its run. */
  function ran(plan: RunPlan): void {
    const { options: run } = plan;
    const agentFile = chat.agent?.kind === "file"
      ? chat.agent.path
      : chat.agent === undefined
      ? chat.stored?.branch.agentFile ?? null
      : null;
    chat.stored = {
      id: run.sessionId,
      branch: {
        agent: run.agentId,
        agentFile,
        model: run.modelRef,
        thinking: plan.thinking ?? null,
      },
    };
    chat.agentId = run.agentId;
    chat.offered = { tools: run.tools, diagnostics: run.diagnostics };
    refresh();
  }

  const failed = (error: unknown, signal: AbortSignal): TurnOutcome =>
    signal.aborted
      ? { reason: "interrupted", usage: EMPTY_USAGE }
      : { reason: "error", error: errorMessage(error), usage: EMPTY_USAGE };

  const nothing = (why: string, usage: Usage = EMPTY_USAGE): TurnOutcome => ({
    reason: "end_turn",
    usage,
    note: `nothing to compact: ${why}`,
  });

  if (options.session !== undefined) await useSession(options.session);
  if (options.agent !== undefined || options.session === undefined) {
    // Nothing named an agent: default_agent of config.yaml, else `default`, as rienda run takes.
    await useAgent(options.agent);
  }

  const close = async () => await kept[Symbol.asyncDispose]();
  return {
    workdir,
    paths,
    config,
    state: () => ({
      sessionId: chat.stored?.id ?? null,
      agent: chat.agentId,
      model: chat.preview.modelRef,
      thinking: chat.preview.thinking,
      contextWindow: chat.preview.contextWindow,
    }),
    runTurn: (prompt, io) =>
      asTurn(io, async () => {
        await using plan = await prepareRun(request(io));
        const stored = chat.stored;
        ran(plan);
        const run = { ...plan.options, emit: io.emit, signal: io.signal };
        const outcome = await runAgent(run, prompt);
        if (outcome.reason === "hook_stop") {
          const { stop } = outcome;
          // Stopped before the prompt was stored: as for a refusal, no session was made.
          if (stop.point === "beforePrompt") chat.stored = stored;
          refresh();
          return {
            reason: "hook_stop",
            stopped: stoppedBy(stop),
            usage: outcome.usage,
            ...(stop.point === "beforePrompt" ? { promptRefused: true } : {}),
          };
        }
        if (outcome.promptRefused === true) {
          // Nothing was stored: a new session is still to be created by the next message.
          chat.stored = stored;
          refresh();
          return {
            reason: "error",
            error: outcome.error,
            usage: outcome.usage,
            promptRefused: true,
          };
        }
        if (outcome.reason === "error") await plan.recordFailure(outcome.error ?? "the run failed");
        const { maxTurns } = plan.options;
        return {
          reason: outcome.reason,
          error: outcome.error,
          usage: outcome.usage,
          maxTurnsReached: outcome.reason === "error" && maxTurns !== undefined &&
            outcome.turns >= maxTurns,
        };
      }),
    compact: (io) =>
      asTurn(io, async () => {
        if (chat.stored === null) return nothing("the session has no messages yet");
        await using plan = await prepareRun(request(io));
        const { usage, note } = await compactRun(plan.options, io.emit, io.signal);
        return note === undefined ? { reason: "end_turn", usage } : nothing(note, usage);
      }),
    async agent() {
      chat.definition ??= await loadAgent((await inputs()).sources, chat.agentId)
        .catch(() => null);
      return chat.definition;
    },
    offered: () => chat.offered,
    sessionFile,
    async newSession(agent) {
      hooks.drop();
      chat.stored = null;
      chat.newId = undefined;
      chat.thinking = options.thinking;
      chat.offered = null;
      await useAgent(agent ?? chat.agent ?? { kind: "id", id: chat.agentId });
    },
    resume: (id) => useSession(id),
    setAgent: (agent) => useAgent(agent),
    setModel(ref) {
      chat.model = ref;
      refresh();
    },
    setThinking(level) {
      chat.thinking = level ?? THINKING_OFF;
      refresh();
    },
    hooks,
    close,
    [Symbol.asyncDispose]: close,
  };
}
