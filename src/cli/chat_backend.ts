/**
 * The interactive mode's backend: the chat's flags → an
 * `InteractiveSession` of `app/` (which composes and runs the turns), plus
 * what only the chat shows: the prompt history, `@` file completion, the
 * pickers, `/mcp`, `/hooks`, and the session operations of `/rewind`, `/tree` and
 * `/title`.
 *
 * @module
 */

import { agentFlag } from "./flags.ts";
import { agentSources } from "../agents/agent_sources.ts";
import { listRunnableAgents } from "../agents/catalog.ts";
import { type InteractiveSession, openInteractiveSession } from "../app/interactive_session.ts";
import { loadCredentials } from "../config/credentials.ts";
import { branchContext } from "../sessions/history.ts";
import { readSessionFile } from "../sessions/reader.ts";
import type { ChatBackend } from "../ui/interactive/backend.ts";
import type { Io } from "../ui/io.ts";
import { appendHistory, historyPath, loadHistory } from "./chat_history.ts";
import * as sessionOps from "./chat_sessions.ts";
import type { InteractiveFlags } from "./interactive_flags.ts";
import { listWorkspaceFiles } from "./chat_files.ts";
import { mcpStatusLines, seenServers, usedServers } from "./chat_mcp.ts";
import { modelChoices } from "./chat_models.ts";
import { modelRows } from "../app/model_rows.ts";
import { chatHooksCommand } from "./chat_hooks.ts";

/** What {@link createChatBackend} starts from. */
export interface ChatBackendOptions {
  readonly io: Io;
  readonly flags: InteractiveFlags;
}

/**
 * Opens the chat's session from its flags, so the first frame can show the
 * agent, model and session; fails like `rienda run` would (bad agent,
 * unknown session) before the terminal is touched.
 */
export async function createChatBackend(options: ChatBackendOptions): Promise<ChatBackend> {
  const { io, flags } = options;
  const session = await openInteractiveSession({
    env: io.env,
    cwd: io.cwd,
    secrets: io.secrets,
    workdir: flags.workdir,
    config: flags.config,
    agent: agentFlag(io.cwd, flags),
    model: flags.model,
    thinking: flags.thinking,
    session: flags.session !== undefined
      ? { kind: "id", id: flags.session }
      : flags.continueLatest
      ? { kind: "latest" }
      : undefined,
    record: flags.record,
    sandbox: flags.sandbox,
  });
  return chatBackend(session, io.env, flags.resume);
}

/** The chat's view of `session`; `resume`: `-r` (pick a session at the start). */
async function chatBackend(
  session: InteractiveSession,
  env: (name: string) => string | undefined,
  resume: boolean,
): Promise<ChatBackend> {
  const { workdir, paths, config } = session;
  const historyFile = await historyPath(paths.home, workdir);
  return {
    workdir,
    state: () => session.state(),
    runTurn: (prompt, handlers) => session.runTurn(prompt, handlers),
    compact: (handlers) => session.compact(handlers),
    async branchMessages() {
      if (session.state().sessionId === null) return [];
      return branchContext(await readSessionFile(await session.sessionFile())).messages;
    },
    async startChoices() {
      return resume ? await sessionOps.sessionChoices(paths.sessionsDir, workdir) : null;
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
      const rows = modelRows(config, env, await loadCredentials(paths.credentialsFile));
      return modelChoices(rows, config, session.state().model);
    },
    sessions: () => sessionOps.sessionChoices(paths.sessionsDir, workdir),
    async mcpStatus() {
      const definition = await session.agent();
      const uses = definition === null ? [] : usedServers(definition, config);
      const offered = session.offered();
      const seen = offered === null
        ? new Map<string, string>()
        : seenServers(Object.keys(config.mcpServers), offered.tools, offered.diagnostics);
      return mcpStatusLines(config, { id: session.state().agent, uses }, seen);
    },
    newSession: (agent) =>
      session.newSession(agent === undefined ? undefined : { kind: "id", id: agent }),
    resume: (id) => session.resume({ kind: "id", id }),
    setAgent: (id) => session.setAgent({ kind: "id", id }),
    setModel: (ref) => session.setModel(ref),
    setThinking: (level) => session.setThinking(level),
    prompts: async () => sessionOps.promptChoices(await session.sessionFile()),
    rewind: async (entryId) => sessionOps.rewindTo(await session.sessionFile(), entryId),
    branches: async () => sessionOps.branchChoices(await session.sessionFile()),
    async switchBranch(entryId) {
      const path = await session.sessionFile();
      await sessionOps.switchBranch(path, entryId);
      return branchContext(await readSessionFile(path)).messages;
    },
    setTitle: async (title) => sessionOps.setTitle(await session.sessionFile(), title),
    hooks: (argument) => chatHooksCommand(session, argument),
    dropSessionHooks: () => Promise.resolve(session.hooks.drop()),
    close: () => session.close(),
  };
}
