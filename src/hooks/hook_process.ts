/**
 * Runs one hook program to its end (docs/extending.md, "Command hooks"):
 * the process part every command hook shares, whatever it reads and writes.
 *
 * - An argv command runs without a shell: a program with a `/` is a path
 *   resolved against the workspace, a bare name is found on `PATH`; one that
 *   is not there never starts (`not_started`). A shell command (Claude Code's
 *   form) runs with `sh -c`.
 * - It runs in the workspace, in its own process group, with `stdin` on its
 *   standard input. The group is killed at the timeout, at the run's
 *   interrupt, and as soon as the program exits: nothing a hook starts
 *   outlives it (`tools/process_group.ts`, which also kills it when rienda
 *   dies).
 * - stdout and stderr are kept up to {@link MAX_COLLECTED_BYTES} each; more
 *   is read and dropped, so a hook that writes megabytes never blocks, and
 *   `stdoutTruncated` says stdout was cut.
 *
 * @module
 */

import { cutChars } from "../base/cut_chars.ts";
import { findExecutable } from "../host/find_executable.ts";
import { MAX_COLLECTED_BYTES, runInProcessGroup } from "../tools/process_group.ts";
import { errorMessage } from "../base/unknown.ts";
import type { CommandSandbox } from "../sandbox/command_sandbox.ts";

export { MAX_COLLECTED_BYTES };

/** What {@link runHookProcess} runs. */
export interface HookProcessOptions {
  /** A program and its arguments (no shell), or a shell command for `sh -c`. */
  readonly command: readonly [string, ...string[]] | { readonly shell: string };
  /** Written to its standard input. */
  readonly stdin: string;
  /** The workspace: its working directory, and what a relative program path resolves against. */
  readonly cwd: string;
  /** Variables added to the inherited environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** The run's interrupt. */
  readonly signal: AbortSignal;
  /** The run's command sandbox (docs/sandbox.md); absent with `sandbox: off`. */
  readonly sandbox?: CommandSandbox | undefined;
}

/** How a hook program ended. */
export type HookProcessResult =
  | {
    readonly kind: "exited";
    readonly code: number;
    readonly stdout: string;
    readonly stderr: string;
    /** stdout was longer than {@link MAX_COLLECTED_BYTES}: `stdout` is cut. */
    readonly stdoutTruncated: boolean;
  }
  /** Killed by a signal it did not get from rienda. */
  | { readonly kind: "killed"; readonly signal: string; readonly stderr: string }
  | { readonly kind: "timeout"; readonly stderr: string }
  | { readonly kind: "interrupted" }
  /** It could not start: `problem` says why (`no such program "x" on PATH`). */
  | { readonly kind: "not_started"; readonly problem: string };

/** Where the program of an argv command is, or why it cannot start. */
export async function resolveProgram(
  program: string,
  cwd: string,
  path = Deno.env.get("PATH") ?? "",
): Promise<{ readonly path: string } | { readonly problem: string }> {
  const found = await findExecutable(program, { path, cwd });
  if (found !== null) return { path: found };
  return {
    problem: program.includes("/")
      ? `no executable file ${JSON.stringify(program)} (a path with "/" is read from the workspace)`
      : `no such program ${JSON.stringify(program)} on PATH`,
  };
}

/** Runs the hook program of `options` (see the module doc). */
export async function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  const { command, signal } = options;
  if (signal.aborted) return { kind: "interrupted" };
  let run: string | readonly [string, ...string[]];
  if ("shell" in command) {
    run = command.shell;
  } else {
    const [program, ...args] = command;
    const resolved = await resolveProgram(program, options.cwd, options.env?.PATH);
    if ("problem" in resolved) return { kind: "not_started", problem: resolved.problem };
    run = [resolved.path, ...args];
  }
  // A hook the sandbox cannot confine does not run (then its fail_closed decides).
  const confined = options.sandbox === undefined ? null : await options.sandbox.confine(run);
  if (confined !== null && "refused" in confined) {
    return { kind: "not_started", problem: confined.refused };
  }
  let result;
  try {
    const env = confined === null ? options.env : { ...options.env, ...confined.env };
    result = await runInProcessGroup({
      command: confined?.command ?? run,
      stdin: options.stdin,
      cwd: options.cwd,
      ...(env === undefined ? {} : { env }),
      timeoutMs: options.timeoutMs,
      signal,
      endGroupOnExit: true,
    });
  } catch (error) {
    return { kind: "not_started", problem: errorMessage(error) };
  } finally {
    await confined?.release();
  }
  if (result.aborted) return { kind: "interrupted" };
  if (result.timedOut) return { kind: "timeout", stderr: result.stderr };
  if (result.signal !== null) {
    return { kind: "killed", signal: result.signal, stderr: result.stderr };
  }
  return {
    kind: "exited",
    code: result.code,
    stdout: result.stdout,
    stderr: result.stderr,
    stdoutTruncated: result.stdoutTruncated,
  };
}

/** The longest line {@link firstLine} gives: what a notice or a refusal quotes of a hook's output. */
export const MAX_LINE_CHARS = 1000;

/**
 * The first line of `text` that is not blank, trimmed, cut after
 * {@link MAX_LINE_CHARS} characters with `…`; "" when there is none. A hook
 * that writes a megabyte on one line is quoted by its start, not whole, on
 * stderr, to the model and in the session.
 */
export function firstLine(text: string): string {
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "") continue;
    if (trimmed.length <= MAX_LINE_CHARS) return trimmed;
    return `${cutChars(trimmed, MAX_LINE_CHARS)}…`;
  }
  return "";
}

/** A hook program that did not exit by itself, as a hook's answer: interrupted, or a failure. */
export type HookProcessFailure =
  | { readonly kind: "interrupted" }
  | { readonly kind: "failed"; readonly problem: string; readonly timedOut?: boolean };

/**
 * How `result`, a program that did not exit by itself, went wrong: the
 * interrupt, `timeoutMs`, a start failure or a signal.
 */
export function processFailure(
  result: Exclude<HookProcessResult, { readonly kind: "exited" }>,
  timeoutMs: number,
): HookProcessFailure {
  switch (result.kind) {
    case "interrupted":
      return { kind: "interrupted" };
    case "timeout":
      return {
        kind: "failed",
        problem: `did not finish within ${timeoutMs} ms (timeout_ms)`,
        timedOut: true,
      };
    case "not_started":
      return { kind: "failed", problem: `cannot start: ${result.problem}` };
    case "killed": {
      const line = firstLine(result.stderr);
      return {
        kind: "failed",
        problem: `was killed by ${result.signal}${line === "" ? "" : `: ${line}`}`,
      };
    }
    default: {
      const never: never = result;
      throw new Error(`unexpected result ${JSON.stringify(never)}`);
    }
  }
}
