/**
 * The declaration of `rienda test`, kept beside `program.ts`; its action
 * loads on demand.
 *
 * @module
 */

import type { Command } from "commander";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import { stringFlag } from "./flags.ts";
import type { ParseRunArgs, RecordMode } from "./test_case_run.ts";

/** Adds `test` to `program`; `parseRunArgs` reads a case's `rienda run` flags. */
export function addTestCommand(
  program: Command,
  io: Io,
  signal: AbortSignal,
  choose: (action: () => Promise<number>) => void,
  parseRunArgs: ParseRunArgs,
): void {
  program.command("test")
    .description("run the agent test cases (*.test.yaml) against their cassettes, offline")
    .argument("[paths...]", "case files or folders of them (default: agent-tests/)")
    .option(
      "--record [which]",
      "record the missing cassettes against the live provider first (--record=all: every one)",
    )
    .option("--junit <file>", "also write a JUnit XML report to FILE")
    .addHelpText(
      "after",
      `
Examples:
  rienda test                              # every agent-tests/**/*.test.yaml
  rienda test agent-tests/reviewer.test.yaml
  rienda test --record                     # record the cassettes that are missing
  rienda test --record=all --junit report.xml
`,
    )
    .action((paths: string[], flags: Record<string, unknown>) => {
      const given = flags.record;
      let record: RecordMode = "none";
      const all = [...paths];
      if (given === true || given === "missing") record = "missing";
      else if (given === "all") record = "all";
      else if (typeof given === "string") {
        // `--record some.test.yaml`: the word is a case, not the option's value.
        if (given.startsWith("-")) {
          throw new UsageError(`--record takes missing or all (found "${given}")`, "test");
        }
        record = "missing";
        all.unshift(given);
      }
      const junit = stringFlag(flags, "junit");
      choose(async () =>
        (await import("./test.ts")).testCommand(
          io,
          signal,
          { paths: all, record, junit },
          parseRunArgs,
        )
      );
    });
}
