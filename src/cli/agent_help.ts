/**
 * `./review.md --help` (a shebang agent, i.e. `rienda run -f ./review.md
 * --help`): the agent's description, model and tools, then the flags it takes
 * (docs/cli.md, Agent files as commands).
 *
 * @module
 */

import type { Command } from "commander";
import { resolve } from "node:path";
import type { Io } from "../ui/io.ts";
import { formatColumns } from "./columns.ts";
import { EXIT } from "./exit.ts";

/** The `-f PATH` of a `run … --help` invocation; undefined for any other one. */
export function agentHelpPath(argv: readonly string[]): string | undefined {
  if (argv[0] !== "run") return undefined;
  const words = argv.slice(1, argv.includes("--") ? argv.indexOf("--") : undefined);
  if (!words.includes("--help") && !words.includes("-h")) return undefined;
  for (const [index, word] of words.entries()) {
    if (word === "-f" || word === "--agent-file") return words[index + 1];
    if (word.startsWith("--agent-file=")) return word.slice("--agent-file=".length);
  }
  return undefined;
}

/** Prints the help of the agent file at `path`, with the flags of `run` (except `-a` and `-f`). */
export async function printAgentHelp(io: Io, run: Command, path: string): Promise<number> {
  // Loaded here: program.ts imports this module for every command.
  const { loadAgentFile } = await import("../agents/agent_file.ts");
  const agent = await loadAgentFile(resolve(io.cwd, path));
  const help = run.createHelp();
  const options = help.visibleOptions(run)
    .filter((option) => option.long !== "--agent" && option.long !== "--agent-file")
    .map((option) => ["  " + help.optionTerm(option), help.optionDescription(option)]);
  const lines = [
    `Usage: ${path} [PROMPT...] [options]   (rienda run -f ${path})`,
    "",
    agent.description.trim(),
    "",
    `model: ${agent.model ?? "default_model of config.yaml (or -m)"}`,
    `tools: ${agent.tools.length === 0 ? "(no tools)" : agent.tools.join(", ")}`,
    "",
    "The prompt is the words, or -p TEXT, or standard input; a piped stdin after",
    "words or -p TEXT is appended in a <stdin> block.",
    "",
    "Options:",
  ];
  io.stdout.write(`${lines.join("\n")}\n${formatColumns(options)}`);
  return EXIT.ok;
}
