/**
 * The interactive mode's backend: each turn is one `prepareRun` + `runAgent`
 * over the chat's session, exactly as `rienda run -s ID` (or `-a AGENT` for
 * the first turn of a new session) would run it, so sessions started here
 * continue with `rienda run -c` and the other way round.
 *
 * Between turns nothing is held: the session's lock is taken by each turn
 * and released when it ends.
 *
 * @module
 */

import { resolve } from "node:path";
import { loadAgentFile } from "../agents/agent_file.ts";
import { loadAgent } from "../agents/catalog.ts";
import { prepareRun, resolveWorkdir } from "../app/prepare_run.ts";
import type { SessionTarget } from "../app/continue_session.ts";
import { loadConfig } from "../config/config.ts";
import { resolvePaths, type RiendaPaths } from "../config/paths.ts";
import { runAgent } from "../engine/run.ts";
import { EMPTY_USAGE, type Message } from "../llm/messages.ts";
import { findSessionFile, latestSessionFile } from "../sessions/catalog.ts";
import { branchContext } from "../sessions/history.ts";
import { readSessionFile } from "../sessions/reader.ts";
import type { ChatBackend, ChatState } from "../ui/interactive/backend.ts";
import type { Io } from "../ui/io.ts";
import { errorMessage } from "../unknown.ts";
import type { InteractiveFlags } from "./interactive.ts";
import { UsageError } from "./exit.ts";

/** The agent a new session runs: an id of the agents folder or a file. */
export type AgentSpec =
  | { readonly kind: "id"; readonly id: string }
  | { readonly kind: "file"; readonly path: string };

/** What {@link createChatBackend} starts from. */
export interface ChatBackendOptions {
  readonly io: Io;
  readonly flags: InteractiveFlags;
  /** The process's interrupt. */
  readonly signal: AbortSignal;
}

/** The mutable part of the chat. */
interface ChatSession {
  sessionId: string | null;
  agent: AgentSpec | undefined;
  agentId: string;
  /** `-m` or `/model`: passed to every turn; null keeps the session's or the agent's. */
  model: string | null;
  /** The model shown before the first turn tells the real one. */
  shownModel: string;
  thinking: string | null;
  contextWindow: number | null;
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
  const agent: AgentSpec | undefined = flags.agent !== undefined
    ? { kind: "id", id: flags.agent }
    : flags.agentFile !== undefined
    ? { kind: "file", path: resolve(io.cwd, flags.agentFile) }
    : undefined;
  const target: SessionTarget | undefined = flags.session !== undefined
    ? { kind: "id", id: flags.session }
    : flags.continueLatest
    ? { kind: "latest" }
    : undefined;
  const chat: ChatSession = {
    sessionId: null,
    agent,
    agentId: "",
    model: flags.model ?? null,
    shownModel: flags.model ?? config.defaultModel ?? "",
    thinking: flags.thinking ?? null,
    contextWindow: null,
  };
  if (target !== undefined) {
    const session = await readTarget(paths, workdir, target);
    chat.sessionId = session.id;
    chat.agentId = session.agent;
    chat.shownModel = flags.model ?? session.model;
    chat.thinking = flags.thinking ?? session.thinking;
  }
  if (agent !== undefined) {
    const definition = agent.kind === "id"
      ? await loadAgent(paths.agentsDir, agent.id)
      : await loadAgentFile(agent.path);
    chat.agentId = definition.id;
    if (target === undefined) chat.shownModel = flags.model ?? definition.model ?? chat.shownModel;
  }
  if (agent === undefined && target === undefined) {
    throw new UsageError("no agent: pass -a AGENT, -f FILE, -s SESSION or -c");
  }

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
        await using plan = await prepareRun({
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
        });
        chat.sessionId = plan.options.sessionId;
        chat.agentId = plan.options.agentId;
        chat.shownModel = plan.options.modelRef;
        chat.contextWindow = plan.contextWindow;
        const outcome = await runAgent({ ...plan.options, emit: handlers.emit, signal }, prompt);
        return { reason: outcome.reason, error: outcome.error, usage: outcome.usage };
      } catch (error) {
        return signal.aborted
          ? { reason: "interrupted", usage: EMPTY_USAGE }
          : { reason: "error", error: errorMessage(error), usage: EMPTY_USAGE };
      }
    },
    async branchMessages(): Promise<Message[]> {
      if (chat.sessionId === null) return [];
      const file = await findSessionFile(paths.sessionsDir, workdir, chat.sessionId);
      return branchContext(await readSessionFile(file.path)).messages;
    },
  };
}

/** The session `-s`/`-c` names, read without taking its lock (each turn takes it). */
async function readTarget(
  paths: RiendaPaths,
  workdir: string,
  target: SessionTarget,
): Promise<{ id: string; agent: string; model: string; thinking: string | null }> {
  const file = target.kind === "id"
    ? await findSessionFile(paths.sessionsDir, workdir, target.id)
    : await latestSessionFile(paths.sessionsDir, workdir);
  if (file === null) {
    throw new Error(
      `no session to continue in ${workdir} (start one with rienda -a AGENT, or pass -C DIR)`,
    );
  }
  const data = await readSessionFile(file.path);
  const branch = branchContext(data);
  return {
    id: data.header.id,
    agent: branch.agent,
    model: branch.model,
    thinking: branch.thinking,
  };
}
