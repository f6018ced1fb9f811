/**
 * `rienda test [PATH...]`: runs the `*.test.yaml` cases (default: the
 * `agent-tests/` folder of the current directory) against their cassettes,
 * offline, as many at once as the machine has cores; one line per case in
 * file order, the failed expectations under it, and a closing
 * `N passed, N failed` line on stdout (docs/testing.md).
 *
 * @module
 */

import { relative, resolve } from "node:path";
import { findCaseFiles, NoCasesError } from "../agent_tests/discover.ts";
import { junitReport } from "../agent_tests/junit.ts";
import type { Io } from "../ui/io.ts";
import { errorMessage } from "../base/unknown.ts";
import { EXIT, INTERRUPTED_LINE } from "./exit.ts";
import { type CaseOutcome, type ParseRunArgs, type RecordMode, runCase } from "./test_case_run.ts";

/** The parsed flags of `rienda test`. */
export interface TestFlags {
  readonly paths: readonly string[];
  readonly record: RecordMode;
  /** `--junit FILE`. */
  readonly junit: string | undefined;
}

/** The folder of cases run when no path is given. */
export const DEFAULT_CASES_DIR = "agent-tests";

/** Runs the cases and resolves to the exit code: 1 when one failed. */
export async function testCommand(
  io: Io,
  signal: AbortSignal,
  flags: TestFlags,
  parseRunArgs: ParseRunArgs,
): Promise<number> {
  const files = await caseFiles(io.cwd, flags.paths);
  const shown = (file: string) => relative(io.cwd, file) || file;
  const outcomes: (CaseOutcome | undefined)[] = files.map(() => undefined);
  let printed = 0;
  const printReady = () => {
    for (let next = outcomes[printed]; next !== undefined; next = outcomes[++printed]) {
      if (!next.interrupted) io.stdout.write(caseLines(next, shown(next.file)));
    }
  };
  let taken = 0;
  const worker = async () => {
    while (taken < files.length && !signal.aborted) {
      const index = taken++;
      const file = files[index] ?? "";
      outcomes[index] = await runCase(file, { io, signal, record: flags.record, parseRunArgs });
      printReady();
    }
  };
  const cores = Math.max(1, navigator.hardwareConcurrency || 1);
  await Promise.all(Array.from({ length: Math.min(cores, files.length) }, worker));
  const done = outcomes.filter((outcome): outcome is CaseOutcome =>
    outcome !== undefined && !outcome.interrupted
  );
  const failed = done.filter((outcome) => outcome.failures.length > 0).length;
  io.stdout.write(`${done.length - failed} passed, ${failed} failed\n`);
  if (flags.junit !== undefined) await writeJunit(resolve(io.cwd, flags.junit), done, shown);
  if (signal.aborted) {
    io.stderr.write(INTERRUPTED_LINE);
    return EXIT.interrupted;
  }
  return failed > 0 ? EXIT.failure : EXIT.ok;
}

async function caseFiles(cwd: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) {
    const dir = resolve(cwd, DEFAULT_CASES_DIR);
    const exists = await Deno.stat(dir).then((info) => info.isDirectory, () => false);
    if (!exists) {
      throw new NoCasesError(
        `no ${DEFAULT_CASES_DIR}/ folder in ${cwd}: write cases there (rienda init --test writes an example) or pass case files`,
      );
    }
  }
  const files = await findCaseFiles(cwd, paths.length === 0 ? [DEFAULT_CASES_DIR] : paths);
  if (files.length === 0) {
    throw new NoCasesError(
      `no *.test.yaml files in ${paths.length === 0 ? DEFAULT_CASES_DIR : paths.join(", ")}`,
    );
  }
  return files;
}

function seconds(outcome: CaseOutcome): string {
  return `${outcome.seconds.toFixed(1)} s`;
}

/** `ok    agent-tests/a.test.yaml (0.4 s)`, or `FAIL  …` with one indented line per failure. */
function caseLines(outcome: CaseOutcome, name: string): string {
  const recorded = outcome.recorded ? ", recorded" : "";
  if (outcome.failures.length === 0) return `ok    ${name} (${seconds(outcome)}${recorded})\n`;
  const details = outcome.failures.map((failure) => `      ${failure}\n`).join("");
  return `FAIL  ${name} (${seconds(outcome)}${recorded})\n${details}`;
}

async function writeJunit(
  path: string,
  outcomes: readonly CaseOutcome[],
  shown: (file: string) => string,
): Promise<void> {
  const report = junitReport(outcomes.map((outcome) => ({
    name: shown(outcome.file),
    seconds: outcome.seconds,
    failure: outcome.failures.length === 0 ? null : outcome.failures,
  })));
  try {
    await Deno.writeTextFile(path, report);
  } catch (error) {
    throw new Error(`--junit ${path}: cannot write the report: ${errorMessage(error)}`);
  }
}
