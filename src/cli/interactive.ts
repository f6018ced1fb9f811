/**
 * Bare `rienda [-a AGENT | -f FILE] [-m P/M] [-s ID | -c] [-C DIR] [-y]
 * [--thinking L] [PROMPT]`: the interactive chat (docs/interactive.md).
 *
 * The flags are checked first, then both stdin and stdout must be
 * terminals: otherwise a usage error points to `rienda run`, before any
 * escape code is written. The UI itself is loaded through a computed
 * specifier, so `deno run` never walks it for the other commands.
 *
 * @module
 */

import { Command, CommanderError, Option } from "commander";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import { CONFIG_FLAG_HELP, stringFlag } from "./flags.ts";

/** The parsed flags of the interactive mode. */
export interface InteractiveFlags {
  readonly agent: string | undefined;
  readonly agentFile: string | undefined;
  readonly model: string | undefined;
  readonly session: string | undefined;
  readonly continueLatest: boolean;
  readonly workdir: string | undefined;
  readonly config: string | undefined;
  readonly autoApprove: boolean;
  readonly thinking: string | undefined;
  readonly prompt: string | undefined;
}

/** The usage error of a chat without a terminal. */
export const NEEDS_TERMINAL_MESSAGE =
  "interactive mode needs a terminal (stdin and stdout); in scripts and pipes use rienda run, " +
  'e.g. rienda run -a AGENT "PROMPT"';

/** Whether `argv` asks for the chat rather than a command: no command word, or a quoted prompt. */
export function isInteractiveInvocation(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first === undefined) return true;
  if (["-h", "--help", "-v", "--version"].includes(first)) return false;
  return first.startsWith("-") || /\s/.test(first);
}

/** Parses the flags of the chat. */
export function parseInteractiveFlags(argv: readonly string[], io: Io): InteractiveFlags {
  let parsed: InteractiveFlags | undefined;
  const program = new Command("rienda")
    .exitOverride()
    .configureOutput({
      writeOut: (t) => io.stdout.write(t),
      writeErr: () => {},
      outputError: () => {},
    })
    .argument("[prompt...]")
    .addOption(new Option("-a, --agent <id>").conflicts("agentFile"))
    .option("-f, --agent-file <path>")
    .option("-m, --model <provider/model>")
    .option("-s, --session <id>")
    .addOption(new Option("-c, --continue").conflicts("session"))
    .option("-C, --workdir <dir>")
    .option("--config <path>", CONFIG_FLAG_HELP)
    .option("-y, --auto-approve")
    .option("--thinking <level>")
    .action((words: string[], flags: Record<string, unknown>) => {
      const text = (name: string) => stringFlag(flags, name);
      parsed = {
        agent: text("agent"),
        agentFile: text("agentFile"),
        model: text("model"),
        session: text("session"),
        continueLatest: flags.continue === true,
        workdir: text("workdir"),
        config: text("config"),
        autoApprove: flags.autoApprove === true,
        thinking: text("thinking"),
        prompt: words.length === 0 ? undefined : words.join(" "),
      };
    });
  try {
    program.parse([...argv], { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    throw new UsageError(
      error.message.replace(/^error: /, "").replace(/'([^']*)'/g, '"$1"').replace(/\.$/, ""),
    );
  }
  if (parsed === undefined) throw new UsageError("could not read the arguments");
  return parsed;
}

/** Runs the chat; resolves to the exit code. */
export async function interactiveCommand(
  argv: readonly string[],
  io: Io,
  signal: AbortSignal,
): Promise<number> {
  const flags = parseInteractiveFlags(argv, io);
  if (!io.stdinIsTerminal || !io.stdout.isTerminal) throw new UsageError(NEEDS_TERMINAL_MESSAGE);
  const { createChatBackend } = await import("./chat_backend.ts");
  const backend = await createChatBackend({ io, flags });
  const ui: typeof import("../ui/interactive/main.ts") = await import(
    new URL("../ui/interactive/main.ts", import.meta.url).href
  );
  return await ui.startInteractive({
    io,
    backend,
    prompt: flags.prompt,
    autoApprove: flags.autoApprove,
    signal,
  });
}
