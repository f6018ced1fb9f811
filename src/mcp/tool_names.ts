/**
 * The names the model sees for MCP tools (docs/mcp.md, "Naming"):
 * `<server>__<tool>`, provider-safe and at most 64 characters.
 *
 * - Characters of the tool name other than letters, digits, `_` and `-`
 *   become `_` (`files.read` → `fs__files_read`).
 * - A longer name is cut to 55 characters and gets `_` and 8 hex digits of a
 *   hash of `<server>/<tool>`, so two long names that share their start differ.
 * - Two tools whose names meet are an error the caller reports with both.
 *
 * @module
 */

/** The longest tool name every provider accepts. */
export const MAX_MODEL_TOOL_NAME = 64;

const HASH_DIGITS = 8;

/** `tool` with every character other than letters, digits, `_` and `-` replaced by `_`. */
export function sanitizeToolName(tool: string): string {
  return tool.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** The model-facing name of `tool` of `server`. */
export function modelToolName(server: string, tool: string): string {
  const name = `${server}__${sanitizeToolName(tool)}`;
  if (name.length <= MAX_MODEL_TOOL_NAME) return name;
  const hash = fnv1a(`${server}/${tool}`).toString(16).padStart(HASH_DIGITS, "0");
  return `${name.slice(0, MAX_MODEL_TOOL_NAME - HASH_DIGITS - 1)}_${hash}`;
}

/**
 * The tool of `names` an agent file means by `wanted`: the exact name, else
 * the one whose sanitized name matches (Claude Code writes `files_read` for
 * `files.read`); undefined when none does.
 */
export function findToolName(names: readonly string[], wanted: string): string | undefined {
  if (names.includes(wanted)) return wanted;
  return names.find((name) => sanitizeToolName(name) === wanted);
}

/** 32-bit FNV-1a of the UTF-16 code units of `text`. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
