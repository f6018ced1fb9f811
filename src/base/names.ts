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

/**
 * The rule of agent ids, which are file names: {@link NAME_REGEXP} plus dots
 * inside (`powershell-5.1-expert`), as Claude Code's agent files use them.
 */
export const AGENT_ID_REGEXP = /^[A-Za-z0-9_-](?:[A-Za-z0-9_.-]{0,62}[A-Za-z0-9_-])?$/;

/** How {@link AGENT_ID_REGEXP} reads in error messages. */
export const AGENT_ID_RULE = '1 to 64 letters, digits, "_", "-" or ".", with no "." first or last';

/** Whether `id` is a valid agent id. */
export function isValidAgentId(id: string): boolean {
  return AGENT_ID_REGEXP.test(id);
}
