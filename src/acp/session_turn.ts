/**
 * One prompt of an ACP session: `prepareRun` + `runAgent` over the session,
 * as `rienda run -s ID` (or, for the first prompt of a new session,
 * `rienda run` with the id `session/new` returned) would run it, so a
 * session begun in an editor continues with `rienda run -s ID` and the
 * other way round.
 *
 * Lifetimes: the agent, the extension host and the MCP servers live for one
 * prompt; the session's lock is held while the prompt runs and released when
 * it ends, so nothing is held between prompts.
 *
 * @module
 */

import { prepareRun } from "../app/prepare_run.ts";
import type { ExtensionRunContext } from "../extensions/run_context.ts";
import type { EventSink } from "../engine/events.ts";
import type { EndReason } from "../engine/hooks.ts";
import { runAgent } from "../engine/run.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** What every session of one `rienda acp` process runs (its flags). */
export interface AcpAgentOptions {
  /** `-a` / `-f`; absent: the default agent for a new session, the session's own otherwise. */
  readonly agent: { readonly kind: "id"; readonly id: string } | {
    readonly kind: "file";
    readonly path: string;
  } | undefined;
  /** `-m`; absent: the agent's model (or the session's). */
  readonly model: string | undefined;
  readonly config: string | undefined;
  /** `-y`: approve every confirmation without asking the editor. */
  readonly autoApprove: boolean;
  readonly env: (name: string) => string | undefined;
  /** The process's secrets (`Io.secrets`): every run masks with them. */
  readonly secrets: SecretSet;
}

/** The session a prompt runs in. */
export interface TurnSession {
  readonly id: string;
  readonly workdir: string;
  /** Whether the session is on disk (loaded, or prompted before): the prompt continues it. */
  readonly stored: boolean;
}

/** What one prompt reports to the server. */
export interface TurnCallbacks {
  readonly emit: EventSink;
  readonly notice: (text: string) => void;
  readonly confirm: ExtensionRunContext["confirm"];
  readonly signal: AbortSignal;
}

/** How a prompt ended. */
export interface TurnEnd {
  readonly reason: EndReason;
  readonly error?: string | undefined;
  /** Whether the run stopped at the agent's `max_turns` (or none). */
  readonly maxTurnsReached: boolean;
  /** A `beforePrompt` hook refused the prompt (`error` says why): nothing was stored. */
  readonly promptRefused: boolean;
}

/**
 * Runs `prompt` in `session`; resolves when the run has ended and the
 * session file is closed.
 *
 * @throws what `prepareRun` throws (an unknown agent, no key for the model…),
 * before anything is stored
 */
export async function runSessionTurn(
  session: TurnSession,
  prompt: string,
  options: AcpAgentOptions,
  callbacks: TurnCallbacks,
): Promise<TurnEnd> {
  const { signal } = callbacks;
  await using plan = await prepareRun({
    agent: options.agent,
    continueSession: session.stored ? { kind: "id", id: session.id } : undefined,
    newSessionId: session.id,
    model: options.model,
    workdir: session.workdir,
    config: options.config,
    autoApprove: options.autoApprove,
    maxTurns: undefined,
    noSession: false,
    env: options.env,
    cwd: session.workdir,
    secrets: options.secrets,
    notice: callbacks.notice,
    confirm: callbacks.confirm,
    signal,
  });
  const outcome = await runAgent({ ...plan.options, emit: callbacks.emit, signal }, prompt);
  const promptRefused = outcome.promptRefused === true;
  if (outcome.reason === "error" && !promptRefused) {
    await plan.recordFailure(outcome.error ?? "the run failed");
  }
  const { maxTurns } = plan.options;
  return {
    reason: outcome.reason,
    error: outcome.error,
    maxTurnsReached: outcome.reason === "error" && maxTurns !== undefined &&
      outcome.turns >= maxTurns,
    promptRefused,
  };
}
