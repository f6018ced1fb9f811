/**
 * The running turn, the queue of messages typed meanwhile, and the questions
 * it asks: one turn at a time, questions one at a time in place of the
 * editor, queued messages sent one by one when a turn ends normally (put
 * back in the editor when it was interrupted, and with the prompt a
 * `beforePrompt` hook refused).
 *
 * @module
 */

import type { Message, Usage } from "../../llm/messages.ts";
import type { ChatBackend, Question, TurnHandlers, TurnResult } from "./backend.ts";
import { createConfirm } from "./confirm.ts";
import type { Overlay } from "./overlay.ts";
import type { Theme } from "./style.ts";
import type { Transcript } from "./transcript.ts";

/** Quitting waits this long for an interrupted turn to wind down. */
const STOP_GRACE_MS = 2_000;

/** What the turns need from the chat. */
export interface TurnsOptions {
  readonly backend: ChatBackend;
  readonly transcript: Transcript;
  readonly theme: Theme;
  /** `-y`: questions are answered yes, and shown as auto-approved. */
  readonly autoApprove: boolean;
  readonly clock: () => number;
  readonly invalidate: () => void;
  readonly remember: (prompt: string) => void;
  /** The overlay slot the questions use. */
  readonly overlay: { get(): Overlay | null; set(overlay: Overlay | null): void };
  /** Puts text back in the editor (queued messages of an interrupted turn). */
  readonly restore: (text: string) => void;
  /** The context size after each response. */
  readonly contextUsed: (tokens: number) => void;
  /** When the person last typed into the editor (null: not yet), for the typed-ahead guard. */
  readonly lastKeyAt: () => number | null;
}

/** The context a response used: its prompt (cached parts included) and its output. */
export function contextTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens;
}

/** The context use of a stored conversation: that of its last response with usage, else null. */
export function storedContextTokens(messages: readonly Message[]): number | null {
  const last = messages.findLast((message) => message.role === "assistant" && message.usage);
  return last?.role === "assistant" && last.usage ? contextTokens(last.usage) : null;
}

/**
 * What "yes, for this session" remembers of a question: its title, and
 * whether rienda's own tools asked it, so a `ctx.confirm` that copies the
 * title of a built-in question never inherits its approval, nor the reverse.
 */
export function approvalKey(question: Question): string {
  return `${question.from ?? "extension"}\u0000${question.title}`;
}

/** The turn machinery. */
export interface Turns {
  /** The running turn's start time, or null when idle. */
  startedAt(): number | null;
  /** The messages waiting for the turn to end. */
  readonly queue: string[];
  /** Sends a message now, or queues it during a turn. */
  send(prompt: string): void;
  /** Runs a backend task (a compaction) as a turn without a prompt. */
  runTask(task: (handlers: TurnHandlers) => Promise<TurnResult>): void;
  interrupt(): void;
  /** Interrupts, answers every question no, and waits (briefly) for the turn to end. */
  stop(): Promise<void>;
}

/** Creates the turn machinery. */
export function createTurns(options: TurnsOptions): Turns {
  const { transcript, clock, invalidate, overlay } = options;
  const questions: Array<{ question: Question; resolve: (ok: boolean) => void }> = [];
  const queue: string[] = [];
  let current: { controller: AbortController; startedAt: number; done: Promise<void> } | null =
    null;
  let stopping = false;
  let question: Overlay | null = null;
  /** Questions answered "yes, for this session", by session (see {@link approvalKey}). */
  const approvedFor = new Map<string | null, Set<string>>();
  const sessionApprovals = () => {
    const id = options.backend.state().sessionId;
    let approved = approvedFor.get(id);
    if (approved === undefined) approvedFor.set(id, approved = new Set());
    return approved;
  };

  function ask(asked: Question, signal: AbortSignal): Promise<boolean> {
    if (options.autoApprove) {
      transcript.addNotice(`auto-approved (-y): ${asked.title}`, "faint");
      invalidate();
      return Promise.resolve(true);
    }
    if (sessionApprovals().has(approvalKey(asked))) {
      transcript.addNotice(`approved for this session: ${asked.title}`, "faint");
      invalidate();
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const entry = { question: asked, resolve };
      signal.addEventListener("abort", () => {
        const index = questions.indexOf(entry);
        if (index !== -1) questions.splice(index, 1);
        resolve(false);
      }, { once: true });
      questions.push(entry);
      showQuestion();
    });
  }

  function showQuestion() {
    if (overlay.get() !== null) return;
    const next = questions.shift();
    if (next === undefined) return;
    question = createConfirm(next.question, {
      theme: options.theme,
      lastKeyAt: options.lastKeyAt(),
      now: clock(),
      answer: (answer) => {
        if (overlay.get() === question) overlay.set(null);
        question = null;
        if (answer === "session") sessionApprovals().add(approvalKey(next.question));
        const said = answer === "yes"
          ? "approved"
          : answer === "session"
          ? "approved for this session"
          : "denied";
        transcript.addNotice(`${said}: ${next.question.title}`, "faint");
        next.resolve(answer !== "no");
        showQuestion();
        invalidate();
      },
    });
    overlay.set(question);
    invalidate();
  }

  function start(task: (handlers: TurnHandlers) => Promise<TurnResult>, prompt?: string) {
    const controller = new AbortController();
    const startedAt = clock();
    const spinner = setInterval(invalidate, 80);
    const handlers: TurnHandlers = {
      emit(event) {
        transcript.apply(event);
        if (event.type === "message_end" && event.usage !== null && event.parent === undefined) {
          options.contextUsed(contextTokens(event.usage));
        }
        invalidate();
      },
      confirm: ask,
      notify(notice) {
        transcript.addNotice(`${notice.title}: ${notice.body}`, "info");
        invalidate();
      },
      signal: controller.signal,
    };
    const done = task(handlers).then((result) => {
      clearInterval(spinner);
      transcript.endTurn({ ...result, durationMs: clock() - startedAt });
      current = null;
      if (stopping) return;
      if (result.promptRefused === true && prompt !== undefined) {
        // Nothing was sent or stored: the text waits in the editor to be changed.
        options.restore([prompt, ...queue.splice(0)].join("\n"));
      } else if (result.reason === "interrupted" || result.reason === "hook_stop") {
        // Nothing queued is sent after an interrupt or a hook's stop: it waits in the editor.
        if (queue.length > 0) options.restore(queue.splice(0).join("\n"));
      } else {
        const next = queue.shift();
        if (next !== undefined) send(next);
      }
      invalidate();
    });
    current = { controller, startedAt, done };
    invalidate();
  }

  function send(prompt: string) {
    if (current !== null) {
      queue.push(prompt);
      return invalidate();
    }
    transcript.addUser(prompt);
    options.remember(prompt);
    start((handlers) => options.backend.runTurn(prompt, handlers), prompt);
  }

  function interrupt() {
    if (current === null) return;
    current.controller.abort(new DOMException("the run was interrupted", "AbortError"));
    question?.cancel();
  }

  return {
    startedAt: () => current?.startedAt ?? null,
    queue,
    send,
    runTask: start,
    interrupt,
    async stop() {
      stopping = true;
      for (const waiting of questions.splice(0)) waiting.resolve(false);
      const running = current;
      interrupt();
      if (running !== null) {
        await Promise.race([running.done, new Promise((r) => setTimeout(r, STOP_GRACE_MS))]);
      }
    },
  };
}
