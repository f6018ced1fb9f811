/**
 * opencode's `permission:` of an agent file (docs/formats.md, "Permissions of
 * opencode agents"): per tool, `allow`, `ask` or `deny`, or a map of patterns
 * matched against the call (the command of `bash`, the path of `edit`), the
 * last matching pattern deciding:
 *
 * ```yaml
 * permission:
 *   edit: ask
 *   bash: { "*": allow, "git push*": deny, "rm *": ask }
 * ```
 *
 * Its keys map to rienda's tools (`edit` → `write` and `edit`, `bash` →
 * `shell`, `webfetch` → `http`, `glob` → `find`, `list` → `ls`, `*` → every
 * tool). A key rienda has no check for (`external_directory`, `doom_loop`)
 * set to `ask` or `deny` is a warning of every run: those calls are not
 * confirmed. The app enforces the rules (`app/permitted_tool.ts`).
 *
 * @module
 */

import { describeValue } from "../config/describe_value.ts";
import { isRecord } from "../base/unknown.ts";
import { type FieldContext, report } from "./agent_fields.ts";

/** What a rule lets a call do. */
export type PermissionAction = "allow" | "ask" | "deny";

/** One rule: a pattern (`*` any characters, `?` one) and its action. */
export interface PermissionRule {
  readonly pattern: string;
  readonly action: PermissionAction;
  /** The key it was written under (`bash`), for messages. */
  readonly key: string;
}

/** The rules by rienda tool name (`*`: every tool), in file order. */
export type AgentPermissions = ReadonlyMap<string, readonly PermissionRule[]>;

/** The tool every tool's rules start with. */
export const ALL_TOOLS = "*";

/** opencode's permission keys → rienda's tools. */
const KEY_TOOLS: Readonly<Record<string, readonly string[]>> = {
  "*": [ALL_TOOLS],
  edit: ["write", "edit"],
  write: ["write"],
  patch: ["edit"],
  bash: ["shell"],
  shell: ["shell"],
  webfetch: ["http"],
  http: ["http"],
  read: ["read"],
  grep: ["grep"],
  glob: ["find"],
  find: ["find"],
  list: ["ls"],
  ls: ["ls"],
};

/** opencode's keys for tools rienda does not have: nothing to honour. */
const ABSENT_TOOLS: ReadonlySet<string> = new Set([
  "task",
  "skill",
  "todowrite",
  "todoread",
  "websearch",
  "codesearch",
  "lsp",
  "question",
]);

function isAction(value: unknown): value is PermissionAction {
  return value === "allow" || value === "ask" || value === "deny";
}

/** What {@link readPermission} read: the rules, and the warnings of what it cannot honour. */
export interface PermissionReading {
  readonly rules: Map<string, PermissionRule[]>;
  /** Keys set to ask or deny that rienda cannot check, each `key: action`. */
  readonly unhonoured: string[];
}

/** Reads `permission:`; reports a value that is not an action or a map of them. */
export function readPermission(value: unknown, context: FieldContext): PermissionReading {
  const reading: PermissionReading = { rules: new Map(), unhonoured: [] };
  if (value === undefined || value === null) return reading;
  if (typeof value === "string") {
    addRules(reading, "*", value, ["permission"], context);
    return reading;
  }
  if (!isRecord(value)) {
    report(
      context,
      ["permission"],
      `must be allow, ask or deny, or a mapping such as { edit: ask, bash: deny } (found ${
        describeValue(value)
      })`,
    );
    return reading;
  }
  for (const [key, setting] of Object.entries(value)) {
    addRules(reading, key, setting, ["permission", key], context);
  }
  return reading;
}

function addRules(
  reading: PermissionReading,
  key: string,
  setting: unknown,
  path: readonly string[],
  context: FieldContext,
): void {
  const rules: PermissionRule[] = [];
  const entries: [string, unknown][] = isRecord(setting)
    ? Object.entries(setting)
    : [["*", setting]];
  for (const [pattern, action] of entries) {
    if (!isAction(action)) {
      const at = isRecord(setting) ? [...path, pattern] : path;
      report(context, at, `must be allow, ask or deny (found ${describeValue(action)})`);
      continue;
    }
    rules.push({ pattern, action, key });
  }
  const tools = KEY_TOOLS[key];
  if (tools === undefined) {
    const strict = rules.filter((rule) => rule.action !== "allow");
    if (!ABSENT_TOOLS.has(key) && strict.length > 0) {
      reading.unhonoured.push(
        `${key}: ${[...new Set(strict.map((rule) => rule.action))].join("/")}`,
      );
    }
    return;
  }
  for (const tool of tools) reading.rules.set(tool, [...reading.rules.get(tool) ?? [], ...rules]);
}

/** The rules that decide the calls of `tool`: those of `*`, then its own. */
export function rulesFor(permissions: AgentPermissions, tool: string): PermissionRule[] {
  return [...permissions.get(ALL_TOOLS) ?? [], ...permissions.get(tool) ?? []];
}

/** Whether `rules` deny every call, whatever its arguments (the tool is then not offered). */
export function deniesAll(rules: readonly PermissionRule[]): boolean {
  const last = rules.at(-1);
  return last !== undefined && last.action === "deny" &&
    rules.every((rule) => rule.pattern === "*");
}

/**
 * The rule deciding a call on `resource` (the last whose pattern matches
 * the whole value), or undefined when none does (then the call is allowed).
 *
 * @example
 * ```ts
 * decide([{ pattern: "*", action: "allow", key: "bash" }, { pattern: "git push*", action: "deny", key: "bash" }], "git push origin")?.action;
 * // "deny"
 * ```
 */
export function decide(
  rules: readonly PermissionRule[],
  resource: string,
): PermissionRule | undefined {
  return rules.findLast((rule) => wildcard(rule.pattern).test(resource));
}

function wildcard(pattern: string): RegExp {
  const body = [...pattern].map((char) =>
    char === "*" ? "[^]*" : char === "?" ? "[^]" : char.replace(/[.+^${}()|[\]\\/-]/g, "\\$&")
  ).join("");
  return new RegExp(`^${body}$`, "u");
}
