/**
 * Bare `rienda [-a AGENT | -f FILE] [-m P/M] [-s ID | -c] [-C DIR] [-y]
 * [--thinking L] [PROMPT]`: the interactive chat (docs/interactive.md).
 *
 * The flags are checked first, then both stdin and stdout must be
 * terminals: otherwise a usage error points to `rienda run`, before any
 * escape code is written. The UI itself is loaded through a computed
 * specifier, so `deno run` never walks it for the other commands; it draws
 * the editor first, then loads the engine.
 *
 * @module
 */

import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import { parseInteractiveFlags } from "./interactive_flags.ts";
import { rememberStoredSecrets } from "../app/known_secrets.ts";
import { VERSION_WORDS } from "./version.ts";

/** The usage error of a chat without a terminal. */
const NEEDS_TERMINAL_MESSAGE =
  "interactive mode needs a terminal (stdin and stdout); in scripts and pipes use rienda run, " +
  'e.g. rienda run -a AGENT "PROMPT"';

/** Whether `argv` asks for the chat rather than a command: no command word, or a quoted prompt. */
export function isInteractiveInvocation(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first === undefined) return true;
  if (first === "-h" || first === "--help" || VERSION_WORDS.includes(first)) return false;
  return first.startsWith("-") || /\s/.test(first);
}

/**
 * What `ui/interactive/main.ts` exports. A type-level `import()` is erased:
 * `deno run` loads the UI only when the chat starts.
 */
type InteractiveUi = typeof import("../ui/interactive/main.ts");

/** Runs the chat; resolves to the exit code. */
export async function interactiveCommand(
  argv: readonly string[],
  io: Io,
  signal: AbortSignal,
): Promise<number> {
  const flags = parseInteractiveFlags(argv, io);
  // Every key the home and the config hold is known before the chat prints anything.
  await rememberStoredSecrets(io.secrets, (name) => io.env(name), io.cwd, flags.config);
  if (!io.stdinIsTerminal || !io.stdout.isTerminal) throw new UsageError(NEEDS_TERMINAL_MESSAGE);
  const ui: InteractiveUi = await import(
    new URL("../ui/interactive/main.ts", import.meta.url).href
  );
  // Asked once per project, before the chat draws: the answer decides which agents it may use.
  const { trustQuestionFor } = await import("./trust_question.ts");
  const startQuestion = await trustQuestionFor(io, flags);
  return await ui.startInteractive({
    ...(startQuestion === null ? {} : { startQuestion }),
    io,
    // Loaded once the editor is drawn; a backend that fails (bad agent, unknown session)
    // ends the chat, then is reported like rienda run reports it.
    loadBackend: async () => {
      const { createChatBackend } = await import("./chat_backend.ts");
      return await createChatBackend({ io, flags });
    },
    prompt: flags.prompt,
    autoApprove: flags.autoApprove,
    signal,
  });
}
