/**
 * Checks of the frontmatter fields of an agent file, each adding worded
 * problems to a shared list so one error can report them all, and what the
 * file sets that rienda ignores to a shared list so one warning can name it
 * all (docs/formats.md, "Agent files of other tools").
 *
 * @module
 */

import { describeValue } from "../config/describe_value.ts";
import { type FieldPath, formatFieldPath } from "../base/field_path.ts";
import { isRecord } from "../base/unknown.ts";
import { modelRefProblem } from "../config/model_ref.ts";
import type { AgentProblem } from "./agent_file_error.ts";
import { closeKey, COSMETIC_KEYS, FOREIGN_KEYS } from "./peer_dialect.ts";
import { AGENT_ID_RULE, isValidAgentId } from "../base/names.ts";
import { parseSandboxSetting, type SandboxSetting } from "../sandbox/sandbox_setting.ts";

/** The frontmatter keys an agent file may use. */
export const AGENT_FIELDS = [
  "description",
  "name",
  "model",
  "tools",
  "hooks",
  "config",
  "temperature",
  "max_turns",
  "thinking",
  "agents",
  "sandbox",
] as const;

/** Claude Code's spelling of `max_turns`, read as it. */
export const MAX_TURNS_SYNONYM = "maxTurns";

/** opencode's `permission:`, honoured (`agent_permissions.ts`). */
export const PERMISSION_FIELD = "permission";

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  ...AGENT_FIELDS,
  MAX_TURNS_SYNONYM,
  PERMISSION_FIELD,
]);

/** What a file sets that rienda ignores, named in one warning. */
export interface Ignored {
  /** Keys of other tools (`color`, `permissionMode`, a Claude Code `hooks` map). */
  readonly keys: string[];
  /** Keys nobody knows that are not close to a rienda key. */
  readonly unknown: string[];
  /** Peer tools without a rienda counterpart (`TodoWrite`, `Bash(git:*)`). */
  readonly tools: string[];
}

/** Where field checks report: the problem list, the ignored settings and the file line of a path. */
export interface FieldContext {
  readonly problems: AgentProblem[];
  readonly ignored: Ignored;
  /** The file line of the value at `path` (or of its key with `key: true`). */
  lineOf(path: FieldPath, key: boolean): number | undefined;
}

/**
 * Sorts the keys other than {@link AGENT_FIELDS}: other tools' keys and
 * unknown keys are ignored, a key close to a rienda key is a problem.
 */
export function checkKeys(fields: Record<string, unknown>, context: FieldContext): void {
  for (const key of Object.keys(fields)) {
    if (KNOWN_FIELDS.has(key) || COSMETIC_KEYS.has(key)) continue;
    if (FOREIGN_KEYS.has(key)) {
      context.ignored.keys.push(key);
      continue;
    }
    const close = closeKey(key, AGENT_FIELDS);
    if (close === undefined) context.ignored.unknown.push(key);
    else report(context, [key], `unknown key (did you mean \`${close}\`?)`, true);
  }
}

/** The one warning line naming what the file sets that rienda ignores, or undefined. */
export function ignoredWarning(path: string, ignored: Ignored): string | undefined {
  const parts = [
    ignored.keys.length === 0 ? "" : `keys of other tools: ${ignored.keys.join(", ")}`,
    ignored.unknown.length === 0 ? "" : `unknown keys: ${ignored.unknown.join(", ")}`,
    ignored.tools.length === 0 ? "" : `tools rienda lacks: ${ignored.tools.join(", ")}`,
  ].filter((part) => part !== "");
  return parts.length === 0 ? undefined : `${path}: ignored ${parts.join("; ")}`;
}

/**
 * The trimmed description; reports a missing, non-text or blank one, except
 * a missing one when `optional` (opencode's agents need none).
 */
export function readDescription(value: unknown, context: FieldContext, optional = false): string {
  if (value === undefined || value === null) {
    if (optional) return "";
    report(context, ["description"], 'missing (add a line such as "description: Reviews a diff.")');
    return "";
  }
  if (typeof value !== "string") {
    report(context, ["description"], `must be text (found ${describeValue(value)})`);
    return "";
  }
  const description = value.trim();
  if (description === "") {
    report(context, ["description"], "must not be blank (say in a few words what the agent does)");
  }
  return description;
}

/** The `name` (another name `-a` accepts), or undefined when absent; reports a non-text one. */
export function readName(value: unknown, context: FieldContext): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  report(context, ["name"], `must be text such as code-reviewer (found ${describeValue(value)})`);
  return undefined;
}

/** The model used when the agent names none itself (`inherit` in Claude Code's files). */
const INHERIT = "inherit";
const BARE_MODEL = /^[^\s/\p{Cc}]+$/u;

/**
 * The model reference (`provider/model` or a bare name resolved at run
 * time), or undefined when absent or `inherit`; reports a malformed one.
 */
export function readModel(value: unknown, context: FieldContext): string | undefined {
  if (value === undefined || value === null || value === INHERIT) return undefined;
  if (typeof value !== "string") {
    report(
      context,
      ["model"],
      `must be a model reference such as openai/gpt-4o or sonnet (found ${describeValue(value)})`,
    );
    return undefined;
  }
  if (BARE_MODEL.test(value)) return value;
  const problem = modelRefProblem(value);
  if (problem !== undefined) report(context, ["model"], problem);
  return value;
}

/** `temperature`: a number from 0 to 2, or undefined when absent. */
export function readTemperature(value: unknown, context: FieldContext): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && value >= 0 && value <= 2) return value;
  report(context, ["temperature"], `must be a number from 0 to 2 (found ${describeValue(value)})`);
  return undefined;
}

/** `max_turns` (or Claude Code's `maxTurns`): a whole number of at least 1, or undefined. */
export function readMaxTurns(fields: Record<string, unknown>, context: FieldContext) {
  const key = fields["max_turns"] === undefined ? MAX_TURNS_SYNONYM : "max_turns";
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  report(context, [key], `must be a whole number of at least 1 (found ${describeValue(value)})`);
  return undefined;
}

/** `thinking`: a reasoning level (checked against the model at run time), or undefined. */
export function readThinking(value: unknown, context: FieldContext): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return String(value);
  report(
    context,
    ["thinking"],
    `must be a reasoning level such as low, medium or high (found ${describeValue(value)})`,
  );
  return undefined;
}

/**
 * `agents:`, the ids the agent may delegate to with the `agent` tool, in
 * order without duplicates; undefined when absent (every callable agent).
 */
export function readAgents(value: unknown, context: FieldContext): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    report(
      context,
      ["agents"],
      `must be a list of agent ids such as [reviewer, tester] (found ${describeValue(value)})`,
    );
    return undefined;
  }
  const ids: string[] = [];
  value.forEach((item: unknown, index) => {
    if (typeof item !== "string" || !isValidAgentId(item)) {
      report(
        context,
        ["agents", index],
        `must be an agent id (${AGENT_ID_RULE}; found ${describeValue(item)})`,
      );
    } else if (!ids.includes(item)) {
      ids.push(item);
    }
  });
  return ids;
}

/** `sandbox:`: a mode or `{ mode, network, writable }`, or undefined when absent (docs/sandbox.md). */
export function readSandbox(value: unknown, context: FieldContext): SandboxSetting | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = parseSandboxSetting(value);
  for (const problem of parsed.problems) {
    report(context, ["sandbox", ...problem.path], problem.message);
  }
  return parsed.problems.length === 0 ? parsed.setting : undefined;
}

/** The per-agent extension settings; reports anything but a mapping. */
export function readConfig(value: unknown, context: FieldContext): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  report(
    context,
    ["config"],
    `must be a mapping of settings keyed by tool or hook name (found ${describeValue(value)})`,
  );
  return {};
}

/** Adds the problem `message` about the value (or key) at `path`. */
export function report(context: FieldContext, path: FieldPath, message: string, key = false): void {
  context.problems.push({ line: context.lineOf(path, key), field: formatFieldPath(path), message });
}
