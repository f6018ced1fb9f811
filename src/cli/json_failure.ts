/**
 * `rienda run --output json` and `--output stream-json` print JSON on stdout
 * whatever happens (docs/cli.md, Output): when the run fails before it starts
 * (a bad flag, agent file or model, a missing key) json prints
 * `{"error": "…", "reason": "error"}` and stream-json one `run_end` line, so
 * `| jq` always gets a value. The `rienda: …` line on stderr and the exit
 * code stay as they are.
 *
 * @module
 */

import type { Io, TextSink } from "../ui/io.ts";
import { errorMessage } from "../base/unknown.ts";

/** The JSON `--output` of a `run` invocation (`--output json` or `--output=json`), if any. */
export function jsonOutputOf(argv: readonly string[]): "json" | "stream-json" | undefined {
  if (argv[0] !== "run") return undefined;
  let found: "json" | "stream-json" | undefined;
  argv.forEach((arg, index) => {
    const value = arg.startsWith("--output=")
      ? arg.slice("--output=".length)
      : arg === "--output"
      ? argv[index + 1]
      : undefined;
    if (value === "json" || value === "stream-json") found = value;
  });
  return found;
}

/** An `Io` whose stdout remembers whether anything was written to it. */
export interface WatchedIo extends Io {
  /** True once stdout was written to. */
  stdoutUsed(): boolean;
}

/** Wraps `io` so {@link printJsonFailure} knows whether the run already printed its result. */
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

/** Prints the failure in the `output` format, unless the run already printed its result. */
export function printJsonFailure(
  io: WatchedIo,
  output: "json" | "stream-json",
  error: unknown,
  interrupted: boolean,
): void {
  if (io.stdoutUsed()) return;
  const failure = interrupted
    ? { error: "the run was interrupted", reason: "interrupted" }
    : { error: errorMessage(error), reason: "error" };
  const line = output === "json" ? failure : {
    type: "run_end",
    reason: failure.reason,
    error: failure.error,
    text: "",
    usage: {
      inputTokens: 0,
      outputTokens: 0,
      reasoningTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    turns: 0,
  };
  io.stdout.write(`${JSON.stringify(line)}\n`);
}
