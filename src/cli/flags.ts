/**
 * What the command declarations share: the wording of common flags and the
 * reading of commander's untyped option values.
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
