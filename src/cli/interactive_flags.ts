/**
 * The flags of bare `rienda` (the interactive mode), parsed with commander
 * like the other commands; an unknown flag is a usage error.
 *
 * @module
 */

import { Command, CommanderError, Option } from "commander";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import {
  commanderMessage,
  CONFIG_FLAG_HELP,
  SANDBOX_FLAG,
  SANDBOX_FLAG_HELP,
  sandboxFlag,
  stringFlag,
} from "./flags.ts";
import type { SandboxMode } from "../sandbox/sandbox_setting.ts";

/** The parsed flags of the interactive mode. */
export interface InteractiveFlags {
  readonly agent: string | undefined;
  readonly agentFile: string | undefined;
  readonly model: string | undefined;
  readonly session: string | undefined;
  readonly continueLatest: boolean;
  /** `-r`, `--resume`: pick a stored session of the workspace at the start. */
  readonly resume: boolean;
  readonly workdir: string | undefined;
  readonly config: string | undefined;
  readonly autoApprove: boolean;
  readonly thinking: string | undefined;
  readonly prompt: string | undefined;
  /** `--record FILE`: the cassette every turn's provider exchanges are written to. */
  readonly record: string | undefined;
  /** `--sandbox MODE` (docs/sandbox.md). */
  readonly sandbox?: SandboxMode | undefined;
}

/** The chat's flags, with the descriptions `rienda --help` lists. */
function chatCommand(): Command {
  return new Command("rienda")
    .argument("[prompt...]")
    .addOption(new Option("-a, --agent <id>", "chat with agent <id>").conflicts("agentFile"))
    .option("-f, --agent-file <path>", "chat with an agent file anywhere on disk")
    .option("-m, --model <provider/model>", "the model, or a bare name (sonnet, gpt-4o)")
    .option("-s, --session <id>", "continue a stored session")
    .addOption(
      new Option("-c, --continue", "continue the most recent session of this workspace")
        .conflicts("session"),
    )
    .addOption(
      new Option("-r, --resume", "pick a stored session of this workspace to resume")
        .conflicts(["session", "continue"]),
    )
    .option("-C, --workdir <dir>", "workspace directory (default: the current directory)")
    .option("--config <path>", CONFIG_FLAG_HELP)
    .option("-y, --auto-approve", "answer every confirmation with yes")
    .option("--thinking <level>", "reasoning level: low, medium, high (default: off)")
    .option(SANDBOX_FLAG, SANDBOX_FLAG_HELP)
    .option("--record <file>", "write every provider exchange to a cassette");
}

/** The chat's flags as help lines: `  -a, --agent <id>   chat with agent <id>`. */
export function chatFlagsHelp(): string {
  const options = chatCommand().options;
  const width = Math.max(...options.map((option) => option.flags.length));
  return options.map((option) => `  ${option.flags.padEnd(width)}  ${option.description}`)
    .join("\n");
}

/** Parses the flags of the chat. */
export function parseInteractiveFlags(argv: readonly string[], io: Io): InteractiveFlags {
  let parsed: InteractiveFlags | undefined;
  const program = chatCommand()
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (t) => io.stdout.write(t),
      writeErr: () => {},
      outputError: () => {},
    })
    .action((words: string[], flags: Record<string, unknown>) => {
      const text = (name: string) => stringFlag(flags, name);
      parsed = {
        agent: text("agent"),
        agentFile: text("agentFile"),
        model: text("model"),
        session: text("session"),
        continueLatest: flags.continue === true,
        resume: flags.resume === true,
        workdir: text("workdir"),
        config: text("config"),
        autoApprove: flags.autoApprove === true,
        thinking: text("thinking"),
        prompt: words.length === 0 ? undefined : words.join(" "),
        record: text("record"),
        sandbox: sandboxFlag(flags),
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
