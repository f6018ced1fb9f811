/**
 * The interactive mode's entry, loaded on demand by `cli/interactive.ts`:
 * builds the terminal and the theme, shows the resumed conversation, starts
 * the chat, and loads the code highlighter once the first frame is out.
 *
 * @module
 */

import type { Io } from "../io.ts";
import { runApp } from "./app.ts";
import { runPlain } from "./plain.ts";
import type { ChatBackend } from "./backend.ts";
import { loadHighlighter } from "./highlight.ts";
import { colorAllowed, createTheme } from "./style.ts";
import { createDenoTerm } from "./term.ts";

/** What the chat starts with. */
export interface InteractiveOptions {
  readonly io: Io;
  readonly backend: ChatBackend;
  readonly prompt: string | undefined;
  readonly autoApprove: boolean;
  readonly signal: AbortSignal;
}

/** Runs the chat on the process's terminal; resolves to the exit code. */
export async function startInteractive(options: InteractiveOptions): Promise<number> {
  const { io, backend } = options;
  if (io.env("TERM") === "dumb") {
    return await runPlain({
      out: io.stdout,
      backend,
      prompt: options.prompt,
      autoApprove: options.autoApprove,
      signal: options.signal,
    });
  }
  const theme = createTheme(colorAllowed(io.env));
  const term = createDenoTerm((text) => io.stdout.write(text), io.env);
  const [replay, start, history] = await Promise.all([
    backend.branchMessages(),
    backend.startChoices(),
    backend.history(),
  ]);
  const app = runApp({
    term,
    backend,
    theme,
    prompt: options.prompt,
    autoApprove: options.autoApprove,
    signal: options.signal,
    replay,
    start,
    history,
    env: io.env,
  });
  if (theme.color) setTimeout(() => void loadHighlighter(), 0);
  return await app;
}
