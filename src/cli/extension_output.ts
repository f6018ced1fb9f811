/**
 * What `rienda tools test` and `rienda hooks test` share: JSON flags parsed
 * as usage errors, and where an extension's notices go (stderr, one line
 * each; `ctx.notify` as `notify: <title>: <body>`, so an author sees it).
 *
 * @module
 */

import type { UserNotice } from "../extensions/run_context.ts";
import {
  type CapabilityPolicy,
  describeGrant,
  type GrantedExtension,
  grantOf,
} from "../extensions/capabilities.ts";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import { errorMessage } from "../unknown.ts";

/**
 * Parses the JSON text of `flag`; `{}` when it was not given.
 *
 * @throws {UsageError} naming the flag and the JSON problem
 */
export function parseJsonFlag(flag: string, text: string | undefined, command: string): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = errorMessage(error);
    throw new UsageError(
      `${flag} is not valid JSON: ${detail}`,
      command,
    );
  }
}

/** Notice and `ctx.notify` callbacks that write to stderr. */
export function workbenchCallbacks(io: Io): {
  notice: (text: string) => void;
  notify: (notice: UserNotice) => void;
} {
  return {
    notice: (text) => io.stderr.write(`${text}\n`),
    notify: ({ title, body }) =>
      io.stderr.write(`notify: ${[title, body].filter((part) => part !== "").join(": ")}\n`),
  };
}

/** The line under a listed extension: `  capabilities: full access` (docs/extending.md). */
export function capabilitiesLine(extension: GrantedExtension, policy: CapabilityPolicy): string {
  return `  capabilities: ${describeGrant(grantOf(extension, policy))}\n`;
}
