/**
 * Reads a `hooks:` list, of an agent file or of `config.yaml`, into the
 * entries of `hook_entries.ts`: every fault is a problem naming the entry
 * and its field (`hooks[2].command: must be an argv list …`), for the caller
 * to place at its line in its file.
 *
 * @module
 */

import { describeValue } from "./describe_value.ts";
import type { FieldPath } from "../base/field_path.ts";
import { isValidName, NAME_RULE } from "../base/names.ts";
import {
  CLAUDE_EVENTS,
  type ClaudeEvent,
  DEFAULT_CLAUDE_TIMEOUT_MS,
  DEFAULT_COMMAND_TIMEOUT_MS,
  ENTRY_POINTS,
  type EntryBase,
  type EntryPoint,
  type HookEntry,
  MATCHED_CLAUDE_EVENTS,
  MAX_HOOK_TIMEOUT_MS,
  programPlaceholderProblem,
  TOOL_POINTS,
} from "./hook_entries.ts";

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
 * import { parseHookEntries } from "./parse_hook_entries.ts";
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
    const placeholder = typeof program === "string" ? programPlaceholderProblem(program) : null;
    if (placeholder !== null) {
      ok = false;
      this.problems.push({ path: [...this.#at, "command", 0], message: placeholder });
    }
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
    // Alone first: `shell)|(.*` is valid only inside the group the whole-name anchors add.
    new RegExp(matcher, "u");
    return null;
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : String(error);
    return `is not a valid regular expression: ${
      detail.replace(/^Invalid regular expression: /, "")
    }`;
  }
}
