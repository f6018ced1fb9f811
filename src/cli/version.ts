/**
 * `rienda --version`: the version line, and the check main.ts uses to answer
 * it before loading the command tree (scripts probe it; it must be instant).
 *
 * @module
 */

import { VERSION } from "../version.ts";

/** `rienda <version>`. */
export function versionLine(): string {
  return `rienda ${VERSION}`;
}

/** The ways of asking for the version alone. */
export const VERSION_WORDS: readonly string[] = ["--version", "-v", "-V", "version"];

/** Whether `argv` only asks for the version (`--version`, `-v`, `-V` or `version`). */
export function isVersionRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && VERSION_WORDS.includes(argv[0]!);
}
