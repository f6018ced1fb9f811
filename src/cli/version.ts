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

/** Whether `argv` only asks for the version (`--version`, `-v` or `version`). */
export function isVersionRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && ["--version", "-v", "version"].includes(argv[0]!);
}
