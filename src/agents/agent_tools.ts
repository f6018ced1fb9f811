/**
 * The `tools:` field of an agent file (`hooks:` is `agent_hooks.ts`'s). `tools:` is a list of
 * names, or (as other tools write it) a comma-separated string
 * (`Read, Grep, Bash`) or opencode's map (`{write: false, bash: true}`: true
 * adds to the default tools, false removes). Peer tool names map to the
 * built-ins (`peer_dialect.ts`); entries may be MCP references, kept in their
 * canonical `mcp:server[/tool]` form (`tool_reference.ts`). A list entry
 * may be an object `{ name, timeout_ms, fail_closed }` (`entry_options.ts`),
 * whose settings go to `policies` by name.
 *
 * @module
 */

import { describeValue } from "../config/describe_value.ts";
import { isRecord } from "../base/unknown.ts";
import type { FieldPath } from "../base/field_path.ts";
import { isValidAgentId } from "../base/names.ts";
import { type FieldContext, report } from "./agent_fields.ts";
import { type HookPolicy, readEntryObject } from "./entry_options.ts";
import { DEFAULT_TOOLS, peerListTool, peerMapTool, type PeerTool } from "./peer_dialect.ts";
import { normalizeToolEntry, parseToolReference } from "./tool_reference.ts";

/** The names of a `tools:` field, with the file line of each. */
export interface NameList {
  /** In order, first occurrence kept. */
  readonly names: string[];
  /** The file line of each name, where known. */
  readonly lines: Map<string, number>;
  /** Entries written as Claude Code's `mcp__server__tool` (a warning when no server matches). */
  readonly peerMcp: Set<string>;
  /** The settings of the object entries, by name. */
  readonly policies: Map<string, HookPolicy>;
  /** The agent ids of Claude Code's `Agent(…)` / `Task(…)` entries, valid ones only. */
  readonly agents: string[];
}

function emptyList(): NameList {
  return { names: [], lines: new Map(), peerMcp: new Set(), policies: new Map(), agents: [] };
}

/** `tools:` (see the module doc); absent, it is none, or the default tools when `peer`. */
export function readTools(value: unknown, context: FieldContext, peer: boolean): NameList {
  const list = emptyList();
  if (value === undefined || value === null) {
    if (peer) list.names.push(...DEFAULT_TOOLS);
    return list;
  }
  if (typeof value === "string") {
    // Commas inside parentheses belong to the entry: `Agent(worker, researcher), Read`.
    const items = value.split(/,(?![^(]*\))/).map((part) => part.trim());
    for (const item of items.filter((part) => part !== "")) {
      addTool(list, peerListTool(item), ["tools"], context);
    }
    return list;
  }
  if (isRecord(value)) {
    readToolMap(list, value, context);
    return list;
  }
  if (!Array.isArray(value)) {
    report(
      context,
      ["tools"],
      `must be a list of tool names such as [shell, word-count] (found ${describeValue(value)})`,
    );
    return list;
  }
  value.forEach((listed: unknown, index) => {
    const entry = readEntry("tools", listed, index, context);
    if (entry === undefined) return;
    if (typeof entry.name !== "string") {
      report(context, ["tools", index], `must be a tool name (found ${describeValue(entry.name)})`);
      return;
    }
    addTool(list, peerListTool(entry.name), ["tools", index], context, entry.policy);
  });
  return list;
}

// A plain entry, or the name and settings of an object entry; undefined after reporting its problems.
function readEntry(
  field: "tools" | "hooks",
  listed: unknown,
  index: number,
  context: FieldContext,
): { name: unknown; policy: HookPolicy } | undefined {
  if (!isRecord(listed)) return { name: listed, policy: {} };
  const entry = readEntryObject(field, listed);
  for (const [key, message] of entry.problems) {
    report(context, key === null ? [field, index] : [field, index, key], message, key !== null);
  }
  return entry.problems.length > 0 ? undefined : entry;
}

// opencode: the default tools, plus the keys set to true, minus those set to false.
function readToolMap(list: NameList, map: Record<string, unknown>, context: FieldContext): void {
  list.names.push(...DEFAULT_TOOLS);
  for (const [key, enabled] of Object.entries(map)) {
    if (typeof enabled !== "boolean") {
      report(context, ["tools", key], `must be true or false (found ${describeValue(enabled)})`);
      continue;
    }
    const tool = peerMapTool(key);
    if (enabled) {
      addTool(list, tool, ["tools", key], context);
    } else if (tool.kind === "tool") {
      const index = list.names.indexOf(tool.name);
      if (index >= 0) list.names.splice(index, 1);
    }
  }
}

function addTool(
  list: NameList,
  tool: PeerTool,
  path: FieldPath,
  context: FieldContext,
  policy: HookPolicy = {},
): void {
  if (tool.kind === "ignored") {
    if (!context.ignored.tools.includes(tool.label)) context.ignored.tools.push(tool.label);
    return;
  }
  for (const id of tool.agents ?? []) {
    if (isValidAgentId(id) && !list.agents.includes(id)) list.agents.push(id);
  }
  const entry = normalizeToolEntry(tool.name);
  const parsed = parseToolReference(entry);
  if ("problem" in parsed) {
    report(context, path, parsed.problem);
    return;
  }
  if (parsed.kind === "mcp" && Object.keys(policy).length > 0) {
    report(context, path, "timeout_ms applies to tool names, not to MCP servers");
    return;
  }
  if (entry !== tool.name) list.peerMcp.add(entry);
  add(list, entry, { path, context }, policy);
}

/** An entry's settings as the agent file writes them (`fail_closed: true, timeout_ms: 500`). */
function settingsText(policy: HookPolicy): string {
  return [
    ...(policy.failClosed === undefined ? [] : [`fail_closed: ${policy.failClosed}`]),
    ...(policy.timeoutMs === undefined ? [] : [`timeout_ms: ${policy.timeoutMs}`]),
  ].join(", ") || "none";
}

/**
 * Adds `name` once: a name listed again collapses to its first entry, unless
 * its settings differ; that is reported, since a later `fail_closed: true`
 * would otherwise be dropped without a word and the guard fail open.
 */
function add(
  list: NameList,
  name: string,
  at: { readonly path: FieldPath; readonly context: FieldContext },
  policy: HookPolicy,
): void {
  if (list.names.includes(name)) {
    const first = settingsText(list.policies.get(name) ?? {});
    if (settingsText(policy) === first) return;
    report(
      at.context,
      at.path,
      `tool "${name}" is listed again with other settings (${
        settingsText(policy)
      }; first: ${first}): list it once, with the settings it needs`,
    );
    return;
  }
  list.names.push(name);
  const line = at.context.lineOf(at.path, false);
  if (line !== undefined) list.lines.set(name, line);
  if (Object.keys(policy).length > 0) list.policies.set(name, policy);
}
