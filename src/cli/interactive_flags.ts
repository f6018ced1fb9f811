/**
 * The flags of bare `rienda` (the interactive mode), parsed with commander
 * like the other commands; an unknown flag is a usage error.
 *
 * @module
 */

import { Command, CommanderError, Option } from "commander";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import { commanderMessage, CONFIG_FLAG_HELP, stringFlag } from "./flags.ts";

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
  /** `--record FILE`: the cassette every turn's provider exchanges are written to. */
  readonly record: string | undefined;
}

/** Parses the flags of the chat. */
export function parseInteractiveFlags(argv: readonly string[], io: Io): InteractiveFlags {
  let parsed: InteractiveFlags | undefined;
  const program = new Command("rienda")
    .exitOverride()
    .showSuggestionAfterError(true)
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
    .option("--record <file>")
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
        record: text("record"),
      };
    });
  try {
    program.parse([...argv], { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    throw new UsageError(commanderMessage(error.message));
  }
  if (parsed === undefined) throw new UsageError("could not read the arguments");
  return parsed;
}
