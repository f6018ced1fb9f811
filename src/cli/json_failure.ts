/**
 * `rienda run --output json` prints one JSON object on stdout whatever
 * happens (docs/cli.md, Output): when the run fails before it starts (a bad
 * flag, agent file or model, a missing key) the object is
 * `{"error": "…", "reason": "error"}`, so `| jq` always gets a value. The
 * `rienda: …` line on stderr and the exit code stay as they are.
 *
 * @module
 */

import type { Io, TextSink } from "../ui/io.ts";
import { errorMessage } from "../unknown.ts";

/** Whether `argv` is a `run` asking for `--output json` (`--output json` or `--output=json`). */
export function wantsJsonRun(argv: readonly string[]): boolean {
  if (argv[0] !== "run") return false;
  return argv.some((arg, index) =>
    arg === "--output=json" || (arg === "--output" && argv[index + 1] === "json")
  );
}

/** An `Io` whose stdout remembers whether anything was written to it. */
export interface WatchedIo extends Io {
  /** True once stdout was written to. */
  stdoutUsed(): boolean;
}

/** Wraps `io` so {@link printJsonFailure} knows whether the run already printed its object. */
export function watchStdout(io: Io): WatchedIo {
  let used = false;
  const stdout: TextSink = {
    isTerminal: io.stdout.isTerminal,
    write(text) {
      if (text !== "") used = true;
      io.stdout.write(text);
    },
  };
  return { ...io, stdout, stdoutUsed: () => used };
}

/** Prints the failure object, unless the run already printed one. */
export function printJsonFailure(io: WatchedIo, error: unknown, interrupted: boolean): void {
  if (io.stdoutUsed()) return;
  const failure = interrupted
    ? { error: "the run was interrupted", reason: "interrupted" }
    : { error: errorMessage(error), reason: "error" };
  io.stdout.write(`${JSON.stringify(failure)}\n`);
}
