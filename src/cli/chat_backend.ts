/**
 * The interactive mode's backend: each turn is one `prepareRun` + `runAgent`
 * over the chat's session, exactly as `rienda run -s ID` (or `-a AGENT` for
 * the first turn of a new session) would run it, so sessions started here
 * continue with `rienda run -c` and the other way round.
 *
 * - Between turns nothing is held: each turn takes the session's lock and
 *   releases it when it ends.
 * - `/agent`, `/model` and `/thinking` only change what the next turn asks
 *   for; that turn writes the switch entries, as `rienda run -s ID -m …` does.
 *
 * @module
 */

import { resolve } from "node:path";
import { type AgentDefinition, loadAgentFile } from "../agents/agent_file.ts";
import { agentSources } from "../agents/agent_sources.ts";
import { listRunnableAgents, loadAgent } from "../agents/catalog.ts";
import { loadDefaultAgent } from "../app/default_agent.ts";
import { prepareRun, resolveWorkdir, type RunRequest } from "../app/prepare_run.ts";
import { agentModel } from "../app/agent_model.ts";
import { fullModelRef, resolveModel } from "../app/resolve_model.ts";
import { openCassette } from "../app/cassette.ts";
import type { SessionTarget } from "../app/continue_session.ts";
import { loadConfig } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
import { resolvePaths } from "../config/paths.ts";
import { createRunContext } from "../engine/compaction.ts";
import { runAgent } from "../engine/run.ts";
import { EMPTY_USAGE, type Message } from "../llm/messages.ts";
import { findSessionFile, latestSessionFile, noSessionMessage } from "../sessions/catalog.ts";
import { branchContext } from "../sessions/history.ts";
import { readSessionFile } from "../sessions/reader.ts";
import type {
  ChatBackend,
  ChatState,
  TurnHandlers,
  TurnResult,
} from "../ui/interactive/backend.ts";
import type { Io } from "../ui/io.ts";
import { errorMessage } from "../base/unknown.ts";
import { appendHistory, historyPath, loadHistory } from "./chat_history.ts";
import * as sessionOps from "./chat_sessions.ts";
import type { InteractiveFlags } from "./interactive_flags.ts";
import { listWorkspaceFiles } from "./chat_files.ts";
import { type McpSeen, mcpStatusLines, seenServers, usedServers } from "./chat_mcp.ts";
import { modelChoices } from "./chat_models.ts";
import { modelRows } from "./models.ts";

/** The agent a new session runs: an id of the agents folder or a file. */
type AgentSpec =
  | { readonly kind: "id"; readonly id: string }
  | { readonly kind: "file"; readonly path: string };

/** What {@link createChatBackend} starts from. */
export interface ChatBackendOptions {
  readonly io: Io;
  readonly flags: InteractiveFlags;
}

/**
 * Resolves the workspace, the agent and the session to continue, so the
 * first frame can show them; fails like `rienda run` would (bad agent,
 * unknown session) before the terminal is touched.
 */
export async function createChatBackend(options: ChatBackendOptions): Promise<ChatBackend> {
  const { io, flags } = options;
  const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
  const workdir = await resolveWorkdir(io.cwd, flags.workdir);
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  // One cassette for the whole chat: each turn appends its exchanges (docs/testing.md).
  const cassette = await openCassette(io.cwd, { record: flags.record });
  const chat = {
    sessionId: null as string | null,
    agent: undefined as AgentSpec | undefined,
    agentId: "",
    model: flags.model ?? null,
    shownModel: "",
    thinking: flags.thinking ?? null,
    contextWindow: null as number | null,
    /** The agent's definition, once loaded (a resumed session's is loaded when asked for). */
    definition: null as AgentDefinition | null,
    /** What the last message's run offered of each MCP server. */
    mcpSeen: new Map<string, string>() as McpSeen,
  };
  const historyFile = await historyPath(paths.home, workdir);
  // Read once, for what the status line shows before a turn; each turn reads them again.
  const credentials = await loadCredentials(paths.credentialsFile);

  /** Uses `spec`, or (`default`) the agent that runs when none is named. */
  async function useAgent(spec: AgentSpec | { readonly kind: "default" }): Promise<void> {
    const definition = spec.kind === "file"
      ? await loadAgentFile(spec.path)
      : spec.kind === "id"
      ? await loadAgent(await agentSources(paths, workdir), spec.id)
      : await loadDefaultAgent(await agentSources(paths, workdir), config);
    chat.agent = spec.kind === "default" ? { kind: "id", id: definition.id } : spec;
    chat.agentId = definition.id;
    chat.definition = definition;
    if (chat.sessionId === null) {
      chat.shownModel = answeringModel(chat.model ?? definition.model);
      chat.contextWindow = chat.shownModel === "" ? null : contextWindowOf(chat.shownModel);
    }
  }

  /**
   * The `provider/model` a new session's first turn will use, as `rienda run`
   * works it out (`-m`, the agent's, `default_model`, the first provider with
   * a key; bare names resolved), for the status line; "" when there is none.
   */
  function answeringModel(named: string | undefined): string {
    const ref = agentModel(named, config, { env: io.env, credentials })?.ref;
    if (ref === undefined) return "";
    try {
      return fullModelRef(config, ref);
    } catch {
      return ref; // the turn says what is wrong with it
    }
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
    chat.sessionId = data.header.id;
    chat.agent = undefined;
    chat.agentId = branch.agent;
    chat.definition = null;
    chat.shownModel = chat.model === null ? branch.model : answeringModel(chat.model);
    chat.thinking = flags.thinking ?? branch.thinking;
    chat.contextWindow = contextWindowOf(chat.shownModel);
    return branch.messages;
  }

  /** The context window of `ref` for the status line; null when unknown. */
  function contextWindowOf(ref: string): number | null {
    try {
      return resolveModel(config, ref, { env: io.env, credentials }).contextWindow;
    } catch {
      return null; // the turn says what is wrong with the model
    }
  }

  async function sessionPath(): Promise<string> {
    if (chat.sessionId === null) throw new Error("the session has no messages yet");
    return (await findSessionFile(paths.sessionsDir, workdir, chat.sessionId)).path;
  }

  const request = (signal: AbortSignal, handlers: TurnHandlers): RunRequest => ({
    agent: chat.agent,
    continueSession: chat.sessionId === null ? undefined : { kind: "id", id: chat.sessionId },
    model: chat.model ?? undefined,
    workdir,
    config: flags.config,
    // Questions go to the person; `-y` is answered (and shown) by the UI.
    autoApprove: false,
    maxTurns: undefined,
    noSession: false,
    thinking: chat.thinking ?? undefined,
    env: io.env,
    cwd: io.cwd,
    notice: (text) => handlers.emit({ type: "notice", text }),
    confirm: handlers.confirm,
    notify: handlers.notify,
    signal,
    cassette,
  });

  const failed = (error: unknown, signal: AbortSignal): TurnResult =>
    signal.aborted
      ? { reason: "interrupted", usage: EMPTY_USAGE }
      : { reason: "error", error: errorMessage(error), usage: EMPTY_USAGE };

  if (flags.session !== undefined) await useSession({ kind: "id", id: flags.session });
  else if (flags.continueLatest) await useSession({ kind: "latest" });
  if (flags.agent !== undefined) await useAgent({ kind: "id", id: flags.agent });
  else if (flags.agentFile !== undefined) {
    await useAgent({ kind: "file", path: resolve(io.cwd, flags.agentFile) });
  }
  // Nothing named an agent: default_agent of config.yaml, else `default` (built in unless
  // agents/default.md replaces it), as rienda run takes.
  if (chat.agentId === "") await useAgent({ kind: "default" });

  return {
    workdir,
    state(): ChatState {
      return {
        sessionId: chat.sessionId,
        agent: chat.agentId,
        model: chat.shownModel,
        thinking: chat.thinking,
        contextWindow: chat.contextWindow,
      };
    },
    async runTurn(prompt, handlers) {
      const { signal } = handlers;
      try {
        await using plan = await prepareRun(request(signal, handlers));
        chat.sessionId = plan.options.sessionId;
        chat.agentId = plan.options.agentId;
        chat.shownModel = plan.options.modelRef;
        chat.contextWindow = plan.contextWindow;
        chat.mcpSeen = seenServers(
          Object.keys(config.mcpServers),
          plan.options.tools,
          plan.options.diagnostics,
        );
        const outcome = await runAgent({ ...plan.options, emit: handlers.emit, signal }, prompt);
        if (outcome.reason === "error") await plan.recordFailure(outcome.error ?? "the run failed");
        return { reason: outcome.reason, error: outcome.error, usage: outcome.usage };
      } catch (error) {
        return failed(error, signal);
      }
    },
    async compact(handlers) {
      const { signal } = handlers;
      try {
        const nothing = (why: string): TurnResult => ({
          reason: "end_turn",
          usage: EMPTY_USAGE,
          note: `nothing to compact: ${why}`,
        });
        if (chat.sessionId === null) return nothing("the session has no messages yet");
        await using plan = await prepareRun(request(signal, handlers));
        const { compactor } = plan.options;
        if (compactor === undefined) {
          return nothing("compaction is disabled (compaction.enabled in config.yaml)");
        }
        let compacted = false;
        const context = createRunContext({
          history: plan.options.history,
          summary: plan.options.summary ?? null,
          // Sizes of zero: whatever the conversation's size, it is over the limit now.
          compactor: {
            ...compactor,
            settings: { ...compactor.settings, contextWindow: 0, reserveTokens: 0 },
          },
          model: plan.options.model,
          emit: (event) => {
            if (event.type === "compaction") compacted = true;
            handlers.emit(event);
          },
          signal,
        });
        const tools = plan.options.tools.map(({ name, description, parameters }) => ({
          name,
          description,
          parameters,
        }));
        const { usage } = await context.prepare(plan.options.system, tools);
        if (!compacted) {
          return {
            ...nothing(
              "the conversation is shorter than compaction.keep_recent_tokens keeps whole",
            ),
            usage: usage ?? EMPTY_USAGE,
          };
        }
        return { reason: "end_turn", usage: usage ?? EMPTY_USAGE };
      } catch (error) {
        return failed(error, signal);
      }
    },
    async branchMessages(): Promise<Message[]> {
      if (chat.sessionId === null) return [];
      return branchContext(await readSessionFile(await sessionPath())).messages;
    },
    async startChoices() {
      return flags.resume ? await sessionOps.sessionChoices(paths.sessionsDir, workdir) : null;
    },
    history: () => loadHistory(historyFile),
    remember(prompt) {
      void appendHistory(historyFile, prompt);
    },
    files: (folder) => listWorkspaceFiles(workdir, folder),
    async agents() {
      const { agents } = await listRunnableAgents(await agentSources(paths, workdir));
      return agents.map((agent) => ({
        value: agent.id,
        label: agent.id,
        detail: `${agent.description}${agent.model === undefined ? "" : ` · ${agent.model}`}`,
      }));
    },
    async models() {
      const rows = modelRows(config, io.env, await loadCredentials(paths.credentialsFile));
      return modelChoices(rows, config, chat.shownModel);
    },
    sessions: () => sessionOps.sessionChoices(paths.sessionsDir, workdir),
    async mcpStatus() {
      chat.definition ??= await loadAgent(await agentSources(paths, workdir), chat.agentId)
        .catch(() => null);
      const uses = chat.definition === null ? [] : usedServers(chat.definition, config);
      return mcpStatusLines(config, { id: chat.agentId, uses }, chat.mcpSeen);
    },
    async newSession(agent) {
      chat.sessionId = null;
      chat.contextWindow = null;
      chat.thinking = flags.thinking ?? null;
      if (agent !== undefined) await useAgent({ kind: "id", id: agent });
      else if (chat.agent === undefined) await useAgent({ kind: "id", id: chat.agentId });
      else await useAgent(chat.agent);
    },
    resume: (id) => useSession({ kind: "id", id }),
    setAgent: (id) => useAgent({ kind: "id", id }),
    setModel(ref) {
      chat.model = ref;
      chat.shownModel = answeringModel(ref);
      chat.contextWindow = contextWindowOf(chat.shownModel);
    },
    setThinking(level) {
      chat.thinking = level;
    },
    prompts: async () => sessionOps.promptChoices(await sessionPath()),
    rewind: async (entryId) => sessionOps.rewindTo(await sessionPath(), entryId),
    branches: async () => sessionOps.branchChoices(await sessionPath()),
    async switchBranch(entryId) {
      const path = await sessionPath();
      await sessionOps.switchBranch(path, entryId);
      return branchContext(await readSessionFile(path)).messages;
    },
    setTitle: async (title) => sessionOps.setTitle(await sessionPath(), title),
  };
}
