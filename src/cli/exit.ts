/**
 * Errors and outcomes → exit codes and the one `rienda: …` line, in one place
 * (docs/cli.md, "Exit codes").
 *
 * @module
 */

/** The last stderr line of an interrupted run (docs/cli.md, exit 130). */
export const INTERRUPTED_LINE = "rienda: the run was interrupted\n";

/** Exit codes of docs/cli.md. */
export const EXIT = { ok: 0, failure: 1, usage: 2, hookStop: 3, interrupted: 130 } as const;

/** A bad invocation: unknown flag, missing agent or prompt, conflicting flags (exit 2). */
export class UsageError extends Error {
  override name = "UsageError";
  /** The command whose help the user should read, e.g. `run`. */
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.command = command;
  }
}

/** The exit code for an error thrown by a command. */
export function exitCodeFor(error: unknown): number {
  return error instanceof UsageError ? EXIT.usage : EXIT.failure;
}
