/**
 * The declaration of `rienda sessions` (list, show, rm): flags, help and
 * examples, kept beside `program.ts` so the command tree stays readable.
 * The actions live in `sessions.ts`, loaded on demand.
 *
 * @module
 */

import type { Command } from "commander";
import type { Io } from "../ui/io.ts";
import type { SessionsFlags } from "./sessions.ts";
import { stringFlag } from "./flags.ts";

const WORKDIR_HELP = "workspace directory (default: the current directory)";

/** Adds `sessions` and its subcommands to `program`; `choose` receives the action to run. */
export function addSessionsCommand(
  program: Command,
  io: Io,
  choose: (action: () => Promise<number>) => void,
): void {
  const sessions = program.command("sessions")
    .description("list, show and remove the stored sessions of a workspace")
    .usage("[list | show ID | rm ID] [-C DIR]")
    .addHelpText(
      "after",
      `
Sessions are grouped by workspace; -C picks another one. An ID may be the
short id the listing shows, a unique prefix, or a full id (from any folder).

Examples:
  rienda sessions
  rienda sessions show 01k5
  rienda sessions rm 01k5 -C ~/code/app
`,
    );
  sessions.command("list", { isDefault: true })
    .description("the sessions of the workspace, newest first: id, agent, model, age, title")
    .option("-C, --workdir <dir>", WORKDIR_HELP)
    .addHelpText("after", "\nExamples:\n  rienda sessions list\n  rienda sessions -C ~/code/app\n")
    .action((flags: Record<string, unknown>) => {
      choose(async () => (await import("./sessions.ts")).sessionsList(io, sessionsFlags(flags)));
    });
  sessions.command("show")
    .description("print one session as readable text: prompts, answers, tools, compactions")
    .argument("<id>", "a session id or a unique prefix of one")
    .option("-C, --workdir <dir>", WORKDIR_HELP)
    .addHelpText(
      "after",
      "\nExamples:\n  rienda sessions show 01k5\n  rienda sessions show 01k5 | less\n",
    )
    .action((id: string, flags: Record<string, unknown>) => {
      choose(async () =>
        (await import("./sessions.ts")).sessionsShow(io, id, sessionsFlags(flags))
      );
    });
  sessions.command("rm")
    .description("delete one session")
    .argument("<id>", "a session id or a unique prefix of one")
    .option("-C, --workdir <dir>", WORKDIR_HELP)
    .addHelpText("after", "\nExamples:\n  rienda sessions rm 01k5\n")
    .action((id: string, flags: Record<string, unknown>) => {
      choose(async () =>
        (await import("./sessions.ts")).sessionsRemove(io, id, sessionsFlags(flags))
      );
    });
}

function sessionsFlags(flags: Record<string, unknown>): SessionsFlags {
  return { workdir: stringFlag(flags, "workdir") };
}
