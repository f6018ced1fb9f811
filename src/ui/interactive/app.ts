/**
 * The interactive chat: keys in, frames out, turns run through the backend.
 *
 * - What a key does is `chat_keys.ts`'s pure step; this module applies it.
 *   Enter during a turn queues the text (see `turns.ts`).
 * - What a frame shows is `chat_frame.ts`'s renderer over the parts.
 * - `/` at the start completes commands, `@` completes files (a popup above
 *   the editor: ↑/↓, Tab or Enter, Esc).
 * - Frames are coalesced: at most one per {@link FRAME_MS}.
 *
 * @module
 */

import type { ChatBackend } from "./backend.ts";
import { runCommand } from "./commands.ts";
import { createCompleter } from "./completer.ts";
import { createControls } from "./controls.ts";
import { browseHistory, createEditor, moveVertically, setText, submitText } from "./editor.ts";
import { applyEditorKey } from "./editor_keys.ts";
import { renderEditor } from "./editor_view.ts";
import { editExternally } from "./external_editor.ts";
import { createKeyParser, type Key } from "./keys.ts";
import type { Overlay } from "./overlay.ts";
import { createScreen } from "./screen.ts";
import { activityRow, statusRow } from "./status.ts";
import type { Theme } from "./style.ts";
import type { Term } from "./term.ts";
import { createTranscript } from "./transcript.ts";
import { createTurns } from "./turns.ts";
import { truncate } from "./width.ts";
import { chatKeyEffect, QUIT_WINDOW_MS } from "./chat_keys.ts";
import { frameRows } from "./chat_frame.ts";
import { showStart, type StartData } from "./chat_start.ts";

/** The shortest time between two frames (30 fps). */
export const FRAME_MS = 33;
/** How long a lone Esc waits for the rest of a sequence. */
const ESC_WAIT_MS = 30;

/** What the app runs on. */
export interface AppOptions {
  readonly term: Term;
  readonly backend: ChatBackend;
  readonly theme: Theme;
  /** Sent as the first message. */
  readonly prompt?: string | undefined;
  /** `-y`: questions are answered yes, and shown as auto-approved. */
  readonly autoApprove: boolean;
  /** The process's interrupt (SIGINT, SIGTERM, SIGHUP): the chat quits with 130. */
  readonly signal: AbortSignal;
  /**
   * Whether the backend has loaded. Until then text goes into the editor at
   * once, but every other key (Enter, ↑/↓, Tab, …) and all after it wait,
   * in order, for the backend (Ctrl+C and Ctrl+D act at once).
   */
  readonly ready?: () => boolean;
  /**
   * What the backend tells once loaded; the chat shows it then. A rejection
   * (bad agent, unknown session) ends the chat, restores the terminal and
   * rejects the chat's promise with it.
   */
  readonly loaded?: Promise<StartData>;
  readonly env: (name: string) => string | undefined;
  readonly clock?: () => number;
}

const isQuitKey = (key: Key) =>
  key.type === "key" && key.ctrl && !key.alt && (key.name === "c" || key.name === "d");

/** Runs the chat until the person quits; resolves to the exit code. */
export function runApp(options: AppOptions): Promise<number> {
  const { term, backend, theme, clock = () => Date.now() } = options;
  const screen = createScreen((text) => term.write(text), term.columns);
  const parser = createKeyParser();
  const editor = createEditor();
  const ready = options.ready ?? (() => true);
  let expanded = false;
  const transcript = createTranscript({ theme, expanded: () => expanded, clock });
  let overlay: Overlay | null = null;
  let quitArmedAt: number | null = null;
  /** When the last key for the editor came (a question's guard against typed-ahead text). */
  let lastKeyAt: number | null = null;
  /** Keys that wait for the backend (see {@link AppOptions.ready}); null when none do. */
  let held: Key[] | null = null;
  let message: { text: string; until: number } | null = null;
  let contextTokens: number | null = null;
  let lastFrame = 0;
  let frameTimer: ReturnType<typeof setTimeout> | undefined;
  let escTimer: ReturnType<typeof setTimeout> | undefined;
  let width = term.columns;
  let quitting = false;
  let finish: (code: number) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const finished = new Promise<number>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });

  const turns = createTurns({
    backend,
    transcript,
    theme,
    autoApprove: options.autoApprove,
    clock,
    invalidate,
    remember: (prompt) => backend.remember(prompt),
    overlay: { get: () => overlay, set: (next) => (overlay = next) },
    restore: (text) => setText(editor, [text, editor.text].filter(Boolean).join("\n")),
    contextUsed: (tokens) => (contextTokens = tokens),
    lastKeyAt: () => lastKeyAt,
  });

  const completer = createCompleter({
    editor,
    theme,
    files: (folder) => backend.files(folder),
    invalidate,
    submit: () => submit(),
  });

  function say(text: string, ms = 3_000) {
    message = { text, until: clock() + ms };
    setTimeout(invalidate, ms + 10);
  }

  function draw() {
    frameTimer = undefined;
    if (quitting) return;
    try {
      drawFrame();
    } catch (error) {
      // A frame that throws must not end the chat: say so where the live region was.
      const why = error instanceof Error ? error.message : String(error);
      try {
        screen.draw(
          [truncate(theme.red(`✗ the screen could not be drawn: ${why}`), width - 1)],
          null,
        );
      } catch {
        // the terminal is gone; the next key or quit still works
      }
    }
  }

  function drawFrame() {
    lastFrame = clock();
    const now = lastFrame;
    if (term.columns !== width) {
      width = term.columns;
      screen.resize(width);
    }
    const { commit, live } = transcript.frame(width, now);
    screen.commit(commit);
    const startedAt = turns.startedAt();
    const drawn = overlay?.render(width, now) ?? renderEditor(editor, {
      width,
      theme,
      maxRows: Math.max(1, Math.floor(term.rows / 3)),
      placeholder: startedAt === null ? "Ask the agent something" : "Type to queue a message",
    });
    const rows = frameRows({
      live,
      queued: turns.queue,
      activity: startedAt === null
        ? null
        : activityRow(transcript.activity() ?? "working", now - startedAt, now, width, theme),
      popup: overlay === null ? completer.rows(width) : [],
      input: drawn,
      status: statusRow(statusInfo(now), width, theme),
      width,
      height: term.rows,
      theme,
    });
    screen.draw(rows, null);
  }

  function statusInfo(now: number) {
    const state = backend.state();
    const hint = message !== null && message.until > now
      ? message.text
      : turns.startedAt() === null
      ? "/ commands · @ files"
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

  async function quit(code: number, error?: unknown) {
    if (quitting) return;
    quitting = true;
    clearTimeout(frameTimer);
    clearTimeout(escTimer);
    overlay?.cancel();
    await turns.stop();
    // What the last frame did not commit yet still belongs in the scrollback.
    const { commit, live } = transcript.frame(width, clock());
    screen.commit([...commit, ...live]);
    screen.draw([], null);
    screen.close();
    const id = backend.state().sessionId;
    if (id !== null) term.write(theme.dim(`session ${id} (rienda -c continues it)\r\n`));
    term.restore();
    if (error === undefined) finish(code);
    else fail(error);
  }

  function submit() {
    const text = submitText(editor);
    completer.close();
    if (text.trim() === "") return;
    if (text.startsWith("/")) void runCommand(text, controls);
    else turns.send(text);
  }

  async function externalEdit() {
    overlay = null;
    screen.close();
    term.suspend();
    const edited = await editExternally(editor.text, options.env);
    term.resume();
    if (edited === null) {
      say("the editor failed: $VISUAL or $EDITOR names a command that did not run");
    } else setText(editor, edited);
    invalidate();
  }

  function onKey(key: Key) {
    if (!isQuitKey(key) && (held !== null || (!ready() && key.type === "key"))) {
      (held ??= []).push(key);
      return;
    }
    const now = clock();
    if (overlay !== null) {
      if (key.type === "key" && key.ctrl && key.name === "c" && turns.startedAt() !== null) {
        turns.interrupt();
      }
      overlay.key(key, now);
      return invalidate();
    }
    // Typing, not answering: a question that appears now guards against it.
    lastKeyAt = now;
    if (completer.key(key)) return invalidate();
    const effect = chatKeyEffect(
      {
        running: turns.startedAt() !== null,
        editorEmpty: editor.text === "",
        queued: turns.queue.length,
        quitArmedAt,
      },
      key,
      now,
    );
    switch (effect.kind) {
      case "submit":
        return submit();
      case "quit":
        return void quit(0);
      case "external_editor":
        return void externalEdit();
      case "interrupt":
      case "clear_editor":
      case "arm_quit":
        if (effect.kind === "interrupt") turns.interrupt();
        if (effect.kind === "clear_editor") setText(editor, "");
        if (effect.kind === "arm_quit") {
          quitArmedAt = now;
          say("ctrl+c again to quit", QUIT_WINDOW_MS);
        }
        // Ctrl+C: the popup follows the editor.
        if (effect.kind !== "interrupt" || effect.ctrlC) completer.refresh();
        return invalidate();
      case "take_back_queued":
        setText(editor, turns.queue.pop()!);
        return invalidate();
      case "toggle_expanded":
        expanded = !expanded;
        // Finished blocks are in the scrollback: the last collapsed one is printed again, whole.
        if (expanded) transcript.expandLast(width, now);
        say(
          expanded ? "tool output and thinking shown whole" : "tool output and thinking collapsed",
        );
        return invalidate();
      case "vertical":
        if (!moveVertically(editor, effect.direction, Math.max(4, width - 4))) {
          browseHistory(editor, effect.direction);
        }
        return invalidate();
      case "edit":
        break;
      default:
        effect satisfies never;
    }
    if (applyEditorKey(editor, key)) {
      completer.refresh();
      invalidate();
    }
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

  const controls = createControls({
    backend,
    transcript,
    editor,
    theme,
    turns,
    say,
    invalidate,
    quit: () => void quit(0),
    clearScreen() {
      screen.clearAll();
      invalidate();
    },
    write: (text) => term.write(text),
    setOverlay: (next) => (overlay = next),
    setContextTokens: (tokens) => (contextTokens = tokens),
  });

  options.signal.addEventListener("abort", () => void quit(130), { once: true });
  term.start({ onInput, onResize: invalidate, onHangup: () => void quit(130) });
  draw();
  const firstPrompt = options.prompt?.trim() ? options.prompt : undefined;
  const empty: StartData = { replay: [], start: null, history: [] };
  (options.loaded ?? Promise.resolve(empty)).then((data) => {
    if (quitting) return;
    const keys = held ?? [];
    held = null;
    // Keys typed ahead always reach the editor: after the -r picker has closed, if there is one.
    showStart(data, controls, () => {
      if (firstPrompt !== undefined) turns.send(firstPrompt);
      for (const key of keys) onKey(key);
      invalidate();
    });
  }, (error: unknown) => void quit(1, error));
  return finished;
}
