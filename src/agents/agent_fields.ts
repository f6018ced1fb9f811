/**
 * Checks of the frontmatter fields of an agent file, each adding worded
 * problems to a shared list so one error can report them all.
 *
 * @module
 */

import { describeValue } from "../config/describe_value.ts";
import { type FieldPath, formatFieldPath } from "../field_path.ts";
import { isRecord } from "../unknown.ts";
import { modelRefProblem } from "../config/model_ref.ts";
import type { AgentProblem } from "./agent_file_error.ts";
import { isValidName, NAME_RULE } from "../names.ts";
import { normalizeToolEntry, parseToolReference } from "./tool_reference.ts";
import { type HookPolicy, readEntryObject } from "./entry_options.ts";

/** The frontmatter keys an agent file may use. */
export const AGENT_FIELDS = ["description", "model", "tools", "hooks", "config"] as const;

// formats.md: welcome once the project adds the feature, rejected until then.
const FUTURE_FIELDS: ReadonlySet<string> = new Set(["max_turns", "temperature", "thinking"]);
const KNOWN_FIELDS: ReadonlySet<string> = new Set(AGENT_FIELDS);

/** Where field checks report: the problem list and the file line of a path. */
export interface FieldContext {
  readonly problems: AgentProblem[];
  /** The file line of the value at `path` (or of its key with `key: true`). */
  lineOf(path: FieldPath, key: boolean): number | undefined;
}

/** Reports keys other than {@link AGENT_FIELDS}. */
export function checkKeys(fields: Record<string, unknown>, context: FieldContext): void {
  const known = AGENT_FIELDS.join(", ");
  for (const key of Object.keys(fields)) {
    if (KNOWN_FIELDS.has(key)) continue;
    const message = FUTURE_FIELDS.has(key)
      ? `not supported yet (remove it; the supported keys are ${known})`
      : `unknown key (expected one of: ${known})`;
    report(context, [key], message, true);
  }
}

/** The trimmed description; reports a missing, non-text or blank one. */
export function readDescription(value: unknown, context: FieldContext): string {
  if (value === undefined || value === null) {
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

/** The model reference, or undefined when absent; reports a malformed one. */
export function readModel(value: unknown, context: FieldContext): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    report(
      context,
      ["model"],
      `must be a model reference such as openai/gpt-4o (found ${describeValue(value)})`,
    );
    return undefined;
  }
  const problem = modelRefProblem(value);
  if (problem !== undefined) report(context, ["model"], problem);
  return value;
}

/**
 * The tool or hook names of `field`, first occurrence kept; reports anything
 * but a list of names. `tools:` entries may be MCP references, kept in their
 * canonical `mcp:server[/tool]` form (`tool_reference.ts`). An entry may be
 * an object `{ name, timeout_ms, fail_closed }` (`entry_options.ts`), whose
 * settings go to `policies` by name.
 */
export function readNames(
  field: "tools" | "hooks",
  value: unknown,
  context: FieldContext,
  policies?: Map<string, HookPolicy>,
): string[] {
  const kind = field === "tools" ? "tool" : "hook";
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    const example = field === "tools" ? "[shell, word-count]" : "[guard, audit]";
    report(
      context,
      [field],
      `must be a list of ${kind} names such as ${example} (found ${describeValue(value)})`,
    );
    return [];
  }
  const names: string[] = [];
  value.forEach((listed: unknown, index) => {
    let item = listed;
    let policy: HookPolicy = {};
    if (isRecord(listed)) {
      const entry = readEntryObject(field, listed);
      for (const [key, message] of entry.problems) {
        report(context, key === null ? [field, index] : [field, index, key], message, key !== null);
      }
      if (entry.problems.length > 0) return;
      ({ name: item, policy } = entry);
    }
    if (typeof item !== "string") {
      report(context, [field, index], `must be a ${kind} name (found ${describeValue(item)})`);
      return;
    }
    // tools: also takes MCP references (mcp:github, mcp:github/create_issue, mcp__github__x).
    const entry = field === "tools" ? normalizeToolEntry(item) : item;
    const parsed = field === "tools" ? parseToolReference(entry) : undefined;
    if (parsed !== undefined && "problem" in parsed) {
      report(context, [field, index], parsed.problem);
    } else if (parsed === undefined && !isValidName(entry)) {
      report(
        context,
        [field, index],
        `invalid ${kind} name ${JSON.stringify(entry)} (expected ${NAME_RULE})`,
      );
    } else if (parsed !== undefined && parsed.kind === "mcp" && Object.keys(policy).length > 0) {
      report(context, [field, index], "timeout_ms applies to tool names, not to MCP servers");
    } else if (!names.includes(entry)) {
      names.push(entry);
      if (Object.keys(policy).length > 0) policies?.set(entry, policy);
    }
  });
  return names;
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

function report(context: FieldContext, path: FieldPath, message: string, key = false): void {
  context.problems.push({ line: context.lineOf(path, key), field: formatFieldPath(path), message });
}
