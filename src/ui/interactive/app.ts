/**
 * The interactive chat: keys in, frames out, turns run through the backend.
 *
 * - Idle: Enter sends the editor's text (or runs a `/` command). Running:
 *   Enter queues it; queued messages are sent one by one when a turn ends
 *   normally, and put back in the editor when it was interrupted.
 * - Esc interrupts a running turn (with messages queued and an empty editor,
 *   it first takes the last queued one back). Ctrl+C interrupts a running
 *   turn, clears a non-empty editor, and on an idle empty one quits when
 *   pressed twice within {@link QUIT_WINDOW_MS}. Ctrl+D on an empty editor
 *   quits.
 * - Frames are coalesced: at most one per {@link FRAME_MS}.
 *
 * @module
 */

import type { Message } from "../../llm/messages.ts";
import type { ChatBackend, Question } from "./backend.ts";
import { createConfirm } from "./confirm.ts";
import { browseHistory, createEditor, moveVertically, setText, submitText } from "./editor.ts";
import { applyEditorKey } from "./editor_keys.ts";
import { renderEditor } from "./editor_view.ts";
import { createKeyParser, type Key } from "./keys.ts";
import type { Overlay } from "./overlay.ts";
import { createScreen } from "./screen.ts";
import { activityRow, statusRow } from "./status.ts";
import type { Theme } from "./style.ts";
import type { Term } from "./term.ts";
import { createTranscript } from "./transcript.ts";
import { truncate } from "./width.ts";
import { runCommand } from "./commands.ts";
import type { ChatControls } from "./controls.ts";

/** A second Ctrl+C within this window quits. */
export const QUIT_WINDOW_MS = 2_000;
/** The shortest time between two frames (30 fps). */
export const FRAME_MS = 33;
/** How long a lone Esc waits for the rest of a sequence. */
const ESC_WAIT_MS = 30;
/** Quitting waits this long for an interrupted turn to wind down. */
const QUIT_GRACE_MS = 2_000;

/** What the app runs on. */
export interface AppOptions {
  readonly term: Term;
  readonly backend: ChatBackend;
  readonly theme: Theme;
  /** Sent as the first message. */
  readonly prompt?: string | undefined;
  /** `-y`: questions are answered yes, and shown as auto-approved. */
  readonly autoApprove: boolean;
  /** The process's interrupt (SIGINT, SIGTERM): the chat quits with 130. */
  readonly signal: AbortSignal;
  /** The stored conversation of a resumed session, shown first. */
  readonly replay?: readonly Message[];
  /** Earlier prompts of this workspace, oldest first. */
  readonly history?: readonly string[];
  /** Called with each prompt sent, to keep the history. */
  readonly remember?: (prompt: string) => void;
  readonly clock?: () => number;
}

/** Runs the chat until the person quits; resolves to the exit code. */
export function runApp(options: AppOptions): Promise<number> {
  const { term, backend, theme, clock = () => Date.now() } = options;
  const screen = createScreen((text) => term.write(text), term.columns);
  const parser = createKeyParser();
  const editor = createEditor(options.history);
  let expanded = false;
  const transcript = createTranscript({ theme, expanded: () => expanded });
  let overlay: Overlay | null = null;
  const questions: Array<{ question: Question; resolve: (ok: boolean) => void }> = [];
  let turn: { controller: AbortController; startedAt: number; done: Promise<void> } | null = null;
  let queue: string[] = [];
  let quitArmedAt: number | null = null;
  let message: { text: string; until: number } | null = null;
  let contextTokens: number | null = null;
  let lastFrame = 0;
  let frameTimer: ReturnType<typeof setTimeout> | undefined;
  let spinnerTimer: ReturnType<typeof setInterval> | undefined;
  let escTimer: ReturnType<typeof setTimeout> | undefined;
  let width = term.columns;
  let quitting = false;
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => (finish = resolve));

  function say(text: string, ms = 3_000) {
    message = { text, until: clock() + ms };
    setTimeout(invalidate, ms + 10);
  }

  function draw() {
    frameTimer = undefined;
    if (quitting) return;
    lastFrame = clock();
    const now = lastFrame;
    if (term.columns !== width) {
      width = term.columns;
      screen.resize(width);
    }
    const { commit, live } = transcript.frame(width, now);
    screen.commit(commit);
    const bottom: string[] = [];
    for (const queued of queue) {
      bottom.push(truncate(theme.dim(`⏵ queued: ${queued.replace(/\s+/g, " ")}`), width - 1));
    }
    if (turn !== null) {
      const activity = transcript.activity() ?? "starting";
      bottom.push(activityRow(activity, now - turn.startedAt, now, width, theme));
    }
    let caret: { row: number; col: number } | null = null;
    const panel = overlay === null
      ? renderEditor(editor, {
        width,
        theme,
        maxRows: Math.max(1, Math.floor(term.rows / 3)),
        placeholder: turn === null ? "Ask the agent something" : "Type to queue a message",
      })
      : null;
    const drawn = overlay?.render(width, now) ?? { rows: panel!.rows, caret: panel!.caret };
    if (drawn.caret !== null) {
      caret = { row: bottom.length + drawn.caret.row, col: drawn.caret.col };
    }
    bottom.push(...drawn.rows);
    bottom.push(statusRow(statusInfo(now), width, theme));
    const room = Math.max(0, term.rows - 1 - bottom.length);
    const shown = live.length > room ? live.slice(live.length - room) : live;
    screen.draw(
      [...shown, ...bottom],
      caret === null ? null : { row: shown.length + caret.row, col: caret.col },
    );
  }

  function statusInfo(now: number) {
    const state = backend.state();
    const hint = message !== null && message.until > now
      ? message.text
      : turn === null
      ? "/ commands · @ files · ctrl+d quit"
      : "enter queues · esc interrupts";
    return {
      agent: state.agent,
      model: state.model ?? "",
      thinking: state.thinking,
      contextTokens,
      contextWindow: state.contextWindow,
      message: hint,
    };
  }

  function invalidate() {
    if (frameTimer !== undefined || quitting) return;
    frameTimer = setTimeout(draw, Math.max(0, lastFrame + FRAME_MS - clock()));
  }

  function ask(question: Question, signal: AbortSignal): Promise<boolean> {
    if (options.autoApprove) {
      transcript.addNotice(`auto-approved (-y): ${question.title}`, "faint");
      invalidate();
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const entry = { question, resolve };
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
    if (overlay !== null) return;
    const next = questions.shift();
    if (next === undefined) return;
    overlay = createConfirm(next.question, {
      theme,
      now: clock(),
      answer: (approved) => {
        overlay = null;
        transcript.addNotice(
          `${approved ? "approved" : "denied"}: ${next.question.title}`,
          "faint",
        );
        next.resolve(approved);
        showQuestion();
        invalidate();
      },
    });
    invalidate();
  }

  function startTurn(prompt: string) {
    transcript.addUser(prompt);
    options.remember?.(prompt);
    const controller = new AbortController();
    const startedAt = clock();
    spinnerTimer = setInterval(invalidate, 80);
    const done = backend.runTurn(prompt, {
      emit(event) {
        transcript.apply(event);
        if (event.type === "message_end" && event.usage !== null) {
          const usage = event.usage;
          contextTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens +
            usage.outputTokens;
        }
        invalidate();
      },
      confirm: ask,
      notify(notice) {
        transcript.addNotice(`${notice.title}: ${notice.body}`, "info");
        invalidate();
      },
      signal: controller.signal,
    }).then((result) => {
      clearInterval(spinnerTimer);
      transcript.endTurn({ ...result, durationMs: clock() - startedAt });
      turn = null;
      if (quitting) return;
      if (result.reason === "interrupted") {
        if (queue.length > 0) setText(editor, [...queue, editor.text].filter(Boolean).join("\n"));
        queue = [];
      } else {
        const next = queue.shift();
        if (next !== undefined) startTurn(next);
      }
      invalidate();
    });
    turn = { controller, startedAt, done };
    invalidate();
  }

  function interrupt() {
    if (turn === null) return;
    turn.controller.abort(new DOMException("the run was interrupted", "AbortError"));
    overlay?.cancel();
  }

  async function quit(code: number) {
    if (quitting) return;
    quitting = true;
    clearTimeout(frameTimer);
    clearTimeout(escTimer);
    overlay?.cancel();
    for (const question of questions.splice(0)) question.resolve(false);
    const running = turn;
    if (running !== null) {
      running.controller.abort(new DOMException("the run was interrupted", "AbortError"));
      await Promise.race([running.done, new Promise((r) => setTimeout(r, QUIT_GRACE_MS))]);
    }
    clearInterval(spinnerTimer);
    // What the last frame did not commit yet still belongs in the scrollback.
    const { commit, live } = transcript.frame(width, clock());
    screen.commit([...commit, ...live]);
    screen.draw([], null);
    screen.close();
    const id = backend.state().sessionId;
    if (id !== null) term.write(theme.dim(`session ${id} (rienda -c continues it)\r\n`));
    term.restore();
    finish(code);
  }

  function submit() {
    const text = submitText(editor);
    if (text.trim() === "") return;
    if (text.startsWith("/")) {
      void runCommand(text, controls);
      return;
    }
    if (turn !== null) queue.push(text);
    else startTurn(text);
  }

  function onKey(key: Key) {
    const now = clock();
    if (overlay !== null) {
      if (key.type === "key" && key.ctrl && key.name === "c") {
        if (turn !== null) interrupt();
        overlay.cancel();
        overlay = null;
      } else overlay.key(key, now);
      return invalidate();
    }
    if (key.type === "key" && !key.alt && !key.shift) {
      if (key.name === "enter" && !key.ctrl) return submit();
      if (key.ctrl && key.name === "c") {
        if (turn !== null) interrupt();
        else if (editor.text !== "") setText(editor, "");
        else if (quitArmedAt !== null && now - quitArmedAt <= QUIT_WINDOW_MS) return void quit(0);
        else {
          quitArmedAt = now;
          say("ctrl+c again to quit", QUIT_WINDOW_MS);
        }
        return invalidate();
      }
      if (key.ctrl && key.name === "d" && editor.text === "") return void quit(0);
      if (key.name === "escape") {
        if (turn !== null && editor.text === "" && queue.length > 0) setText(editor, queue.pop()!);
        else interrupt();
        return invalidate();
      }
      if (key.ctrl && key.name === "o") {
        expanded = !expanded;
        say(
          expanded ? "tool output and thinking shown whole" : "tool output and thinking collapsed",
        );
        return invalidate();
      }
      if (key.name === "up" || key.name === "down") {
        const direction = key.name === "up" ? -1 : 1;
        if (!moveVertically(editor, direction, Math.max(4, width - 4))) {
          browseHistory(editor, direction);
        }
        return invalidate();
      }
    }
    if (applyEditorKey(editor, key)) invalidate();
  }

  function onInput(text: string) {
    clearTimeout(escTimer);
    for (const key of parser.feed(text)) onKey(key);
    if (parser.pending) {
      escTimer = setTimeout(() => {
        for (const key of parser.flush()) onKey(key);
      }, ESC_WAIT_MS);
    }
  }

  const controls: ChatControls = {
    backend,
    transcript,
    editor,
    theme,
    busy: () => turn !== null,
    say,
    invalidate,
    quit: () => void quit(0),
    openOverlay(next) {
      overlay = next;
      invalidate();
    },
    closeOverlay() {
      overlay = null;
      invalidate();
    },
    clearScreen() {
      screen.clearAll();
      invalidate();
    },
    write: (text) => term.write(text),
  };

  options.signal.addEventListener("abort", () => void quit(130), { once: true });
  term.start({
    onInput,
    onResize: invalidate,
    onHangup: () => void quit(130),
  });
  if (options.replay !== undefined && options.replay.length > 0) {
    transcript.replay(options.replay);
  }
  draw();
  if (options.prompt !== undefined && options.prompt.trim() !== "") startTurn(options.prompt);
  return finished;
}
