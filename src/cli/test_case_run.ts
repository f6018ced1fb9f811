/**
 * One case of `rienda test`: its workspace copied to a fresh temp folder,
 * then `rienda run` in this process with the case's agent, prompt and
 * flags, `--no-session` and `--replay CASSETTE` (or `--record` when it is
 * recorded), its output kept, and the expectations checked
 * (docs/testing.md).
 *
 * - `agent: ID` is looked up from the case file's project (the temp
 *   workspace has no `.rienda/agents/`), then run as `-f PATH`.
 * - The run reads no standard input and asks nobody (`ctx.confirm` is no,
 *   unless the case passes `-y`).
 *
 * @module
 */

import { cp, mkdir } from "node:fs/promises";
import { dirname, isAbsolute, normalize, resolve } from "node:path";
import { agentSources } from "../agents/agent_sources.ts";
import { loadAgent } from "../agents/catalog.ts";
import { isBuiltinAgent } from "../agents/default_agent.ts";
import { CaseFileError, parseCaseFile, type TestCase } from "../agent_tests/case_file.ts";
import { checkExpectations, type Failure } from "../agent_tests/expectations.ts";
import { resolvePaths } from "../config/paths.ts";
import type { RunEvent } from "../engine/events.ts";
import type { Io, TextSink } from "../ui/io.ts";
import { errorMessage } from "../base/unknown.ts";
import { readTextFileAtMost } from "../host/read_at_most.ts";
import { EXIT, exitCodeFor } from "./exit.ts";
import { runCommand, type RunFlags, type RunObserver } from "./run.ts";

/** Which cassettes `rienda test` records instead of replaying. */
export type RecordMode = "none" | "missing" | "all";

/** `rienda run`'s flags parsed from argv, as `program.ts` parses them. */
export type ParseRunArgs = (args: readonly string[]) => {
  readonly words: string[];
  readonly flags: RunFlags;
};

/** What every case run shares. */
export interface CaseRunOptions {
  /** The `Io` of `rienda test`: its environment is the runs' environment. */
  readonly io: Io;
  readonly signal: AbortSignal;
  readonly record: RecordMode;
  readonly parseRunArgs: ParseRunArgs;
}

/** How a case went. */
export interface CaseOutcome {
  readonly file: string;
  readonly seconds: number;
  /** Whether its cassette was (re)written. */
  readonly recorded: boolean;
  readonly interrupted: boolean;
  /** Empty when it passed: one line per failed expectation, or the one error that stopped it. */
  readonly failures: readonly string[];
}

/** The largest case file read: a case is a few lines. */
const MAX_CASE_FILE_BYTES = 1024 * 1024;

/** The most of a workspace file an expectation reads. */
const MAX_CHECKED_FILE_BYTES = 32 * 1024 * 1024;

/** Runs the case in `file` (an absolute path). */
export async function runCase(file: string, options: CaseRunOptions): Promise<CaseOutcome> {
  const started = performance.now();
  const outcome = (failures: readonly string[], recorded = false): CaseOutcome => ({
    file,
    seconds: (performance.now() - started) / 1000,
    recorded,
    interrupted: options.signal.aborted,
    failures,
  });
  let test: TestCase;
  try {
    const read = await readTextFileAtMost(file, MAX_CASE_FILE_BYTES);
    if (!read.complete) throw new CaseFileError(`${file}: a case file is larger than 1 MiB`);
    test = parseCaseFile(read.text, file);
  } catch (error) {
    return outcome([
      error instanceof CaseFileError ? error.message : `${file}: ${errorMessage(error)}`,
    ]);
  }
  const exists = await Deno.stat(test.cassette).then(() => true, () => false);
  const record = options.record === "all" || (options.record === "missing" && !exists);
  if (!record && !exists) {
    return outcome([
      `cassette ${test.cassette} is missing: record it with rienda test --record ${file}`,
    ]);
  }
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rienda-case-" }));
  try {
    const workspace = `${root}/workspace`;
    await copyWorkspace(test.workspace, workspace);
    if (record) await mkdir(dirname(test.cassette), { recursive: true });
    const argv = [
      ...await agentFlags(test, options.io),
      "--no-session",
      record ? "--record" : "--replay",
      test.cassette,
      ...test.args,
      "--",
      test.prompt,
    ];
    const run = await runInProcess(argv, workspace, options);
    const failures = await checkExpectations(test.expect, {
      ...run,
      readFile: (path) => readWorkspaceFile(workspace, path),
    });
    return outcome(failures.map((failure) => failureLine(failure, run.stderr)), record);
  } catch (error) {
    return outcome([errorMessage(error)], record);
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** `expectation: expected X, actual Y`; a failed exit also shows the run's last stderr line. */
function failureLine(failure: Failure, stderr: string): string {
  const line = `${failure.expectation}: expected ${failure.expected}, actual ${failure.actual}`;
  if (failure.expectation !== "exit") return line;
  const last = stderr.trimEnd().split("\n").at(-1) ?? "";
  return last === "" ? line : `${line} (${last})`;
}

async function copyWorkspace(from: string | null, to: string): Promise<void> {
  if (from === null) {
    await Deno.mkdir(to);
    return;
  }
  const info = await Deno.stat(from).catch(() => null);
  if (info === null || !info.isDirectory) {
    throw new Error(`workspace ${from} is not a folder: fix workspace: in the case`);
  }
  await cp(from, to, { recursive: true, verbatimSymlinks: true });
}

/** `-f PATH` of the case's agent (looked up from the case's project), or nothing for the default. */
async function agentFlags(test: TestCase, io: Io): Promise<string[]> {
  switch (test.agent.kind) {
    case "default":
      return [];
    case "file":
      return ["-f", test.agent.path];
    case "id": {
      const paths = resolvePaths((name) => io.env(name), { cwd: io.cwd });
      const agent = await loadAgent(
        await agentSources(paths, dirname(test.file)),
        test.agent.id,
      );
      return isBuiltinAgent(agent) ? ["-a", test.agent.id] : ["-f", agent.path];
    }
    default: {
      const never: never = test.agent;
      throw new TypeError(`unknown agent ${JSON.stringify(never)}`);
    }
  }
}

/**
 * A file of the workspace after the run (its first 32 MiB); null when it is
 * missing or, through `..` or a symbolic link the run left, outside the workspace: a
 * failure shows the file's start, and it must never be one of the user's own files.
 */
async function readWorkspaceFile(workspace: string, path: string): Promise<string | null> {
  const relative = normalize(path);
  if (isAbsolute(relative) || relative === ".." || relative.startsWith("../")) return null;
  try {
    const real = await Deno.realPath(resolve(workspace, relative));
    if (!real.startsWith(`${workspace}/`)) return null;
    return (await readTextFileAtMost(real, MAX_CHECKED_FILE_BYTES)).text;
  } catch {
    return null;
  }
}

/** What an in-process run left. */
interface InProcessRun {
  readonly exit: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly tools: string[];
  readonly refused: string[];
}

function buffer(): TextSink & { text: string } {
  return {
    text: "",
    isTerminal: false,
    write(text) {
      this.text += text;
    },
  };
}

async function runInProcess(
  argv: readonly string[],
  workspace: string,
  options: CaseRunOptions,
): Promise<InProcessRun> {
  const stdout = buffer();
  const stderr = buffer();
  const empty = { text: "", complete: true };
  const io: Io = {
    stdout,
    stderr,
    stdinIsTerminal: false,
    readStdin: () => Promise.resolve(empty),
    readStdinWhileProducing: () => Promise.resolve(empty),
    stdinBytes: () => new ReadableStream({ start: (controller) => controller.close() }),
    readSecret: () => Promise.resolve(null),
    env: (name) => options.io.env(name),
    cwd: workspace,
    secrets: options.io.secrets,
  };
  const tools: string[] = [];
  const refused: string[] = [];
  const observer: RunObserver = {
    event(event: RunEvent) {
      if (event.type === "tool_call") tools.push(event.name);
    },
    refused: (name) => refused.push(name),
  };
  let exit: number;
  try {
    const { words, flags } = options.parseRunArgs(argv);
    exit = await runCommand(io, options.signal, words, flags, observer);
  } catch (error) {
    exit = options.signal.aborted ? EXIT.interrupted : exitCodeFor(error);
    stderr.write(`rienda: ${errorMessage(error)}\n`);
  }
  return { exit, stdout: stdout.text, stderr: stderr.text, tools, refused };
}
