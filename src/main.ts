/**
 * The rienda entry point: builds the process's `Io` (whose stdout and stderr
 * redact every key it knows, `Io.secrets`), turns SIGINT, SIGTERM
 * and SIGHUP into an abort signal, runs the CLI and exits with its code. This
 * is the only place that calls `Deno.exit`.
 *
 * @module
 */

import { EXIT, exitCodeFor, INTERRUPTED_LINE, UsageError } from "./cli/exit.ts";
import { errorMessage } from "./base/unknown.ts";
import { isVersionRequest, versionLine } from "./cli/version.ts";
import { killAllProcessGroups } from "./tools/process_group.ts";
import { type Io, redactingSink } from "./ui/io.ts";
import { streamSink } from "./ui/stream_sink.ts";
import { releaseOutputBacklog } from "./host/output_steps.ts";
import { rememberEnvironmentSecrets } from "./app/environment_secrets.ts";
import { SecretSet } from "./secrets/secrets.ts";
import { readSecretLine } from "./ui/secret.ts";
import { readAtMost, readWhileProducing } from "./host/read_at_most.ts";
import { terminalSafe } from "./ui/terminal_text.ts";

/**
 * The command tree, imported by a computed specifier: from source, Deno loads the whole graph
 * behind a literal `import()` at start-up even when it never runs, which was half of what
 * `--version` cost (docs/performance.md).
 */
const PROGRAM_MODULE = "./cli/program.ts";

/** What the command tree exports (a type-level `import()`, erased at run time). */
type Program = typeof import("./cli/program.ts");

/** `deno task dev` runs from the checkout and passes the caller's directory here. */
const DEV_CWD_VARIABLE = "RIENDA_DEV_CWD";

/**
 * The signals that interrupt a run (docs/cli.md, Interrupts): SIGHUP is a
 * closed terminal. Windows only delivers Ctrl+C and Ctrl+Break.
 */
const INTERRUPT_SIGNALS: readonly Deno.Signal[] = Deno.build.os === "windows"
  ? ["SIGINT", "SIGBREAK"]
  : ["SIGINT", "SIGTERM", "SIGHUP"];

/** Signals closer than this to the first one are the same interrupt delivered twice. */
const DUPLICATE_SIGNAL_MS = 300;

/**
 * The most an interrupted run may take to wind down: `afterRun`'s grace
 * (0.5 s, `AFTER_RUN_GRACE_MS`), the 1 s the engine then still waits, and
 * 1 s to store the session.
 * Past it rienda exits whatever it still waits on (a named pipe nobody
 * writes, given as config.yaml or an agent file, blocks its reader forever).
 */
const WIND_DOWN_MS = 2_500;

/** How long output still queued for a pipe may delay the exit once the run was interrupted. */
const DRAIN_AFTER_INTERRUPT_MS = 300;

/** The process's `Io`, and the end of its output. */
interface ProcessIo extends Io {
  /** Writes what the redactors held back. */
  flush(): void;
  /**
   * Waits until stdout and stderr got everything (a pipe is written
   * asynchronously), but once `signal` aborted at most {@link DRAIN_AFTER_INTERRUPT_MS};
   * resolves to the error that stopped a write, if one did.
   */
  drained(signal: AbortSignal): Promise<unknown>;
  /** The run was interrupted: output not yet written is dropped (a note on stderr says how much). */
  interrupted(): void;
}

function createIo(): ProcessIo {
  // Read only where the permission set allows it: no launcher ever needs the variable.
  const devCwd = Deno.permissions.querySync({ name: "env", variable: DEV_CWD_VARIABLE }).state ===
      "granted"
    ? Deno.env.get(DEV_CWD_VARIABLE)
    : undefined;
  if (devCwd !== undefined) {
    Deno.env.delete(DEV_CWD_VARIABLE);
    if (devCwd !== "") Deno.chdir(devCwd);
  }
  const secrets = new SecretSet();
  rememberEnvironmentSecrets(secrets, Deno.env.toObject());
  const streams = [streamSink(Deno.stdout), streamSink(Deno.stderr)] as const;
  const stdout = redactingSink(streams[0], secrets);
  const stderr = redactingSink(streams[1], secrets);
  return {
    stdout,
    stderr,
    flush: () => {
      stdout.flush();
      stderr.flush();
    },
    drained: (signal) => {
      const written = Promise.all(streams.map((stream) => stream.drained())).then(
        () => undefined,
        (error: unknown) => error,
      );
      const cutShort = new Promise<undefined>((resolve) => {
        const start = () =>
          Deno.unrefTimer(setTimeout(() => resolve(undefined), DRAIN_AFTER_INTERRUPT_MS));
        if (signal.aborted) start();
        else signal.addEventListener("abort", start, { once: true });
      });
      return Promise.race([written, cutShort]);
    },
    interrupted: () => {
      releaseOutputBacklog();
      streams[0].discardQueued();
      const dropped = streams[1].discardQueued();
      if (dropped > 0) stderr.write(`\n[… ${dropped} bytes of output dropped]\n`);
    },
    stdinIsTerminal: Deno.stdin.isTerminal(),
    readStdin: async (maxBytes) => {
      const { bytes, complete } = await readAtMost(Deno.stdin.readable, maxBytes);
      return { text: new TextDecoder().decode(bytes), complete };
    },
    readStdinWhileProducing: async (maxBytes, options) => {
      const read = await readWhileProducing(Deno.stdin.readable, maxBytes, options);
      return read === null
        ? null
        : { text: new TextDecoder().decode(read.bytes), complete: read.complete };
    },
    stdinBytes: () => Deno.stdin.readable,
    readSecret: (prompt) => readSecretLine(prompt),
    env: (name) => Deno.env.get(name),
    cwd: Deno.cwd(),
    secrets,
  };
}

async function main(): Promise<number> {
  const io = createIo();
  const interrupts = new AbortController();
  let firstSignalAt = 0;
  const exitInterrupted = async () => {
    killAllProcessGroups();
    io.stderr.write(INTERRUPTED_LINE);
    io.flush();
    // A pipe is written asynchronously: give the line its (short, bounded) chance to get out.
    await io.drained(interrupts.signal);
    Deno.exit(EXIT.interrupted);
  };
  let windDown: ReturnType<typeof setTimeout> | undefined;
  const onSignal = () => {
    // A terminal's Ctrl+C reaches both `deno task` and the program, which then
    // sees it twice within a few milliseconds: only a later one is a second press.
    if (interrupts.signal.aborted && Date.now() - firstSignalAt > DUPLICATE_SIGNAL_MS) {
      // A second interrupt does not wait for the run to wind down.
      void exitInterrupted();
      return;
    }
    if (interrupts.signal.aborted) return;
    firstSignalAt = Date.now();
    const timer = setTimeout(() => void exitInterrupted(), WIND_DOWN_MS);
    Deno.unrefTimer(timer);
    windDown = timer;
    // Stopping comes first: output waiting for a reader no longer holds anything up.
    io.interrupted();
    interrupts.abort(new DOMException("the run was interrupted", "AbortError"));
  };
  for (const name of INTERRUPT_SIGNALS) Deno.addSignalListener(name, onSignal);
  let code: number;
  try {
    code = await runCommand(io, interrupts.signal);
  } finally {
    killAllProcessGroups();
    io.flush();
  }
  // Signals still count while output drains: a reader that never reads cannot keep rienda alive.
  const failure = await io.drained(interrupts.signal);
  if (failure !== undefined) {
    io.stderr.write(`rienda: cannot write the output: ${errorMessage(failure)}\n`);
    await io.drained(interrupts.signal);
    code = EXIT.failure;
  }
  for (const name of INTERRUPT_SIGNALS) Deno.removeSignalListener(name, onSignal);
  if (windDown !== undefined) clearTimeout(windDown);
  return interrupts.signal.aborted ? EXIT.interrupted : code;
}

/** The command of `Deno.args`, to its exit code; every failure is one `rienda:` line. */
async function runCommand(io: ProcessIo, signal: AbortSignal): Promise<number> {
  try {
    if (isVersionRequest(Deno.args)) {
      io.stdout.write(`${versionLine()}\n`);
      return EXIT.ok;
    }
    // Loaded after the fast path: the command tree costs ~50 ms of npm start-up.
    const { runCli }: Program = await import(PROGRAM_MODULE);
    return await runCli(Deno.args, io, signal);
  } catch (error) {
    if (signal.aborted) {
      // Interrupted before the run started (e.g. while extensions loaded): not a failure of its own.
      io.stderr.write(INTERRUPTED_LINE);
      return EXIT.interrupted;
    }
    const hint = error instanceof UsageError && error.command !== undefined
      ? ` (see rienda ${error.command} --help)`
      : "";
    // stderr is the human channel: written out, pipe or terminal.
    io.stderr.write(`rienda: ${terminalSafe(errorMessage(error))}${hint}\n`);
    return exitCodeFor(error);
  }
}

Deno.exit(await main());
