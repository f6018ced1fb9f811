/**
 * What the interactive UI asks of the rest of rienda, as one interface the
 * CLI implements over `app/interactive_session.ts` (`cli/chat_backend.ts`): the UI never reads config, agent
 * or session files itself, so it can be driven against a fake in tests.
 *
 * A turn is one run of the engine over the current session, exactly as
 * `rienda run -s` would run it.
 *
 * @module
 */

import type { EventSink } from "../../engine/events.ts";
import type { Message, Usage } from "../../llm/messages.ts";

/** A yes/no question from `ctx.confirm` (or a built-in tool's approval). */
export interface Question {
  readonly title: string;
  readonly body: string;
  /** `rienda` on the questions of rienda's own tools; absent on `ctx.confirm`'s. */
  readonly from?: "rienda";
}

/** The chat's current agent, model, reasoning level and session. */
export interface ChatState {
  /** The session turns append to; null before the first turn of a new session. */
  readonly sessionId: string | null;
  readonly agent: string;
  /** The model reference turns use; null when the agent's or the session's applies. */
  readonly model: string | null;
  /** The reasoning level; null for off. */
  readonly thinking: string | null;
  /** The context window of the model of the last turn, when known. */
  readonly contextWindow: number | null;
}

/** What a turn reports back to the person while it runs. */
export interface TurnHandlers {
  readonly emit: EventSink;
  /** Asks the person; resolves false when `signal` aborts. */
  readonly confirm: (question: Question, signal: AbortSignal) => Promise<boolean>;
  /** Shows a `ctx.notify` notice. */
  readonly notify: (notice: Question) => void;
  readonly signal: AbortSignal;
}

/** How a turn ended. */
export interface TurnResult {
  readonly reason: "end_turn" | "interrupted" | "error" | "hook_stop";
  readonly error?: string | undefined;
  /** With `hook_stop`: `hook "x" stopped the run: <reason>`, shown as a warning row. */
  readonly stopped?: string;
  /** A neutral word on how it ended ("nothing to compact: …"), shown as a plain row. */
  readonly note?: string;
  readonly usage: Usage;
  /**
   * A `beforePrompt` hook refused the prompt (`error` says why) or stopped the
   * run there (`stopped`): it goes back to the editor.
   */
  readonly promptRefused?: true;
}

/** What `@` completes from. */
export interface FileListing {
  /** The folder listed, relative to the workspace ("" for all of it). */
  readonly folder: string;
  /** Workspace-relative paths, folders ending in `/`. */
  readonly paths: readonly string[];
  /** False when the listing was cut short (too many files, or too slow). */
  readonly complete: boolean;
}

/** One row of a picker. */
export interface Choice {
  readonly value: string;
  readonly label: string;
  readonly detail?: string;
}

/** The interactive mode's view of rienda. */
export interface ChatBackend {
  /** The workspace directory. */
  readonly workdir: string;
  /** The current state. */
  state(): ChatState;
  /** Runs one turn on `prompt`; never throws (failures come back as `error`). */
  runTurn(prompt: string, handlers: TurnHandlers): Promise<TurnResult>;
  /** The messages of the current session's branch (empty for a new one). */
  branchMessages(): Promise<Message[]>;
  /**
   * The stored sessions of the workspace to pick one from at the start
   * (`-r`, value: the id), or null when the chat opens without a picker.
   */
  startChoices(): Promise<Choice[] | null>;
  /** Earlier prompts of this workspace, oldest first. */
  history(): Promise<string[]>;
  /** Keeps a prompt in the workspace's history. */
  remember(prompt: string): void;
  /**
   * The files and folders (folders end in `/`) under `folder` of the
   * workspace ("" for all of it), honouring ignore files; a long listing is
   * cut short and says so.
   */
  files(folder: string): Promise<FileListing>;
  /** The agents (value: the id). */
  agents(): Promise<Choice[]>;
  /** The models and aliases of the ready providers (value: the reference; `P/*`: type one). */
  models(): Promise<Choice[]>;
  /** The lines of `/mcp`: config.yaml's MCP servers and the state of each for the agent. */
  mcpStatus(): Promise<string[]>;
  /** The workspace's sessions, newest first (value: the id). */
  sessions(): Promise<Choice[]>;
  /** Starts a new session (its file appears with the first message), with `agent` or the current one. */
  newSession(agent?: string): Promise<void>;
  /** Continues session `id`; resolves to its branch's messages. */
  resume(id: string): Promise<Message[]>;
  /** Uses agent `id` from the next turn on. */
  setAgent(id: string): Promise<void>;
  /** Uses model `ref` from the next turn on. */
  setModel(ref: string): void;
  /** Uses reasoning level `level` (null: off) from the next turn on. */
  setThinking(level: string | null): void;
  /** The prompts of the current branch, newest first (value: the prompt's entry id). */
  prompts(): Promise<Choice[]>;
  /** Moves the session to before prompt `entryId`; resolves to the prompt's text. */
  rewind(entryId: string): Promise<string>;
  /** The session's branches, the current one first (value: the branch's last entry id). */
  branches(): Promise<Choice[]>;
  /** Switches to the branch ending at `entryId`; resolves to its messages. */
  switchBranch(entryId: string): Promise<Message[]>;
  /** Names the session. */
  setTitle(title: string): Promise<void>;
  /**
   * `/hooks add|list|remove …` (`argument`: what follows `/hooks`): the
   * lines to show, and whether they say what is wrong.
   */
  hooks(argument: string): Promise<{ readonly lines: readonly string[]; readonly error: boolean }>;
  /** Drops the chat's own hooks (`/clear`); resolves to how many there were. */
  dropSessionHooks(): Promise<number>;
  /** Compacts the session's conversation now. */
  compact(handlers: TurnHandlers): Promise<TurnResult>;
  /** Ends the chat: stops what it keeps running for its turns (MCP servers, the extension host). */
  close(): Promise<void>;
}
