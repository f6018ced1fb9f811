/**
 * rienda's tools under Claude Code's names and input fields, and back
 * (docs/extending.md, "Claude Code hooks"): what a Claude Code hook script
 * reads in `tool_name` and `tool_input`, and how its `updatedInput` becomes
 * rienda's arguments again.
 *
 * | rienda  | Claude Code | fields (rienda → Claude Code)                                    |
 * | ------- | ----------- | ---------------------------------------------------------------- |
 * | `shell` | `Bash`      | `command`, `timeout_ms` → `timeout`                              |
 * | `read`  | `Read`      | `path` → `file_path`, `offset`, `limit`                          |
 * | `write` | `Write`     | `path` → `file_path`, `content`                                  |
 * | `edit`  | `Edit`      | `path` → `file_path`, `old_string`, `new_string`, `replace_all` |
 * | `grep`  | `Grep`      | `pattern`, `path`, `glob`, `ignore_case` → `-i`, `context` → `-C`, `max_results` → `head_limit` |
 * | `find`  | `Glob`      | `pattern`, `path`                                                |
 * | `ls`    | `LS`        | `path`                                                           |
 * | `http`  | `WebFetch`  | `url`, `method`, `headers`, `body`                               |
 *
 * - A tool named `<server>__<tool>` (how rienda names MCP tools) is
 *   `mcp__<server>__<tool>`; any other tool keeps its name and fields.
 * - Fields without a Claude Code name keep theirs (`shell`'s `workdir`).
 *   `file_path` is absolute, as Claude Code's are (resolved against the
 *   workspace); mapped back, a path naming the same file keeps the call's
 *   own spelling.
 * - `updatedInput` replaces the fields it names; those it leaves out keep
 *   their values. It cannot change the tool: `tool_name` in it is only a
 *   field, and a field the tool does not take makes the call fail its
 *   schema check, after the hooks. Claude Code's own fields that rienda's
 *   tool has no use for (`Bash`'s `description`, `WebFetch`'s `prompt`) are
 *   dropped.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";

/** One built-in's Claude Code form. */
interface ClaudeShape {
  readonly name: string;
  /** rienda field → Claude Code field; unlisted fields keep their names. */
  readonly fields: Readonly<Record<string, string>>;
  /** Claude Code fields that the rienda tool does not take, dropped when mapped back. */
  readonly dropped?: readonly string[];
}

const BUILTIN_SHAPES: Readonly<Record<string, ClaudeShape>> = {
  shell: {
    name: "Bash",
    fields: { "timeout_ms": "timeout" },
    dropped: ["description", "run_in_background"],
  },
  read: { name: "Read", fields: { path: "file_path" } },
  write: { name: "Write", fields: { path: "file_path" } },
  edit: { name: "Edit", fields: { path: "file_path" } },
  grep: {
    name: "Grep",
    fields: { "ignore_case": "-i", context: "-C", "max_results": "head_limit" },
    dropped: ["output_mode", "-n"],
  },
  find: { name: "Glob", fields: {} },
  ls: { name: "LS", fields: {} },
  http: { name: "WebFetch", fields: {}, dropped: ["prompt"] },
};

/** The Claude Code fields holding a file path, made absolute for the script. */
const ABSOLUTE_FIELDS: readonly string[] = ["file_path"];

const MCP_NAME_REGEXP = /^([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__(.+)$/;

/**
 * The name Claude Code gives `tool` (see the module doc).
 *
 * @example
 * ```ts
 * import { claudeToolName } from "./claude_tools.ts";
 * claudeToolName("shell"); // "Bash"
 * claudeToolName("github__create_issue"); // "mcp__github__create_issue"
 * claudeToolName("word-count"); // "word-count"
 * ```
 */
export function claudeToolName(tool: string): string {
  const shape = BUILTIN_SHAPES[tool];
  if (shape !== undefined) return shape.name;
  return MCP_NAME_REGEXP.test(tool) ? `mcp__${tool}` : tool;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The `tool_input` a Claude Code script reads for a call of `tool` with
 * `args`; `workdir` makes `file_path` absolute.
 */
export function toClaudeInput(
  tool: string,
  args: unknown,
  workdir: string,
): Record<string, unknown> {
  if (!isObject(args)) return {};
  const shape = BUILTIN_SHAPES[tool];
  if (shape === undefined) return { ...args };
  const input: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(args)) {
    const name = shape.fields[field] ?? field;
    input[name] = ABSOLUTE_FIELDS.includes(name) && typeof value === "string"
      ? resolve(workdir, value)
      : value;
  }
  return input;
}

/**
 * rienda's arguments for a call of `tool` made with `args`, after a Claude
 * Code script answered `updatedInput` (see the module doc).
 */
export function fromClaudeInput(
  tool: string,
  args: unknown,
  updatedInput: Readonly<Record<string, unknown>>,
  workdir: string,
): Record<string, unknown> {
  const original: Readonly<Record<string, unknown>> = isObject(args) ? args : {};
  const shape = BUILTIN_SHAPES[tool];
  if (shape === undefined) return { ...original, ...updatedInput };
  const back = new Map(Object.entries(shape.fields).map(([field, name]) => [name, field]));
  const merged: Record<string, unknown> = { ...original };
  for (const [name, value] of Object.entries(updatedInput)) {
    if (shape.dropped?.includes(name)) continue;
    const field = back.get(name) ?? name;
    merged[field] = ABSOLUTE_FIELDS.includes(name)
      ? samePath(original[field], value, workdir)
      : value;
  }
  return merged;
}

/** `updated`, or the call's own spelling `before` when both name the same file. */
function samePath(before: unknown, updated: unknown, workdir: string): unknown {
  if (typeof before !== "string" || typeof updated !== "string" || !isAbsolute(updated)) {
    return updated;
  }
  return resolve(workdir, before) === updated ? before : updated;
}
