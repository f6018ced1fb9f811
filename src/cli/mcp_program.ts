/**
 * The declaration of `rienda mcp [list | call]`: flags, help and examples,
 * kept beside `program.ts`. The actions live in `mcp.ts`, loaded on demand.
 *
 * @module
 */

import type { Command } from "commander";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import { CONFIG_FLAG_HELP, stringFlag } from "./flags.ts";

const WORKDIR_HELP = "workspace a stdio server starts in (default: the current directory)";

type Choose = (action: () => Promise<number>) => void;

/** Adds `mcp` with its `list` and `call` subcommands to `program`. */
export function addMcpCommand(program: Command, io: Io, signal: AbortSignal, choose: Choose): void {
  const mcp = program.command("mcp")
    .description("list the MCP servers of config.yaml, or call one of their tools")
    .usage("[list [--check] | call SERVER TOOL --args JSON] [options]")
    .addHelpText(
      "after",
      `
Servers are configured under mcp_servers in config.yaml; an agent uses them
with tools: [mcp:SERVER] or tools: [mcp:SERVER/TOOL] (see docs/mcp.md).

Examples:
  rienda mcp
  rienda mcp list --check
  rienda mcp call github search_issues --args '{"q": "is:open label:bug"}'
`,
    );
  mcp.command("list", { isDefault: true })
    .description("the servers and how each starts; --check starts them and lists their tools")
    .argument("[command]")
    .option("--check", "start each enabled server: its status and its tools")
    .option("-C, --workdir <dir>", WORKDIR_HELP)
    .option("--config <path>", CONFIG_FLAG_HELP)
    .addHelpText("after", "\nExamples:\n  rienda mcp list\n  rienda mcp list --check\n")
    .action((command: string | undefined, flags: Record<string, unknown>) => {
      if (command !== undefined) {
        throw new UsageError(`unknown mcp command "${command}" (expected list or call)`, "mcp");
      }
      const parsed = {
        check: flags.check === true,
        workdir: stringFlag(flags, "workdir"),
        config: stringFlag(flags, "config"),
      };
      choose(async () => (await import("./mcp.ts")).mcpList(io, signal, parsed));
    });
  mcp.command("call")
    .description("start one server, call one tool outside any model call and print its result")
    .argument("<server>", "a server of mcp_servers in config.yaml")
    .argument("<tool>", "the server's name for the tool (as rienda mcp list --check shows it)")
    .option("--args <json>", "the arguments, a JSON object checked against the tool's schema", "{}")
    .option("-C, --workdir <dir>", WORKDIR_HELP)
    .option("--config <path>", CONFIG_FLAG_HELP)
    .addHelpText(
      "after",
      `
The result text goes to stdout (exit 0; an error result exits 1); progress
reports go to stderr.

Examples:
  rienda mcp call everything echo --args '{"message": "hi"}'
  rienda mcp call fs read_text_file --args '{"path": "README.md"}' -C ~/code/app
`,
    )
    .action((server: string, tool: string, flags: Record<string, unknown>) => {
      const parsed = {
        args: stringFlag(flags, "args"),
        workdir: stringFlag(flags, "workdir"),
        config: stringFlag(flags, "config"),
      };
      choose(async () => (await import("./mcp.ts")).mcpCall(io, signal, { server, tool }, parsed));
    });
}
