/**
 * What the command declarations share: the wording of common flags, the
 * reading of commander's untyped option values and the wording of its errors.
 *
 * @module
 */

import { resolve } from "node:path";
import type { AgentSpec } from "../app/run_target.ts";
import { isSandboxMode, type SandboxMode } from "../sandbox/sandbox_setting.ts";
import { UsageError } from "./exit.ts";

/** The help of `--config`, the same on every command. */
export const CONFIG_FLAG_HELP =
  "configuration file (default: $RIENDA_CONFIG, then $RIENDA_HOME/config.yaml)";

/** The value of a string option commander parsed, or undefined. */
export function stringFlag(flags: Record<string, unknown>, name: string): string | undefined {
  const value = flags[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * commander's message as a `rienda:` line: `error: unknown option '--agnet'
 * (Did you mean --agent?)` → `unknown option "--agnet": did you mean --agent?`.
 */
export function commanderMessage(message: string): string {
  return message.replace(/^error: /, "")
    .replace(/\s*\(Did you mean (.+)\?\)\s*$/s, ": did you mean $1?")
    .replace(/'([^']*)'/g, '"$1"').replace(/\.$/, "");
}

/** The flags and help of `--sandbox`, the same on `rienda run`, the chat and `rienda acp`. */
export const SANDBOX_FLAG = "--sandbox <mode>";

/** The help of `--sandbox`. */
export const SANDBOX_FLAG_HELP =
  "confine commands: workspace-write, read-only or off (wins over the agent and config.yaml)";

/**
 * The `--sandbox` value commander parsed, checked; undefined when absent.
 *
 * @throws {UsageError} naming the modes when the value is none of them
 */
export function sandboxFlag(
  flags: Record<string, unknown>,
  command?: string,
): SandboxMode | undefined {
  const value = stringFlag(flags, "sandbox");
  if (value === undefined || isSandboxMode(value)) return value;
  throw new UsageError(
    `--sandbox must be workspace-write, read-only or off (found ${JSON.stringify(value)})`,
    command,
  );
}

/** The agent `-a ID` or `-f FILE` names (the file absolute, from `cwd`); undefined when neither. */
export function agentFlag(
  cwd: string,
  flags: { readonly agent: string | undefined; readonly agentFile: string | undefined },
): AgentSpec | undefined {
  if (flags.agent !== undefined) return { kind: "id", id: flags.agent };
  return flags.agentFile === undefined
    ? undefined
    : { kind: "file", path: resolve(cwd, flags.agentFile) };
}
