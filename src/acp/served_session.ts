/**
 * One session an editor opened: an {@link InteractiveSession} (the chat's
 * kind of conversation, `app/interactive_session.ts`), the prompt running in
 * it, and the answers the editor gave "always" to.
 *
 * Lifetimes: the session lives until the editor disconnects; what a prompt
 * loads (the agent, its extensions and MCP servers, the session's lock) is
 * as the interactive session decides, released between prompts today.
 *
 * @module
 */

import type { AgentSpec } from "../app/run_target.ts";
import { type InteractiveSession, openInteractiveSession } from "../app/interactive_session.ts";
import type { SessionTarget } from "../app/continue_session.ts";
import type { SecretSet } from "../secrets/secrets.ts";
import type { McpServerSettings } from "../config/mcp_servers.ts";
import type { SandboxMode } from "../sandbox/sandbox_setting.ts";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { branchContext } from "../sessions/history.ts";
import { readSessionFile } from "../sessions/reader.ts";
import { replayUpdates } from "./replay.ts";
import type { ClientFiles } from "./client_files.ts";

/** What every session of one `rienda acp` process runs (its flags). */
export interface AcpAgentOptions {
  /** `-a` / `-f` (absolute); absent: the default agent, or a loaded session's own. */
  readonly agent: AgentSpec | undefined;
  /** `-m`; absent: the agent's model (or a loaded session's). */
  readonly model: string | undefined;
  readonly config: string | undefined;
  /** `-y`: approve every confirmation without asking the editor. */
  readonly autoApprove: boolean;
  /** `--sandbox MODE`: every prompt's commands (docs/sandbox.md). */
  readonly sandbox?: SandboxMode | undefined;
  readonly env: (name: string) => string | undefined;
  /** The process's secrets (`Io.secrets`): every run masks with them. */
  readonly secrets: SecretSet;
}

/** A session this process serves. */
export interface ServedSession {
  readonly id: string;
  readonly conversation: InteractiveSession;
  /** The editor's files, when it advertises them (`client_files.ts`). */
  readonly files: ClientFiles | null;
  /** Question keys the editor answered "Always allow" (`permission.ts`). */
  readonly always: Set<string>;
  /** The prompt running now: its interrupt and its end. */
  turn: { readonly controller: AbortController; readonly done: Promise<unknown> } | null;
}

/** Where and how a served session opens. */
export interface OpenServedSession {
  readonly id: string;
  /** The `cwd` of `session/new` or `session/load`. */
  readonly workdir: string;
  /** Whether the session is stored (`session/load`), else new. */
  readonly stored: boolean;
  /** The editor's MCP servers, started for every prompt next to the agent's. */
  readonly mcpServers: readonly McpServerSettings[];
  /** The editor's files, which `read`, `write` and `edit` go through. */
  readonly files: ClientFiles | null;
}

/**
 * Opens a new session whose first prompt stores it under `id`, or the
 * stored session `id`.
 *
 * @throws what `rienda run` would: an unknown agent, an unknown session…
 */
export async function openServedSession(
  open: OpenServedSession,
  options: AcpAgentOptions,
): Promise<ServedSession> {
  const { id, workdir, stored } = open;
  const session: SessionTarget | undefined = stored ? { kind: "id", id } : undefined;
  const conversation = await openInteractiveSession({
    env: options.env,
    secrets: options.secrets,
    cwd: workdir,
    config: options.config,
    agent: options.agent,
    model: options.model,
    session,
    newSessionId: stored ? undefined : id,
    mcpServers: open.mcpServers,
    sandbox: options.sandbox,
    editorFiles: open.files ?? undefined,
  });
  return { id, conversation, files: open.files, always: new Set(), turn: null };
}

/** The updates that show a loaded session's active branch again (`replay.ts`). */
export async function storedUpdates(session: ServedSession): Promise<SessionUpdate[]> {
  const data = await readSessionFile(await session.conversation.sessionFile());
  const branch = branchContext(data);
  return replayUpdates(
    branch.messages,
    branch.compaction?.summary ?? null,
    session.conversation.workdir,
  );
}
