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

/** What every session of one `rienda acp` process runs (its flags). */
export interface AcpAgentOptions {
  /** `-a` / `-f` (absolute); absent: the default agent, or a loaded session's own. */
  readonly agent: AgentSpec | undefined;
  /** `-m`; absent: the agent's model (or a loaded session's). */
  readonly model: string | undefined;
  readonly config: string | undefined;
  /** `-y`: approve every confirmation without asking the editor. */
  readonly autoApprove: boolean;
  readonly env: (name: string) => string | undefined;
  /** The process's secrets (`Io.secrets`): every run masks with them. */
  readonly secrets: SecretSet;
}

/** A session this process serves. */
export interface ServedSession {
  readonly id: string;
  readonly conversation: InteractiveSession;
  /** Question keys the editor answered "Always allow" (`permission.ts`). */
  readonly always: Set<string>;
  /** The prompt running now: its interrupt and its end. */
  turn: { readonly controller: AbortController; readonly done: Promise<unknown> } | null;
}

/**
 * Opens session `id` in `workdir`: a new one whose first prompt stores it
 * under `id`, or (`stored`) the stored session `id`.
 *
 * @throws what `rienda run` would: an unknown agent, an unknown session…
 */
export async function openServedSession(
  id: string,
  workdir: string,
  options: AcpAgentOptions,
  stored: boolean,
): Promise<ServedSession> {
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
  });
  return { id, conversation, always: new Set(), turn: null };
}
