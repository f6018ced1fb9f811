/**
 * The interactive mode's entry, loaded on demand by `cli/interactive.ts`:
 * builds the terminal and the theme, starts the chat while the engine still
 * loads (the editor is drawn first), shows the resumed conversation or the
 * `-r` session picker once it has, and loads the code highlighter after the first
 * frame.
 *
 * @module
 */

import type { Io } from "../io.ts";
import { runApp } from "./app.ts";
import { runPlain } from "./plain.ts";
import type { ChatBackend, Question } from "./backend.ts";
import { askAtStart, type StartAnswer } from "./start_question.ts";
import { loadHighlighter } from "./highlight.ts";
import { pendingBackend } from "./pending_backend.ts";
import { colorAllowed, createTheme } from "./style.ts";
import { createDenoTerm } from "./term.ts";

/** What the chat starts with. */
export interface InteractiveOptions {
  readonly io: Io;
  /** Loads the backend, called once the editor is drawn; a rejection ends the chat and is rethrown. */
  readonly loadBackend: () => Promise<ChatBackend>;
  readonly prompt: string | undefined;
  readonly autoApprove: boolean;
  readonly signal: AbortSignal;
  /**
   * A question answered before the chat draws anything (whether to trust the
   * project's agent files); `answer` acts on the reply and returns the line to show.
   */
  readonly startQuestion?: {
    readonly question: Question;
    readonly answer: (answer: StartAnswer) => Promise<string | null>;
  };
}

/** Runs the chat on the process's terminal; resolves to the exit code. */
export async function startInteractive(options: InteractiveOptions): Promise<number> {
  const { io } = options;
  if (options.startQuestion !== undefined) {
    const { question, answer } = options.startQuestion;
    const term = createDenoTerm((text) => io.stdout.write(text), io.env);
    const theme = createTheme(colorAllowed(io.env));
    const reply = await askAtStart(term, question, { theme, signal: options.signal });
    if (reply === "quit") return 130;
    const said = await answer(reply);
    if (said !== null) io.stdout.write(`${said}\n`);
  }
  if (io.env("TERM") === "dumb") {
    const backend = await options.loadBackend();
    try {
      return await runPlain({
        out: io.stdout,
        backend,
        prompt: options.prompt,
        autoApprove: options.autoApprove,
        signal: options.signal,
      });
    } finally {
      await backend.close();
    }
  }
  const theme = createTheme(colorAllowed(io.env));
  const term = createDenoTerm((text) => io.stdout.write(text), io.env);
  const loading = Promise.withResolvers<ChatBackend>();
  const { backend, ready } = pendingBackend(loading.promise);
  const app = runApp({
    term,
    backend,
    ready,
    theme,
    prompt: options.prompt,
    autoApprove: options.autoApprove,
    signal: options.signal,
    loaded: loading.promise.then(async (loaded) => {
      const [replay, start, history] = await Promise.all([
        loaded.branchMessages(),
        loaded.startChoices(),
        loaded.history(),
      ]);
      return { replay, start, history };
    }),
    env: io.env,
  });
  // The first frame is out (runApp draws it at once): now the engine, then the highlighter.
  options.loadBackend().then(loading.resolve, loading.reject);
  if (theme.color) {
    loading.promise.then(() => setTimeout(() => void loadHighlighter(), 0), () => {});
  }
  try {
    return await app;
  } finally {
    await backend.close();
  }
}
