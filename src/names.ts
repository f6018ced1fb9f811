/**
 * The name rule shared by agent ids, tool names and hook names
 * (docs/formats.md): agent files and extension folders both follow it.
 *
 * @module
 */

/** 1 to 64 letters, digits, `_` or `-`. */
export const NAME_REGEXP = /^[A-Za-z0-9_-]{1,64}$/;

/** How {@link NAME_REGEXP} reads in error messages. */
export const NAME_RULE = '1 to 64 letters, digits, "_" or "-"';

/** Whether `name` is a valid agent id, tool name or hook name. */
export function isValidName(name: string): boolean {
  return NAME_REGEXP.test(name);
}
