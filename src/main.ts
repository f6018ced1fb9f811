/**
 * The rienda entry point: builds the process's `Io` (whose stdout and stderr
 * redact every known key, `secrets.ts`), turns SIGINT, SIGTERM
 * and SIGHUP into an abort signal, runs the CLI and exits with its code. This
 * is the only place that calls `Deno.exit`.
 *
 * @module
 */

import { EXIT, exitCodeFor, INTERRUPTED_LINE, UsageError } from "./cli/exit.ts";
import { errorMessage } from "./unknown.ts";
import { isVersionRequest, versionLine } from "./cli/version.ts";
import { killAllProcessGroups } from "./tools/process_group.ts";
import { denoSink, type Io, redactingSink } from "./ui/io.ts";
import { rememberBuiltinKeys } from "./app/api_key.ts";
import { readSecretLine } from "./ui/secret.ts";
import { readAtMost } from "./read_at_most.ts";
import { safeFor } from "./ui/terminal_text.ts";

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

function createIo(): Io & { flush(): void } {
  const devCwd = Deno.env.get(DEV_CWD_VARIABLE);
  if (devCwd !== undefined) {
    Deno.env.delete(DEV_CWD_VARIABLE);
    if (devCwd !== "") Deno.chdir(devCwd);
  }
  rememberBuiltinKeys((name) => Deno.env.get(name));
  const stdout = redactingSink(denoSink(Deno.stdout));
  const stderr = redactingSink(denoSink(Deno.stderr));
  return {
    stdout,
    stderr,
    flush: () => {
      stdout.flush();
      stderr.flush();
    },
    stdinIsTerminal: Deno.stdin.isTerminal(),
    readStdin: async (maxBytes) => {
      const { bytes, complete } = await readAtMost(Deno.stdin.readable, maxBytes);
      return { text: new TextDecoder().decode(bytes), complete };
    },
    readSecret: (prompt) => readSecretLine(prompt),
    env: (name) => Deno.env.get(name),
    cwd: Deno.cwd(),
  };
}

async function main(): Promise<number> {
  const io = createIo();
  const interrupts = new AbortController();
  let firstSignalAt = 0;
  const onSignal = () => {
    // A terminal's Ctrl+C reaches both `deno task` and the program, which then
    // sees it twice within a few milliseconds: only a later one is a second press.
    if (interrupts.signal.aborted && Date.now() - firstSignalAt > DUPLICATE_SIGNAL_MS) {
      // A second interrupt does not wait for the run to wind down.
      killAllProcessGroups();
      io.stderr.write(INTERRUPTED_LINE);
      io.flush();
      Deno.exit(EXIT.interrupted);
    }
    if (interrupts.signal.aborted) return;
    firstSignalAt = Date.now();
    interrupts.abort(new DOMException("the run was interrupted", "AbortError"));
  };
  for (const name of INTERRUPT_SIGNALS) Deno.addSignalListener(name, onSignal);
  try {
    if (isVersionRequest(Deno.args)) {
      io.stdout.write(`${versionLine()}\n`);
      return EXIT.ok;
    }
    // Loaded after the fast path: the command tree costs ~50 ms of npm start-up.
    const { runCli } = await import("./cli/program.ts");
    return await runCli(Deno.args, io, interrupts.signal);
  } catch (error) {
    if (interrupts.signal.aborted) {
      // Interrupted before the run started (e.g. while extensions loaded): not a failure of its own.
      io.stderr.write(INTERRUPTED_LINE);
      return EXIT.interrupted;
    }
    const hint = error instanceof UsageError && error.command !== undefined
      ? ` (see rienda ${error.command} --help)`
      : "";
    io.stderr.write(`rienda: ${safeFor(io.stderr.isTerminal, errorMessage(error))}${hint}\n`);
    return exitCodeFor(error);
  } finally {
    for (const name of INTERRUPT_SIGNALS) Deno.removeSignalListener(name, onSignal);
    killAllProcessGroups();
    io.flush();
  }
}

Deno.exit(await main());
