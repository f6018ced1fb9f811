/**
 * The declarations of the installation commands — `agents`, `doctor`,
 * `init`, `trust`, `types`, `upgrade` — kept beside `program.ts`; their actions load on demand.
 *
 * @module
 */

import { type Command, Option } from "commander";
import type { Io } from "../ui/io.ts";
import { terminalSafeIo } from "../ui/terminal_text.ts";
import { CONFIG_FLAG_HELP, stringFlag } from "./flags.ts";

/** Adds `agents`, `doctor`, `init`, `trust`, `types` and `upgrade` to `program`; `choose` receives the action to run. */
export function addSetupCommands(
  program: Command,
  io: Io,
  signal: AbortSignal,
  choose: (action: () => Promise<number>) => void,
): void {
  program.command("agents")
    .description("list the agents with their model and description, and the broken files")
    .option("--config <path>", CONFIG_FLAG_HELP)
    .option(
      "-C, --workdir <dir>",
      "workspace whose project agents to list (default: the current directory)",
    )
    .addHelpText("after", "\nExamples:\n  rienda agents\n  RIENDA_HOME=./team rienda agents\n")
    .action((flags: Record<string, unknown>) => {
      choose(async () =>
        (await import("./agents.ts")).agentsCommand(terminalSafeIo(io), {
          config: stringFlag(flags, "config"),
          workdir: stringFlag(flags, "workdir"),
        })
      );
    });
  program.command("doctor")
    .description(
      "check the installation: config, agents, tools, hooks, keys, providers, MCP servers",
    )
    .option("--config <path>", CONFIG_FLAG_HELP)
    .option("--offline", "skip the provider reachability requests and remote MCP servers")
    .addHelpText(
      "after",
      `
Exits 1 when a check fails. Keys are never printed nor sent: a provider is
"reachable" when its base URL answers an unauthenticated request.

Examples:
  rienda doctor
  rienda doctor --offline
`,
    )
    .action((flags: Record<string, unknown>) => {
      choose(async () =>
        (await import("./doctor.ts")).doctorCommand(io, {
          config: stringFlag(flags, "config"),
          offline: flags.offline === true,
        }, signal)
      );
    });
  program.command("init")
    .description("create $RIENDA_HOME with a commented config.yaml, an agent, a tool and a hook")
    .option("--test", "also write an example rienda test case to agent-tests/ of this folder")
    .addHelpText(
      "after",
      "\nNever overwrites a file.\n\nExamples:\n  rienda init\n  RIENDA_HOME=./team rienda init\n  rienda init --test\n",
    )
    .action((flags: Record<string, unknown>) => {
      choose(async () =>
        (await import("./init.ts")).initCommand(io, { test: flags.test === true })
      );
    });
  program.command("trust")
    .description("trust the project of a workspace, so its agent files may replace the home's")
    .option("-C, --workdir <dir>", "a folder of the project (default: the current directory)")
    .addOption(new Option("--untrust", "record that the project is not trusted").conflicts("list"))
    .addOption(new Option("--list", "list the projects trusted or not").conflicts("workdir"))
    .addHelpText(
      "after",
      `
The project is the nearest folder upward holding .git, recorded by its real
path in $RIENDA_HOME/trust.json. Until it is trusted, its .rienda/agents,
.claude/agents and .opencode/agent files never take the place of the
built-in default or of a home agent (an explicit -a of an id the home does
not have still runs them). See docs/security.md.

Examples:
  rienda trust
  rienda trust -C ~/src/app
  rienda trust --untrust
  rienda trust --list
`,
    )
    .action((flags: Record<string, unknown>) => {
      choose(async () =>
        (await import("./trust.ts")).trustCommand(terminalSafeIo(io), {
          workdir: stringFlag(flags, "workdir"),
          untrust: flags.untrust === true,
          list: flags.list === true,
        })
      );
    });
  program.command("types")
    .description("print rienda.d.ts, the types of ctx, tools and hooks, for an editor")
    .addHelpText(
      "after",
      `
rienda init writes it into $RIENDA_HOME with a jsconfig.json; an editor then
completes ctx. in tools/*/index.js and hooks/*/index.js, and checks a file
that starts with // @ts-check. See docs/extending.md.

Examples:
  rienda types > ~/.rienda/rienda.d.ts
`,
    )
    .action(() => {
      choose(async () => (await import("./types.ts")).typesCommand(io));
    });
  program.command("upgrade")
    .argument("[version]", "the release to install, e.g. 0.2.0 (default: the latest)")
    .description(
      "replace this rienda binary with the latest release (or VERSION), checksum checked",
    )
    .addHelpText(
      "after",
      `
Downloads rienda-<target> and SHA256SUMS of the release from the GitHub
release downloads (RIENDA_DOWNLOAD_URL: a mirror with the same layout),
checks the checksum and that the new binary runs, then replaces the running
binary in one rename. The npm package and a checkout say how they upgrade.

Examples:
  rienda upgrade
  rienda upgrade 0.2.0
`,
    )
    .action((version: string | undefined) => {
      choose(async () => (await import("./upgrade.ts")).upgradeCommand(io, { version }, signal));
    });
}
