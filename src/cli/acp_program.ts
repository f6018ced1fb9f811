/**
 * The declaration of `rienda acp`, kept beside `program.ts`; its action loads on demand.
 *
 * @module
 */

import { type Command, Option } from "commander";
import type { Io } from "../ui/io.ts";
import {
  CONFIG_FLAG_HELP,
  SANDBOX_FLAG,
  SANDBOX_FLAG_HELP,
  sandboxFlag,
  stringFlag,
} from "./flags.ts";

/** Adds `acp` to `program`; `choose` receives the action to run. */
export function addAcpCommand(
  program: Command,
  io: Io,
  signal: AbortSignal,
  choose: (action: () => Promise<number>) => void,
): void {
  program.command("acp")
    .description("serve the Agent Client Protocol on stdin/stdout, for editors (Zed, JetBrains…)")
    .addOption(
      new Option(
        "-a, --agent <id>",
        "the agent every new session runs (default: the default agent)",
      ).conflicts("agentFile"),
    )
    .option("-f, --agent-file <path>", "an agent file anywhere on disk")
    .option(
      "-m, --model <provider/model>",
      "model reference or a bare name (sonnet, gpt-4o), overriding the agent's model",
    )
    .option("--config <path>", CONFIG_FLAG_HELP)
    .option("-y, --auto-approve", "approve every confirmation without asking the editor")
    .option(SANDBOX_FLAG, SANDBOX_FLAG_HELP)
    .addHelpText(
      "after",
      `
stdout carries only protocol messages; logs go to stderr. Sessions are the
ones rienda run and the chat use (docs/editors.md).

Examples:
  rienda acp                      # in Zed: "agent_servers": {"rienda": {"command": "rienda", "args": ["acp"]}}
  rienda acp -a coder -m sonnet
`,
    )
    .action((flags: Record<string, unknown>) => {
      choose(async () =>
        (await import("./acp.ts")).acpCommand(io, signal, {
          agent: stringFlag(flags, "agent"),
          agentFile: stringFlag(flags, "agentFile"),
          model: stringFlag(flags, "model"),
          config: stringFlag(flags, "config"),
          autoApprove: flags.autoApprove === true,
          sandbox: sandboxFlag(flags, "acp"),
        })
      );
    });
}
