/**
 * What the command declarations share: the wording of common flags, the
 * reading of commander's untyped option values and the wording of its errors.
 *
 * @module
 */

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
