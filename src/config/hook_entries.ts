/**
 * The entries of a `hooks:` list, in an agent file and in `config.yaml`
 * (docs/extending.md, "Hook entries"): one parser for both, whose problems
 * name the entry (`hooks[2].command: …`) for the caller to place in its file.
 *
 * ```yaml
 * hooks:
 *   - guard                                            # a JavaScript hook
 *   - { name: audit, matcher: "write|edit", priority: -10 }
 *   - command: [node, hooks/policy.mjs, "{tool}", "{path}"]   # a command hook
 *     on: [beforeToolExecute]
 *     timeout_ms: 5000
 *     fail_closed: true
 *   - claude: PreToolUse                               # a Claude Code command hook
 *     matcher: Bash
 *     command: "python3 ~/.claude/hooks/bash_validator.py"
 * ```
 *
 * - `matcher` is a regular expression matched against the whole tool name;
 *   absent or `*` matches every tool. It limits the two tool points only.
 * - `priority` is an integer, lower first, default 0 ({@link orderHookEntries}).
 * - A command is an argv list, never a shell string; a `claude:` entry's
 *   `command` is the shell string Claude Code runs with `sh -c`.
 * - `parse_hook_entries.ts` reads a list into these entries.
 *
 * @module
 */

import { compileLinear } from "../base/linear_regexp.ts";

/**
 * The points a command hook may name in `on:`; the same list, in the same
 * order, as the engine's `HOOK_POINTS` (a test keeps them equal: `config/`
 * may not import the engine).
 */
export const ENTRY_POINTS = [
  "beforeRun",
  "beforePrompt",
  "afterRun",
  "beforeModelRequest",
  "afterModelResponse",
  "beforeToolExecute",
  "afterToolExecute",
] as const;

/** One of {@link ENTRY_POINTS}. */
export type EntryPoint = typeof ENTRY_POINTS[number];

/** The points a `matcher` applies to. */
export const TOOL_POINTS: readonly EntryPoint[] = ["beforeToolExecute", "afterToolExecute"];

/** The Claude Code events a `claude:` entry may name. */
export const CLAUDE_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "SessionStart",
  "Stop",
  "SessionEnd",
] as const;

/** One of {@link CLAUDE_EVENTS}. */
export type ClaudeEvent = typeof CLAUDE_EVENTS[number];

/** The Claude Code events whose matcher Claude Code reads (tool names, or how a session starts or ends). */
export const MATCHED_CLAUDE_EVENTS: readonly ClaudeEvent[] = [
  "PreToolUse",
  "PostToolUse",
  "SessionStart",
  "SessionEnd",
];

/** The `timeout_ms` of a command hook that sets none. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

/** The `timeout_ms` of a `claude:` entry that sets none: Claude Code's 600 s. */
export const DEFAULT_CLAUDE_TIMEOUT_MS = 600_000;

/** The longest `timeout_ms` (a timer's signed 32-bit delay, about 24.8 days). */
export const MAX_HOOK_TIMEOUT_MS = 2 ** 31 - 1;

/** What every entry has. */
export interface EntryBase {
  /** The position in its list (`hooks[N]`), for messages and the order of equal priorities. */
  readonly index: number;
  /**
   * Where the entry is written when that is not its agent's file at `index`:
   * a project agent's run takes the entries of the home agent it replaces.
   */
  readonly origin?: { readonly file: string; readonly index: number };
  /** The `matcher` as written; absent when it matches every tool (absent or `*`). */
  readonly matcher?: string;
  /** Lower runs first; 0 when absent. */
  readonly priority: number;
  /** `fail_closed` as written; absent: the hook's own (false for commands). */
  readonly failClosed?: boolean;
}

/** A JavaScript hook of the rienda home, by name (`guard`, or `{ name: guard, … }`). */
export interface ScriptHookEntry extends EntryBase {
  readonly kind: "script";
  readonly name: string;
  /** `timeout_ms` as written; absent: no limit. */
  readonly timeoutMs?: number;
}

/** A program run with its arguments, never through a shell. */
export interface CommandHookEntry extends EntryBase {
  readonly kind: "command";
  /** As written, placeholders (`{tool}`, `{event}`, `{path}`) unexpanded. */
  readonly argv: readonly [string, ...string[]];
  /** `on:`, in {@link ENTRY_POINTS} order; `[beforeToolExecute]` when absent. */
  readonly points: readonly EntryPoint[];
  readonly timeoutMs: number;
}

/** A Claude Code command hook, as written for Claude Code. */
export interface ClaudeHookEntry extends EntryBase {
  readonly kind: "claude";
  readonly event: ClaudeEvent;
  /** The shell string Claude Code runs with `sh -c`. */
  readonly command: string;
  readonly timeoutMs: number;
}

/** One entry of a `hooks:` list. */
export type HookEntry = ScriptHookEntry | CommandHookEntry | ClaudeHookEntry;

/**
 * The test of `entry`'s matcher: whether it accepts a tool name (the whole
 * name, as the model calls it); every name without a matcher. It runs on
 * RE2 (`base/linear_regexp.ts`, loaded first), so a name a model makes up
 * cannot make a matcher such as `(a+)+b` backtrack for minutes.
 *
 * @throws {Error} when RE2 refuses the matcher (lookaround, backreferences)
 *
 * @example
 * ```ts
 * import { toolMatcher } from "./hook_entries.ts";
 * import { loadLinearRegExp } from "../base/linear_regexp.ts";
 * await loadLinearRegExp();
 * toolMatcher({ matcher: "write|edit" })("write_notes");
 * // false
 * ```
 */
export function toolMatcher(entry: Pick<EntryBase, "matcher">): (tool: string) => boolean {
  if (entry.matcher === undefined) return () => true;
  const regexp = compileLinear(`^(?:${entry.matcher})$`);
  if ("problem" in regexp) {
    throw new Error(
      `${
        JSON.stringify(entry.matcher)
      } cannot run in linear time (no lookaround or backreferences): ${regexp.problem}`,
    );
  }
  return (tool) => regexp.test(tool);
}

/** Where an entry was declared: `config.yaml`, an agent file, or the chat. */
export type EntrySource = "config" | "agent" | "session";

/** An entry and where it comes from. */
export interface SourcedHookEntry {
  readonly entry: HookEntry;
  readonly source: EntrySource;
  /** The file it was read from (none for the chat's). */
  readonly file?: string;
}

const SOURCE_RANK: Readonly<Record<EntrySource, number>> = { config: 0, agent: 1, session: 2 };

/**
 * The run order of entries: lower priority first; equal priorities keep
 * declaration order, `config.yaml` before the agent, the chat's last.
 */
export function orderHookEntries(entries: readonly SourcedHookEntry[]): SourcedHookEntry[] {
  return [...entries].sort((a, b) =>
    a.entry.priority - b.entry.priority ||
    SOURCE_RANK[a.source] - SOURCE_RANK[b.source] ||
    a.entry.index - b.entry.index
  );
}

/** A placeholder-only argument, left out of a command's label. */
const PLACEHOLDER_REGEXP = /\{(?:tool|event|path)\}/;

/**
 * Why `program`, a command's first element, cannot run as written: it holds
 * a placeholder, so the model's call would choose the program (a made-up
 * tool named `../x` makes `hooks/{tool}.sh` a script of its own); null when
 * it can. Placeholders are only replaced in the arguments.
 */
export function programPlaceholderProblem(program: string): string | null {
  const found = PLACEHOLDER_REGEXP.exec(program);
  if (found === null) return null;
  return `the program cannot hold ${found[0]}: the model's call would choose what runs; ` +
    `pass it as an argument (such as [hooks/dispatch.sh, "${found[0]}"])`;
}

/**
 * How messages name an entry: a JavaScript hook's name, a command's program
 * and arguments without the placeholder ones (`node hooks/policy.mjs`), a
 * Claude Code hook's command.
 *
 * @example
 * ```ts
 * import { entryLabel } from "./hook_entries.ts";
 * entryLabel({ kind: "command", argv: ["node", "hooks/policy.mjs", "{tool}"], points: [], index: 0, priority: 0, timeoutMs: 1 });
 * // "node hooks/policy.mjs"
 * ```
 */
export function entryLabel(entry: HookEntry): string {
  switch (entry.kind) {
    case "script":
      return entry.name;
    case "command":
      return entry.argv.filter((arg, i) => i === 0 || !PLACEHOLDER_REGEXP.test(arg)).map(quoted)
        .join(" ");
    case "claude":
      return entry.command;
  }
}

/** The whole command of an entry, each argument quoted where it needs it. */
export function commandText(argv: readonly string[]): string {
  return argv.map(quoted).join(" ");
}

function quoted(arg: string): string {
  if (/^[\w@%+=:,./{}-]+$/u.test(arg)) return arg;
  // Single quotes read naturally inside the double quotes of `hook "…"`; JSON's when it holds one.
  return arg.includes("'") ? JSON.stringify(arg) : `'${arg}'`;
}
