/**
 * A {@link ChatBackend} over one still loading, so the first frame (the
 * editor and the status line) is drawn before the engine, the providers and
 * the agent have loaded: every call waits for the real backend, and until it
 * is there {@link ChatState} is a placeholder (`starting…`).
 *
 * @module
 */

import type { ChatBackend, ChatState } from "./backend.ts";

/** The backend, with whether it has loaded yet. */
export interface PendingBackend {
  readonly backend: ChatBackend;
  /** True once the real backend is there. */
  readonly ready: () => boolean;
}

const STARTING: ChatState = {
  sessionId: null,
  agent: "starting…",
  model: null,
  thinking: null,
  contextWindow: null,
};

/** Wraps `loading`; its rejection is the caller's to report (calls made meanwhile reject too). */
export function pendingBackend(loading: Promise<ChatBackend>): PendingBackend {
  let real: ChatBackend | null = null;
  loading.then((backend) => (real = backend), () => {});
  const later = <K extends keyof ChatBackend>(name: K) =>
    (async (...args: unknown[]) => {
      const backend = await loading;
      return await (backend[name] as (...args: unknown[]) => unknown)(...args);
    }) as unknown as ChatBackend[K];
  const backend: ChatBackend = {
    get workdir() {
      return requireReal().workdir;
    },
    state: () => real?.state() ?? STARTING,
    remember: (prompt) => void loading.then((backend) => backend.remember(prompt), () => {}),
    setModel: (ref) => requireReal().setModel(ref),
    setThinking: (level) => requireReal().setThinking(level),
    runTurn: later("runTurn"),
    branchMessages: later("branchMessages"),
    startChoices: later("startChoices"),
    history: later("history"),
    files: later("files"),
    agents: later("agents"),
    models: later("models"),
    sessions: later("sessions"),
    mcpStatus: later("mcpStatus"),
    newSession: later("newSession"),
    resume: later("resume"),
    setAgent: later("setAgent"),
    prompts: later("prompts"),
    rewind: later("rewind"),
    branches: later("branches"),
    switchBranch: later("switchBranch"),
    setTitle: later("setTitle"),
    hooks: later("hooks"),
    dropSessionHooks: later("dropSessionHooks"),
    compact: later("compact"),
    // A backend that never loaded has nothing to stop.
    close: () => loading.then((backend) => backend.close(), () => {}),
  };
  function requireReal(): ChatBackend {
    if (real === null) throw new Error("rienda is still starting: try again in a moment");
    return real;
  }
  return { backend, ready: () => real !== null };
}
