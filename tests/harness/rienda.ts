/**
 * Runs the rienda CLI the way the spec says black-box tests do:
 * `deno task -q --config <checkout>/deno.json dev <args…>` from the test's
 * workspace, with an empty environment plus `PATH`, `HOME`, `RIENDA_HOME`,
 * `NO_COLOR=1` and `DENO_DIR` (so no test downloads npm packages again).
 * Standard input is closed (`/dev/null`, never a terminal) unless a test
 * gives text.
 *
 * @module
 */

import { permissionFlags } from "../../scripts/bundle.ts";
import { waitUntil } from "./wait_until.ts";

/** The checkout this harness belongs to (absolute, no trailing slash). */
export const CHECKOUT_DIR: string = decodeURIComponent(new URL("../..", import.meta.url).pathname)
  .replace(/\/$/, "");

/** The checkout's `deno.json`. */
export const DENO_CONFIG = `${CHECKOUT_DIR}/deno.json`;

/** How one CLI process runs. */
export interface RiendaOptions {
  /** The working directory (the workspace). */
  readonly cwd: string;
  /** `HOME` of the child: a temp dir, so the real `~/.rienda` is never read. */
  readonly home: string;
  /** `RIENDA_HOME` of the child; unset when absent. */
  readonly riendaHome?: string;
  /** Extra variables; `undefined` removes one of the defaults (e.g. `NO_COLOR`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Text written to standard input, which is then closed. */
  readonly stdin?: string;
  /**
   * Standard input is a pipe that stays open and silent until the test writes
   * to it ({@link RiendaProcess.writeStdin}) or closes it, as a script's
   * inherited stdin does. Ignored with `stdin`.
   */
  readonly openStdin?: boolean;
  /** Kill the process and fail after this long. @default 60_000 */
  readonly timeoutMs?: number;
}

/** What a finished CLI process left. */
export interface RiendaResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A CLI process still running. */
export interface RiendaProcess extends AsyncDisposable {
  readonly pid: number;
  /** Sends a signal to the process (`deno task` forwards it to the program). */
  kill(signal: Deno.Signal): void;
  /** Writes to standard input (started with `openStdin`). */
  writeStdin(text: string): Promise<void>;
  /** Closes standard input (started with `openStdin`). */
  closeStdin(): Promise<void>;
  /** Standard output read so far. */
  stdoutText(): string;
  /** Standard error read so far. */
  stderrText(): string;
  /** Resolves once stderr contains `text`; rejects after the timeout with stderr so far. */
  waitForStderr(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves once stdout contains `text`; rejects after the timeout with the output so far. */
  waitForStdout(text: string, timeoutMs?: number): Promise<void>;
  /** Waits for the exit; kills the process and rejects after `timeoutMs` of the options. */
  wait(): Promise<RiendaResult>;
}

/**
 * A bundle the tests run instead of the checkout's module graph: the folder
 * `scripts/bundle.ts` wrote, from `RIENDA_TEST_BUNDLE` (what the release ships).
 */
export const TEST_BUNDLE: string | undefined = Deno.env.get("RIENDA_TEST_BUNDLE") || undefined;

/** What names the rienda process in a process list: its entry point. */
export const RIENDA_ENTRY = TEST_BUNDLE === undefined ? "src/main.ts" : `${TEST_BUNDLE}/main.js`;

/** The arguments of `deno` that run the CLI from the checkout (or {@link TEST_BUNDLE}). */
export function riendaDenoArgs(args: readonly string[]): string[] {
  if (TEST_BUNDLE !== undefined) {
    return ["run", "-q", "--no-config", ...permissionFlags(), RIENDA_ENTRY, ...args];
  }
  return ["task", "-q", "--config", DENO_CONFIG, "dev", ...args];
}

/** Runs the CLI to its end. */
export function runRienda(args: readonly string[], options: RiendaOptions): Promise<RiendaResult> {
  return startRienda(args, options).then((process) => process.wait());
}

/** Starts the CLI and returns a handle to watch, signal and await it. */
export function startRienda(
  args: readonly string[],
  options: RiendaOptions,
): Promise<RiendaProcess> {
  return startProcess(Deno.execPath(), riendaDenoArgs(args), options);
}

/**
 * Starts the CLI with a terminal (a pseudo-terminal from util-linux's
 * `script`) as its stdin, stdout and stderr; the handle's stdout is what the
 * terminal showed (both streams, with `\r\n` line ends).
 */
export function startRiendaInTerminal(
  args: readonly string[],
  options: RiendaOptions,
): Promise<RiendaProcess> {
  const command = [Deno.execPath(), ...riendaDenoArgs(args)].map(shellQuote).join(" ");
  return startProcess("script", ["-qec", command, "/dev/null"], options);
}

/** `text` as one word of `sh`. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Runs any executable (such as a shebang agent file) with the same environment rules. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RiendaOptions,
): Promise<RiendaResult> {
  return startProcess(command, args, options).then((process) => process.wait());
}

/**
 * Writes an executable `rienda` into `binDir` that runs the CLI from the
 * checkout, for shebang tests; returns its path. Prepend `binDir` to `PATH`.
 */
export async function writeRiendaWrapper(binDir: string): Promise<string> {
  await Deno.mkdir(binDir, { recursive: true });
  const path = `${binDir}/rienda`;
  const script = `#!/bin/sh\nexec deno task -q --config '${DENO_CONFIG}' dev "$@"\n`;
  await Deno.writeTextFile(path, script, { mode: 0o755 });
  await Deno.chmod(path, 0o755);
  return path;
}

let denoDirPromise: Promise<string> | undefined;

/** The Deno cache directory of this machine: `DENO_DIR`, else `deno info --json`'s `denoDir`. */
export function denoDir(): Promise<string> {
  denoDirPromise ??= (async () => {
    const fromEnv = Deno.env.get("DENO_DIR");
    if (fromEnv) return fromEnv;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      stdin: "null",
      stderr: "null",
    }).output();
    const info: unknown = JSON.parse(new TextDecoder().decode(output.stdout));
    if (typeof info === "object" && info !== null && "denoDir" in info) {
      const dir = info.denoDir;
      if (typeof dir === "string") return dir;
    }
    throw new Error("deno info --json gave no denoDir: set DENO_DIR");
  })();
  return denoDirPromise;
}

/** The environment of a child: the fixed variables, then the test's additions. */
export async function childEnv(options: RiendaOptions): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: options.home,
    NO_COLOR: "1",
    DENO_DIR: await denoDir(),
  };
  if (options.riendaHome !== undefined) env.RIENDA_HOME = options.riendaHome;
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

async function startProcess(
  command: string,
  args: readonly string[],
  options: RiendaOptions,
): Promise<RiendaProcess> {
  const { cwd, stdin, openStdin = false, timeoutMs = 60_000 } = options;
  const child = new Deno.Command(command, {
    args: [...args],
    cwd,
    clearEnv: true,
    env: await childEnv(options),
    stdin: stdin === undefined && !openStdin ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdinWriter = stdin === undefined && !openStdin ? undefined : child.stdin.getWriter();
  const closeStdin = async () => {
    await stdinWriter?.close().catch(() => {});
  };
  if (stdin !== undefined) {
    await stdinWriter?.write(new TextEncoder().encode(stdin)).catch(() => {});
    await closeStdin();
  }
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  const collect = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      add(text);
      for (const listener of [...listeners]) listener();
    }
  };
  const reading = Promise.all([
    collect(child.stdout, (text) => (stdout += text)),
    collect(child.stderr, (text) => (stderr += text)),
  ]);
  const describe = () => `${command} ${args.join(" ")}\n--- stdout\n${stdout}--- stderr\n${stderr}`;

  let result: Promise<RiendaResult> | undefined;
  function wait(): Promise<RiendaResult> {
    result ??= (async () => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        terminate(child);
      }, timeoutMs);
      try {
        const [status] = await Promise.all([child.status, reading]);
        await closeStdin();
        if (timedOut) throw new Error(`timed out after ${timeoutMs}ms: ${describe()}`);
        return { code: status.code, stdout, stderr };
      } finally {
        clearTimeout(timer);
      }
    })();
    return result;
  }

  function waitForText(
    name: string,
    output: () => string,
    text: string,
    waitMs = 20_000,
  ): Promise<void> {
    return waitUntil(() => output().includes(text), listeners, {
      timeoutMs: waitMs,
      onTimeout: () => new Error(`${name} never showed ${JSON.stringify(text)}: ${describe()}`),
      ended: reading,
      onEnded: () => new Error(`the process ended without ${JSON.stringify(text)}: ${describe()}`),
    });
  }

  return {
    pid: child.pid,
    kill(signal) {
      child.kill(signal);
    },
    async writeStdin(text) {
      if (stdinWriter === undefined) throw new Error("started without openStdin");
      await stdinWriter.write(new TextEncoder().encode(text));
    },
    closeStdin,
    stdoutText: () => stdout,
    stderrText: () => stderr,
    waitForStderr: (text, waitMs) => waitForText("stderr", () => stderr, text, waitMs),
    waitForStdout: (text, waitMs) => waitForText("stdout", () => stdout, text, waitMs),
    wait,
    async [Symbol.asyncDispose]() {
      await closeStdin();
      terminate(child);
      await wait().catch(() => {});
    },
  };
}

/** SIGTERM (which `deno task` forwards), then SIGKILL if the process is still there after 2 s. */
function terminate(child: Deno.ChildProcess): void {
  if (!signalQuietly(child, "SIGTERM")) return;
  const timer = setTimeout(() => signalQuietly(child, "SIGKILL"), 2_000);
  child.status.finally(() => clearTimeout(timer));
}

function signalQuietly(child: Deno.ChildProcess, signal: Deno.Signal): boolean {
  try {
    child.kill(signal);
    return true;
  } catch {
    return false; // already exited
  }
}
