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
 *
 * @module
 */

import { describeValue } from "./describe_value.ts";
import type { FieldPath } from "../base/field_path.ts";
import { isValidName, NAME_RULE } from "../base/names.ts";

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
interface EntryBase {
  /** The position in its list (`hooks[N]`), for messages and the order of equal priorities. */
  readonly index: number;
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

/** A problem of an entry: the path from the list's field (`["hooks", 2, "command"]`). */
export interface EntryProblem {
  readonly path: FieldPath;
  readonly message: string;
  /** True when it is about the key at `path`, not its value. */
  readonly key?: boolean;
}

/** What {@link parseHookEntries} found: the valid entries, and a problem per fault. */
export interface ParsedHookEntries {
  readonly entries: readonly HookEntry[];
  readonly problems: readonly EntryProblem[];
}

const COMMON_KEYS = ["matcher", "priority", "timeout_ms", "fail_closed"];
const KEYS: Readonly<Record<HookEntry["kind"], readonly string[]>> = {
  script: ["name", ...COMMON_KEYS],
  command: ["command", "on", ...COMMON_KEYS],
  claude: ["claude", "command", ...COMMON_KEYS],
};

const LIST_EXAMPLE = "[guard, { command: [node, hooks/check.mjs] }]";

/**
 * Reads a `hooks:` list (`field` names it in problems). Absent or null is no
 * hooks; an entry with a problem is left out, and every problem is reported.
 *
 * @example
 * ```ts
 * import { parseHookEntries } from "./hook_entries.ts";
 * parseHookEntries([{ command: "rm -rf /" }]).problems[0]?.message;
 * // 'must be an argv list such as [node, hooks/x.mjs] (found "rm -rf /"); a command hook never runs through a shell'
 * ```
 */
export function parseHookEntries(value: unknown, field = "hooks"): ParsedHookEntries {
  if (value === undefined || value === null) return { entries: [], problems: [] };
  if (!Array.isArray(value)) {
    return {
      entries: [],
      problems: [{
        path: [field],
        message: `must be a list of hook entries such as ${LIST_EXAMPLE} (found ${
          describeValue(value)
        })`,
      }],
    };
  }
  const entries: HookEntry[] = [];
  const problems: EntryProblem[] = [];
  value.forEach((item: unknown, index) => {
    const read = readEntry(item, index, [field, index]);
    if ("entry" in read) entries.push(read.entry);
    else problems.push(...read.problems);
  });
  return { entries, problems };
}

type Read = { entry: HookEntry } | { problems: EntryProblem[] };

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readEntry(item: unknown, index: number, at: FieldPath): Read {
  if (typeof item === "string") {
    const problem = nameProblem(item);
    return problem === null
      ? { entry: { kind: "script", name: item, index, priority: 0 } }
      : { problems: [{ path: at, message: problem }] };
  }
  if (!isObject(item)) {
    return {
      problems: [{
        path: at,
        message:
          `must be a hook name or an entry such as { command: [node, hooks/check.mjs] } (found ${
            describeValue(item)
          })`,
      }],
    };
  }
  const kinds = (["name", "command", "claude"] as const).filter((key) => key in item);
  const kind = kinds.includes("claude") ? "claude" : kinds[0];
  if (kind === undefined) {
    return {
      problems: [{
        path: at,
        message: 'missing "name", "command" or "claude" (such as { name: guard } or ' +
          "{ command: [node, hooks/check.mjs] })",
      }],
    };
  }
  if (kind === "name" && kinds.includes("command")) {
    return {
      problems: [{
        path: at,
        message: 'has both "name" (a JavaScript hook) and "command" (a command hook): ' +
          "an entry is one or the other",
      }],
    };
  }
  const reader = new EntryReader(item, at, kind === "name" ? "script" : kind);
  return reader.read(index);
}

function nameProblem(name: unknown): string | null {
  if (typeof name !== "string") return `must be a hook name (found ${describeValue(name)})`;
  return isValidName(name)
    ? null
    : `invalid hook name ${JSON.stringify(name)} (expected ${NAME_RULE})`;
}

/** Reads the keys of one object entry of a known kind, collecting every problem. */
class EntryReader {
  readonly #item: Readonly<Record<string, unknown>>;
  readonly #at: FieldPath;
  readonly #kind: HookEntry["kind"];
  readonly problems: EntryProblem[] = [];

  constructor(item: Readonly<Record<string, unknown>>, at: FieldPath, kind: HookEntry["kind"]) {
    this.#item = item;
    this.#at = at;
    this.#kind = kind;
  }

  #report(key: string | null, message: string, onKey = false): void {
    this.problems.push({
      path: key === null ? this.#at : [...this.#at, key],
      message,
      ...(onKey ? { key: true } : {}),
    });
  }

  read(index: number): Read {
    const allowed = KEYS[this.#kind];
    for (const key of Object.keys(this.#item)) {
      if (!allowed.includes(key)) {
        this.#report(
          key,
          `unknown key for this entry (expected one of: ${allowed.join(", ")})`,
          true,
        );
      }
    }
    const base = this.#base(index);
    const entry = this.#entry(base);
    return this.problems.length > 0 || entry === null ? { problems: this.problems } : { entry };
  }

  #entry(base: Omit<EntryBase, "failClosed"> & { failClosed?: boolean }): HookEntry | null {
    const item = this.#item;
    const timeout = this.#timeout();
    switch (this.#kind) {
      case "script": {
        const problem = nameProblem(item.name);
        if (problem !== null) this.#report("name", problem);
        return problem === null && typeof item.name === "string"
          ? {
            kind: "script",
            name: item.name,
            ...base,
            ...(timeout === undefined ? {} : { timeoutMs: timeout }),
          }
          : null;
      }
      case "command": {
        const argv = this.#argv();
        const points = this.#points();
        if (argv === null || points === null) return null;
        this.#checkMatcherPoints(base.matcher, points);
        return {
          kind: "command",
          argv,
          points,
          ...base,
          timeoutMs: timeout ?? DEFAULT_COMMAND_TIMEOUT_MS,
        };
      }
      case "claude": {
        const event = this.#claudeEvent();
        const command = item.command;
        if (typeof command !== "string" || command.trim() === "") {
          this.#report(
            "command" in item ? "command" : null,
            "command" in item
              ? `must be the shell command Claude Code runs, such as "python3 ~/.claude/hooks/check.py" (found ${
                describeValue(command)
              })`
              : 'missing "command" (the shell command Claude Code runs)',
          );
          return null;
        }
        if (event === null) return null;
        if (base.matcher !== undefined && !MATCHED_CLAUDE_EVENTS.includes(event)) {
          this.#report(
            "matcher",
            `Claude Code reads no matcher for ${event} (it applies to ${
              MATCHED_CLAUDE_EVENTS.join(", ")
            }): remove it`,
          );
          return null;
        }
        return {
          kind: "claude",
          event,
          command,
          ...base,
          timeoutMs: timeout ?? DEFAULT_CLAUDE_TIMEOUT_MS,
        };
      }
    }
  }

  #base(index: number): Omit<EntryBase, "failClosed"> & { failClosed?: boolean } {
    const { matcher, priority, fail_closed: failClosed } = this.#item;
    const base: { index: number; priority: number; matcher?: string; failClosed?: boolean } = {
      index,
      priority: 0,
    };
    if (matcher !== undefined) {
      const problem = matcherProblem(matcher);
      if (problem !== null) this.#report("matcher", problem);
      else if (typeof matcher === "string" && matcher !== "*") base.matcher = matcher;
    }
    if (priority !== undefined) {
      if (Number.isSafeInteger(priority)) base.priority = Number(priority);
      else {
        this.#report(
          "priority",
          `must be a whole number, lower first, such as -10 or 5 (found ${
            describeValue(priority)
          })`,
        );
      }
    }
    if (failClosed !== undefined) {
      if (typeof failClosed === "boolean") base.failClosed = failClosed;
      else {this.#report(
          "fail_closed",
          `must be true or false (found ${describeValue(failClosed)})`,
        );}
    }
    return base;
  }

  #timeout(): number | undefined {
    const value = this.#item.timeout_ms;
    if (value === undefined) return undefined;
    if (Number.isInteger(value) && Number(value) >= 1 && Number(value) <= MAX_HOOK_TIMEOUT_MS) {
      return Number(value);
    }
    this.#report(
      "timeout_ms",
      `must be a whole number of milliseconds from 1 to ${MAX_HOOK_TIMEOUT_MS} (found ${
        describeValue(value)
      })`,
    );
    return undefined;
  }

  #argv(): readonly [string, ...string[]] | null {
    const command = this.#item.command;
    const example = "[node, hooks/x.mjs]";
    if (!Array.isArray(command)) {
      this.#report(
        "command",
        `must be an argv list such as ${example} (found ${describeValue(command)})` +
          (typeof command === "string" ? "; a command hook never runs through a shell" : ""),
      );
      return null;
    }
    const [program, ...rest] = command;
    if (program === undefined) {
      this.#report("command", `must name a program, such as ${example} (found an empty list)`);
      return null;
    }
    let ok = true;
    command.forEach((element: unknown, i) => {
      if (typeof element === "string" && !element.includes("\0") && (i > 0 || element !== "")) {
        return;
      }
      ok = false;
      this.problems.push({
        path: [...this.#at, "command", i],
        message: i === 0
          ? `must be the program to run, such as node or hooks/check.sh (found ${
            describeValue(element)
          })`
          : `must be a text argument (found ${describeValue(element)})`,
      });
    });
    return ok && typeof program === "string"
      ? [program, ...rest.map((element) => String(element))]
      : null;
  }

  #points(): EntryPoint[] | null {
    const on = this.#item.on;
    if (on === undefined) return ["beforeToolExecute"];
    const listed: unknown[] = typeof on === "string" ? [on] : Array.isArray(on) ? on : [on];
    const known = ENTRY_POINTS.join(", ");
    if (listed.length === 0) {
      this.#report("on", `must name at least one point (one of: ${known})`);
      return null;
    }
    const bad = listed.filter((point) => !ENTRY_POINTS.some((known) => known === point));
    if (bad.length > 0) {
      this.#report(
        "on",
        `unknown point ${
          bad.map((point) => describeValue(point)).join(", ")
        } (expected one of: ${known})`,
      );
      return null;
    }
    return ENTRY_POINTS.filter((point) => listed.includes(point));
  }

  #checkMatcherPoints(matcher: string | undefined, points: readonly EntryPoint[]): void {
    if (matcher === undefined) return;
    const others = points.filter((point) => !TOOL_POINTS.includes(point));
    if (others.length === 0) return;
    this.#report(
      "matcher",
      `applies to beforeToolExecute and afterToolExecute only, and this entry runs at ${
        others.join(", ")
      }: list those points in an entry of their own`,
    );
  }

  #claudeEvent(): ClaudeEvent | null {
    const event = this.#item.claude;
    const found = CLAUDE_EVENTS.find((known) => known === event);
    if (found !== undefined) return found;
    this.#report(
      "claude",
      `unknown Claude Code event ${describeValue(event)} (rienda runs: ${
        CLAUDE_EVENTS.join(", ")
      })`,
    );
    return null;
  }
}

/** Why `matcher` is not a usable regular expression, or null. */
function matcherProblem(matcher: unknown): string | null {
  if (matcher === "*") return null;
  if (typeof matcher !== "string" || matcher === "") {
    return `must be a regular expression of tool names such as "write|edit" (found ${
      describeValue(matcher)
    })`;
  }
  try {
    new RegExp(`^(?:${matcher})$`, "u");
    return null;
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : String(error);
    return `is not a valid regular expression: ${
      detail.replace(/^Invalid regular expression: /, "")
    }`;
  }
}

/**
 * The test of `entry`'s matcher: whether it accepts a tool name (the whole
 * name, as the model calls it); every name without a matcher.
 *
 * @example
 * ```ts
 * import { toolMatcher } from "./hook_entries.ts";
 * toolMatcher({ matcher: "write|edit" })("write_notes");
 * // false
 * ```
 */
export function toolMatcher(entry: Pick<EntryBase, "matcher">): (tool: string) => boolean {
  if (entry.matcher === undefined) return () => true;
  const regexp = new RegExp(`^(?:${entry.matcher})$`, "u");
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
  return /^[\w@%+=:,./{}-]+$/u.test(arg) ? arg : JSON.stringify(arg);
}
