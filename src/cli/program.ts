/**
 * The command tree: every command, flag, default, env fallback and example is
 * declared here once; actions live in one module per command.
 *
 * commander never exits and never prints by itself: errors come back as
 * `UsageError`s and help goes through `Io`.
 *
 * @module
 */

import { Command, CommanderError, Option } from "commander";
import type { Io } from "../ui/io.ts";
import { terminalSafeIo } from "../ui/terminal_text.ts";
import { UsageError } from "./exit.ts";
import { rememberStoredSecrets } from "../app/known_secrets.ts";
import { addAcpCommand } from "./acp_program.ts";
import { addExtensionCommands } from "./extensions_program.ts";
import { addMcpCommand } from "./mcp_program.ts";
import type { RunFlags } from "./run.ts";
import { addSessionsCommand } from "./sessions_program.ts";
import { addSetupCommands } from "./setup_program.ts";
import { addTestCommand } from "./test_program.ts";
import { versionLine } from "./version.ts";
import {
  commanderMessage,
  CONFIG_FLAG_HELP,
  SANDBOX_FLAG,
  SANDBOX_FLAG_HELP,
  sandboxFlag,
  stringFlag,
} from "./flags.ts";
import { unknownCommandError } from "./command_words.ts";
import { agentHelpPath } from "./agent_help.ts";
import { interactiveCommand, isInteractiveInvocation } from "./interactive.ts";
import { chatFlagsHelp } from "./interactive_flags.ts";
import { jsonOutputOf, printJsonFailure, watchStdout } from "./json_failure.ts";

/** What a parsed invocation does once commander is done with argv. */
type Action = () => Promise<number>;

/** Parses `argv` and runs the command; resolves to the exit code. */
export async function runCli(
  argv: readonly string[],
  io: Io,
  signal: AbortSignal,
): Promise<number> {
  if (isInteractiveInvocation(argv)) return await interactiveCommand(argv, io, signal);
  const output = jsonOutputOf(argv);
  if (output === undefined) return await runParsed(argv, io, signal);
  const watched = watchStdout(io);
  try {
    return await runParsed(argv, watched, signal);
  } catch (error) {
    printJsonFailure(watched, output, error, signal.aborted);
    throw error;
  }
}

async function runParsed(argv: readonly string[], io: Io, signal: AbortSignal): Promise<number> {
  let action: Action | undefined;
  const program = buildProgram(io, signal, (chosen) => action = chosen);
  let configFlag: string | undefined;
  program.hook("preAction", (_program, command) => {
    const config: unknown = command.opts()["config"];
    if (typeof config === "string") configFlag = config;
  });
  const unknownCommand = unknownCommandError(program, argv);
  if (unknownCommand !== null) throw unknownCommand;
  const agentFile = agentHelpPath(argv);
  const run = program.commands.find((command) => command.name() === "run");
  if (agentFile !== undefined && run !== undefined) {
    return await (await import("./agent_help.ts")).printAgentHelp(io, run, agentFile);
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return 0;
    throw new UsageError(commanderMessage(error.message), commandOf(program, argv));
  }
  if (action === undefined) return 0;
  // Every key the home holds is known before a command prints anything (docs/security.md).
  await rememberStoredSecrets(io.secrets, (name) => io.env(name), io.cwd, configFlag);
  return await action();
}

function buildProgram(io: Io, signal: AbortSignal, choose: (action: Action) => void): Command {
  const program = new Command("rienda")
    .description("Run AI agents defined as Markdown files.")
    .usage(
      "[-a AGENT | -f FILE | -s ID | -c] [options] [PROMPT]   (the interactive chat)\n       rienda <command> [options]",
    )
    .version(versionLine(), "-v, --version", "print the version")
    .helpOption("-h, --help", "print this help")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: () => {},
    })
    .showSuggestionAfterError(true)
    // Built only when help is printed: every command builds this tree.
    .addHelpText("after", () => `\nChat options (rienda without a command):\n${chatFlagsHelp()}`)
    .addHelpText(
      "after",
      `
Examples:
  rienda run "why does the build fail?"   # the built-in default agent
  rienda run -a reviewer "check the diff"
  git diff | rienda run -a reviewer -p -
  ./review.md "check the diff"            # an agent file with a shebang line
  rienda help run
`,
    );
  program.command("version").description("print the version").action(() => {
    choose(() => {
      io.stdout.write(`${versionLine()}\n`);
      return Promise.resolve(0);
    });
  });
  addRunCommand(program, (words, flags) => {
    // Loaded on demand: `--version` and `--help` must not pay for the engine.
    choose(async () => (await import("./run.ts")).runCommand(io, signal, words, flags));
  });
  addModelsCommand(program, io, choose);
  addAuthCommand(program, io, choose);
  // These print text of sessions, extensions and servers and style nothing themselves.
  const safe = terminalSafeIo(io);
  addSessionsCommand(program, safe, choose);
  addExtensionCommands(program, safe, signal, choose);
  addMcpCommand(program, safe, signal, choose);
  addSetupCommands(program, io, signal, choose);
  addTestCommand(program, io, signal, choose, parseRunArgs);
  addAcpCommand(program, io, signal, choose);
  return program;
}

/**
 * `rienda run`'s words and flags in `args` (without the word `run`), parsed
 * as the command line is: a `rienda test` case's `args:` are run flags.
 *
 * @throws {UsageError} for an unknown or malformed flag
 */
function parseRunArgs(args: readonly string[]): { words: string[]; flags: RunFlags } {
  let parsed: { words: string[]; flags: RunFlags } | undefined;
  const program = new Command("rienda").exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  addRunCommand(program, (words, flags) => parsed = { words, flags });
  try {
    program.parse(["run", ...args], { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    throw new UsageError(commanderMessage(error.message), "run");
  }
  if (parsed === undefined) throw new UsageError("could not read the run flags", "run");
  return parsed;
}

function addRunCommand(
  program: Command,
  onRun: (words: string[], flags: RunFlags) => void,
) {
  const seen = new Set<string>();
  program.command("run")
    .description("run an agent once on a prompt and print its answer")
    .usage("[-a AGENT | -f FILE | -s SESSION | -c] [PROMPT...] [options]")
    .argument(
      "[prompt...]",
      "the prompt, as words (default: -p, then standard input; a piped stdin is appended)",
    )
    .addOption(
      new Option(
        "-a, --agent <id>",
        "agent <id>.md of the project or $RIENDA_HOME/agents (default: default)",
      )
        .conflicts("agentFile"),
    )
    .option("-f, --agent-file <path>", "an agent file anywhere on disk")
    .option("-p, --prompt <text>", 'the prompt; "-" reads standard input')
    .option(
      "-m, --model <provider/model>",
      "model reference or a bare name (sonnet, gpt-4o), overriding the agent's model",
    )
    .option(
      "-s, --session <id>",
      "continue a stored session (full id from any folder, unique prefix or short id)",
    )
    .addOption(
      new Option("-c, --continue", "continue the most recent session of this workspace")
        .conflicts("session"),
    )
    .option("-C, --workdir <dir>", "workspace directory (default: the current directory)")
    .option(
      "--config <path>",
      CONFIG_FLAG_HELP,
    )
    .option("-y, --auto-approve", "answer every ctx.confirm with yes")
    .addOption(
      new Option("--output <format>", "output format").choices(["text", "json", "stream-json"])
        .default("text"),
    )
    .option(
      "--thinking <level>",
      "reasoning level: low, medium, high, or a level the model declares (default: off)",
    )
    .option("--max-turns <n>", "stop with an error after N model calls")
    .option(SANDBOX_FLAG, SANDBOX_FLAG_HELP)
    .option("--no-session", "keep nothing on disk")
    .option("--record <file>", "write every provider exchange to a cassette (docs/testing.md)")
    .addOption(
      new Option("--replay <file>", "answer every provider request from a cassette, offline")
        .conflicts("record"),
    )
    .option("--replay-strict", "with --replay: the conversation sent must match the cassette too")
    .addHelpText(
      "after",
      `
Examples:
  rienda run -a coder "list the TODOs in src/"
  rienda run -f ./review.md -m anthropic/claude-sonnet-4-5 "check the diff"
  echo "summarise README.md" | rienda run -a coder --output json
  git diff | rienda run -a reviewer "review this"  # stdin appended in a <stdin> block
  rienda run -c "now fix the first one"          # continue the latest session
  rienda run -s 01k5 -m openai/gpt-4o "go on"    # continue a session with another model
  rienda run -a coder --record fix.cassette.jsonl "fix the test"
  rienda run -a coder --replay fix.cassette.jsonl "fix the test"   # offline, no key
`,
    )
    // -s and --no-session share commander's "session" value: note which were given.
    .on("option:session", () => seen.add("session"))
    .on("option:no-session", () => seen.add("no-session"))
    .action((words: string[], flags: Record<string, unknown>) => {
      if (seen.has("session") && seen.has("no-session")) {
        throw new UsageError("-s/--session cannot be used with --no-session", "run");
      }
      onRun(words, parseRunFlags(flags));
    });
}

function parseRunFlags(flags: Record<string, unknown>): RunFlags {
  const text = (name: string) => stringFlag(flags, name);
  const maxTurns = text("maxTurns");
  let parsedMaxTurns: number | undefined;
  if (maxTurns !== undefined) {
    parsedMaxTurns = Number(maxTurns);
    if (!Number.isInteger(parsedMaxTurns) || parsedMaxTurns < 1) {
      throw new UsageError(`--max-turns must be a positive integer (found "${maxTurns}")`, "run");
    }
  }
  if (flags.replayStrict === true && text("replay") === undefined) {
    throw new UsageError("--replay-strict needs --replay FILE", "run");
  }
  const output = text("output") ?? "text";
  if (output !== "text" && output !== "json" && output !== "stream-json") {
    throw new UsageError(`--output must be text, json or stream-json (found "${output}")`, "run");
  }
  return {
    agent: text("agent"),
    agentFile: text("agentFile"),
    prompt: text("prompt"),
    model: text("model"),
    workdir: text("workdir"),
    config: text("config"),
    autoApprove: flags.autoApprove === true,
    output,
    maxTurns: parsedMaxTurns,
    noSession: flags.session === false,
    session: text("session"),
    continueLatest: flags.continue === true,
    thinking: text("thinking"),
    sandbox: sandboxFlag(flags, "run"),
    record: text("record"),
    replay: text("replay"),
    replayStrict: flags.replayStrict === true,
  };
}

function configFlag(flags: Record<string, unknown>): { config: string | undefined } {
  return { config: stringFlag(flags, "config") };
}

function addModelsCommand(program: Command, io: Io, choose: (a: Action) => void) {
  program.command("models")
    .description("list the provider/model references the configuration and your keys offer")
    .option("--config <path>", CONFIG_FLAG_HELP)
    .addHelpText(
      "after",
      `
Declared models (providers.<name>.models in config.yaml) come first, then for
each built-in provider whose key is present its known models and provider/*
(any model id works), then the aliases (sonnet, opus, haiku, model_aliases:).

Examples:
  rienda models
  OPENAI_API_KEY=sk-... rienda models
  rienda models --config ./team.yaml
`,
    )
    .action((flags: Record<string, unknown>) => {
      choose(async () => (await import("./models.ts")).modelsCommand(io, configFlag(flags)));
    });
}

function addAuthCommand(program: Command, io: Io, choose: (a: Action) => void) {
  const auth = program.command("auth")
    .description("store, list and remove provider API keys ($RIENDA_HOME/credentials.json)")
    .usage("(login PROVIDER | list | logout PROVIDER) [options]")
    .argument("[command]")
    .addHelpText(
      "after",
      `
Examples:
  rienda auth login anthropic               # asks for the key without echo
  printenv OPENAI_API_KEY | rienda auth login openai
  rienda auth list
  rienda auth logout openai
`,
    )
    .action((command: string | undefined) => {
      io.stderr.write(auth.helpInformation());
      throw new UsageError(
        command === undefined
          ? "auth needs a command: login, list or logout"
          : `unknown auth command "${command}" (expected login, list or logout)`,
      );
    });
  auth.command("login")
    .description("store the API key of a provider (asked without echo, or read from stdin)")
    .argument("<provider>", "a built-in or configured provider, e.g. openai")
    .option("--config <path>", CONFIG_FLAG_HELP)
    .addHelpText(
      "after",
      `
Examples:
  rienda auth login anthropic
  printenv GROQ_API_KEY | rienda auth login groq
`,
    )
    .action((provider: string, flags: Record<string, unknown>) => {
      choose(async () => (await import("./auth.ts")).authLogin(io, provider, configFlag(flags)));
    });
  auth.command("list")
    .description("list providers and where each key comes from (never the key)")
    .option("--config <path>", CONFIG_FLAG_HELP)
    .addHelpText("after", "\nExamples:\n  rienda auth list\n")
    .action((flags: Record<string, unknown>) => {
      choose(async () => (await import("./auth.ts")).authList(io, configFlag(flags)));
    });
  auth.command("logout")
    .description("remove the stored API key of a provider")
    .argument("<provider>", "the provider whose key to remove")
    .option("--config <path>", CONFIG_FLAG_HELP)
    .addHelpText("after", "\nExamples:\n  rienda auth logout openai\n")
    .action((provider: string, flags: Record<string, unknown>) => {
      choose(async () => (await import("./auth.ts")).authLogout(io, provider, configFlag(flags)));
    });
}

function commandOf(program: Command, argv: readonly string[]): string | undefined {
  const first = argv[0];
  return program.commands.some((command) => command.name() === first) ? first : undefined;
}
