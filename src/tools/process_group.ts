/**
 * Runs `sh -c <command>` (or a program with its arguments, through `sh`'s
 * `exec "$@"`) in its own process group and kills the whole group on timeout
 * or abort, so no grandchild survives holding the output pipes.
 *
 * - Output streams live, decoded as UTF-8 in streaming mode; the collected
 *   copies are capped at {@link MAX_COLLECTED_BYTES} each.
 * - A stop sends SIGTERM to the group, then SIGKILL after {@link KILL_GRACE_MS}
 *   or as soon as the shell is gone; the result then has `code: -1`.
 * - Detached groups do not get the terminal's SIGINT: the CLI calls
 *   {@link killAllProcessGroups} on exit.
 * - The group dies with rienda even when rienda cannot clean up (`kill -9`):
 *   {@link WATCHED_SHELL} keeps a watcher in the group that reads a pipe from
 *   rienda and kills the group when the pipe closes without the `\n` rienda
 *   writes once the command has ended (docs/cli.md, "Commands die with rienda").
 *
 * @module
 */

import { pumpOutput } from "./output_pump.ts";
import { errorMessage } from "../base/unknown.ts";

/** The most UTF-8 bytes kept of each of stdout and stderr (live output is never capped). */
export const MAX_COLLECTED_BYTES = 1024 * 1024;

/** How long a stopped group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 500;

/** How long the pipes may stay open after the shell exited (a background process holding them). */
export const DRAIN_GRACE_MS = 250;

/** What {@link runInProcessGroup} runs. */
export interface ProcessGroupOptions {
  /**
   * Shell command text, run as `sh -c <command>`; or a program and its
   * arguments, run without a shell (`exec "$@"` of the watching `sh`).
   */
  readonly command: string | readonly [string, ...string[]];
  /** Text written to the command's stdin; stdin is `/dev/null` when absent. */
  readonly stdin?: string;
  /** Absolute working directory; it must exist. */
  readonly cwd: string;
  /** Variables added to the inherited environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Kills the group after this many milliseconds; no limit when absent. */
  readonly timeoutMs?: number;
  /** Kills the group when aborted. */
  readonly signal: AbortSignal;
  /** Live stdout, in arrival order, never capped. */
  readonly onStdout?: (text: string) => void;
  /** Live stderr, in arrival order, never capped. */
  readonly onStderr?: (text: string) => void;
  /**
   * Kills the whole group as soon as the command exits, so nothing it started
   * outlives it (hooks); by default background processes live on.
   */
  readonly endGroupOnExit?: boolean;
}

/** How a command ended. `code` is -1 when it was killed (timeout, abort or any signal). */
export interface ProcessGroupResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** The signal that ended the shell, such as `"SIGTERM"`, or null. */
  readonly signal: string | null;
  /** Whether stdout was longer than {@link MAX_COLLECTED_BYTES} (then cut, with a marker). */
  readonly stdoutTruncated: boolean;
}

type GroupSignal = "SIGTERM" | "SIGKILL";

/** Process group ids of the commands running now. */
const liveGroups = new Set<number>();

/** `Deno.kill` needs unrestricted `--allow-run`; the binary only allows `sh`, so fall back to it. */
let killWithShell = false;

/** Sends `signal` to every process of group `pgid`; a group already gone is not an error. */
function signalGroup(pgid: number, signal: GroupSignal): void {
  if (!killWithShell) {
    try {
      Deno.kill(-pgid, signal);
      return;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotCapable)) return; // ESRCH: the group is gone
      killWithShell = true;
    }
  }
  try {
    new Deno.Command("sh", {
      args: ["-c", `kill -s ${signal.slice(3)} -- -${pgid}`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).outputSync();
  } catch {
    // sh cannot run at all: there is no other way to reach the group.
  }
}

/** Kills every process group started by {@link runInProcessGroup} that is still running. */
export function killAllProcessGroups(): void {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  liveGroups.clear();
}

/** Resolves after `ms` milliseconds or when `until` settles, whichever is first. */
async function waitAtMost(ms: number, until: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([elapsed, until.then(() => undefined, () => undefined)]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Registers process group `pgid`, started elsewhere with `detached: true` (an
 * MCP server), so {@link killAllProcessGroups} reaches it; returns the call
 * that unregisters it.
 */
export function trackProcessGroup(pgid: number): () => void {
  liveGroups.add(pgid);
  return () => liveGroups.delete(pgid);
}

/** SIGTERM, a grace period that ends early when the leader exits, then SIGKILL for stragglers. */
export async function terminateGroup(pgid: number, exited: Promise<unknown>): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  await waitAtMost(KILL_GRACE_MS, exited);
  signalGroup(pgid, "SIGKILL");
}

/** Fails with a message naming the directory when `cwd` is not a directory. */
async function checkWorkingDirectory(cwd: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(cwd);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`working directory "${cwd}" does not exist`, { cause: error });
    }
    throw new Error(`working directory "${cwd}" cannot be read: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  if (!info.isDirectory) throw new Error(`working directory "${cwd}" is not a directory`);
}

/**
 * The script `sh` runs, with `$0` the absolute path of `sh`, `$1` the mode
 * (`sh` or `argv`), `$2` a file holding the command's stdin (empty for
 * none), `$3` `set` when `$4` is the command's own `PATH` (`keep`: rienda's)
 * and the command after them: it moves its stdin, the pipe from rienda, to
 * fd 3, starts a watcher in the background, opens the stdin file and removes
 * it at once, sets the command's `PATH` only then (so an `env: { PATH }`
 * without `rm` or `sh` on it breaks nothing of rienda's), then becomes
 * `sh -c "$5"` or, in `argv` mode, the program `$5` with its arguments
 * (`exec "$@"`, no shell parsing; exit 127 with `<program>: no such
 * program` when `command -v` cannot find it), with stdin on /dev/null when no
 * file was given (so the command keeps its pid, and the pid stays the group
 * id). Only `sh` is ever spawned by rienda itself, so its permission set
 * stays `run: ["sh"]`. The watcher reads one line from the pipe: rienda
 * writes it once the command ended, and background processes the command
 * left then live on as before; end of file without it means rienda died, and
 * the watcher kills its whole process group. Plain POSIX `sh`.
 */
export const WATCHED_SHELL = [
  "exec 3<&0 </dev/null",
  "{ IFS= read -r _ <&3 || kill -s KILL 0; } >/dev/null 2>&1 &",
  'if [ -n "$2" ]; then exec <"$2"; rm -f -- "$2"; fi',
  'if [ "$3" = set ]; then PATH=$4; export PATH; fi',
  'if [ "$1" = argv ]; then shift 4',
  '  command -v -- "$1" >/dev/null 2>&1 || { printf "%s: no such program\\n" "$1" >&2; exit 127; }',
  '  exec "$@" 3<&-',
  "fi",
  'exec "$0" -c "$5" sh 3<&-',
].join("\n");

/** The absolute path of `sh` on rienda's own `PATH` (found once), or `sh` when it is not there. */
let shellPath: Promise<string> | undefined;

function findShell(): Promise<string> {
  // Imported on first use: main.ts loads this module for killAllProcessGroups, and the search
  // needs node:path, which `--version` should not load.
  shellPath ??= import("../host/find_executable.ts")
    .then(({ findExecutable }) =>
      findExecutable("sh", { path: Deno.env.get("PATH") ?? "", cwd: Deno.cwd() })
    )
    .then((found) => found ?? "sh");
  return shellPath;
}

/** What rienda writes to the watcher once the command has ended. */
const COMMAND_ENDED = new TextEncoder().encode("\n");

/** Tells the watcher of {@link WATCHED_SHELL} to exit quietly; a watcher already gone is fine. */
async function releaseWatcher(stdin: WritableStream<Uint8Array>): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(COMMAND_ENDED);
    await writer.close();
  } catch {
    // The group was killed (timeout, abort, or the command killed it): nothing is listening.
  }
}

/** The arguments of `sh` for {@link WATCHED_SHELL} (see there). */
function watchedShellArgs(
  options: Pick<ProcessGroupOptions, "command" | "env">,
  stdinFile: string,
  shell: string,
): string[] {
  const { command, env } = options;
  const path = env !== undefined && Object.hasOwn(env, "PATH")
    ? ["set", env.PATH ?? ""]
    : ["keep", ""];
  const tail = typeof command === "string"
    ? ["sh", stdinFile, ...path, command]
    : ["argv", stdinFile, ...path, ...command];
  return ["-c", WATCHED_SHELL, shell, ...tail];
}

/** The environment `sh` starts with: the command's, but rienda's `PATH` (the script sets the command's). */
function shellEnv(env: ProcessGroupOptions["env"]): Record<string, string> | undefined {
  if (env === undefined) return undefined;
  const { PATH: _path, ...rest } = env;
  return rest;
}

/**
 * Writes `text` to a new private file (0600) for the command's stdin; the
 * shell removes it as soon as it has opened it, and rienda once the command
 * ended, whichever comes first.
 */
async function stdinFile(text: string | undefined): Promise<string> {
  if (text === undefined) return "";
  const path = await Deno.makeTempFile({ prefix: "rienda-stdin-" });
  await Deno.writeTextFile(path, text);
  return path;
}

/** Starts the command under {@link WATCHED_SHELL} as the leader of a new process group. */
function spawnShell(options: ProcessGroupOptions, stdin: string, shell: string): Deno.ChildProcess {
  const env = shellEnv(options.env);
  try {
    // Found by name on rienda's PATH (the permission set allows `sh`), never the command's.
    return new Deno.Command("sh", {
      args: watchedShellArgs(options, stdin, shell),
      cwd: options.cwd,
      ...(env === undefined ? {} : { env }),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`cannot run "sh": no such program on PATH, install a POSIX shell`, {
        cause: error,
      });
    }
    throw new Error(`cannot run "sh": ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * Runs `sh -c <command>` (or the program of an argv command) in its own
 * process group, streaming its output, and kills the whole group on timeout
 * or abort.
 *
 * @throws {Error} when `cwd` is not a directory or `sh` cannot be started
 */
export async function runInProcessGroup(options: ProcessGroupOptions): Promise<ProcessGroupResult> {
  const { signal } = options;
  if (signal.aborted) {
    return {
      code: -1,
      stdout: "",
      stderr: "",
      timedOut: false,
      aborted: true,
      signal: null,
      stdoutTruncated: false,
    };
  }
  await checkWorkingDirectory(options.cwd);
  const stdin = await stdinFile(options.stdin);
  try {
    return await runSpawned(options, spawnShell(options, stdin, await findShell()));
  } finally {
    if (stdin !== "") await Deno.remove(stdin).catch(() => {});
  }
}

async function runSpawned(
  options: ProcessGroupOptions,
  child: Deno.ChildProcess,
): Promise<ProcessGroupResult> {
  const { timeoutMs, signal } = options;
  const pgid = child.pid;
  liveGroups.add(pgid);
  const stdout = pumpOutput(child.stdout, MAX_COLLECTED_BYTES, options.onStdout, signal);
  const stderr = pumpOutput(child.stderr, MAX_COLLECTED_BYTES, options.onStderr, signal);

  let stoppedBy: "timeout" | "abort" | null = null;
  let terminating: Promise<void> = Promise.resolve();
  function stop(reason: "timeout" | "abort"): void {
    if (stoppedBy !== null) return;
    stoppedBy = reason;
    terminating = terminateGroup(pgid, child.status);
  }
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => stop("timeout"), timeoutMs);
  const onAbort = () => stop("abort");
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) stop("abort"); // aborted while the directory was checked

  try {
    const status = await child.status;
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    await terminating;
    if (options.endGroupOnExit === true) signalGroup(pgid, "SIGKILL");
    await releaseWatcher(child.stdin);
    await waitAtMost(DRAIN_GRACE_MS, Promise.all([stdout.done, stderr.done]));
    await Promise.all([stdout.cancel(), stderr.cancel()]);
    const killed = stoppedBy !== null || status.signal !== null;
    return {
      code: killed ? -1 : status.code,
      stdout: stdout.collected(),
      stderr: stderr.collected(),
      timedOut: stoppedBy === "timeout",
      aborted: stoppedBy === "abort",
      signal: status.signal,
      stdoutTruncated: stdout.truncated(),
    };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    liveGroups.delete(pgid);
  }
}
