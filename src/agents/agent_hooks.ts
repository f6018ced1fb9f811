/**
 * The `hooks:` field of an agent file: a list of hook entries
 * (`config/hook_entries.ts`: a JavaScript hook's name or settings, a command,
 * a Claude Code hook), each problem reported at its line. Claude Code's own
 * `hooks:` event map is ignored with one warning, as other tools' keys are.
 *
 * A JavaScript hook listed again collapses to its first entry, unless its
 * settings differ: that is reported, since a later `fail_closed: true` would
 * otherwise be dropped without a word and the guard fail open.
 *
 * @module
 */

import type { HookEntry, ScriptHookEntry } from "../config/hook_entries.ts";
import { parseHookEntries } from "../config/parse_hook_entries.ts";
import { isRecord } from "../base/unknown.ts";
import { type FieldContext, report } from "./agent_fields.ts";

/** The entries of `hooks:`, and the JavaScript hooks among them. */
export interface HookList {
  /** In declaration order, duplicates left out. */
  readonly entries: readonly HookEntry[];
  /** The names of the JavaScript hooks, in order. */
  readonly names: readonly string[];
  /** The file line of each JavaScript hook, keyed by name, where known. */
  readonly lines: ReadonlyMap<string, number>;
}

/** A script entry's settings as the agent file writes them (`fail_closed: true, timeout_ms: 500`). */
export function entrySettings(entry: ScriptHookEntry): string {
  return [
    ...(entry.matcher === undefined ? [] : [`matcher: ${JSON.stringify(entry.matcher)}`]),
    ...(entry.priority === 0 ? [] : [`priority: ${entry.priority}`]),
    ...(entry.failClosed === undefined ? [] : [`fail_closed: ${entry.failClosed}`]),
    ...(entry.timeoutMs === undefined ? [] : [`timeout_ms: ${entry.timeoutMs}`]),
  ].join(", ") || "none";
}

/** `hooks:` (see the module doc). */
export function readHooks(value: unknown, context: FieldContext): HookList {
  if (isRecord(value)) {
    context.ignored.keys.push("hooks (a Claude Code event map)");
    return { entries: [], names: [], lines: new Map() };
  }
  const parsed = parseHookEntries(value);
  for (const problem of parsed.problems) {
    report(context, problem.path, problem.message, problem.key === true);
  }
  const entries: HookEntry[] = [];
  const first = new Map<string, ScriptHookEntry>();
  const lines = new Map<string, number>();
  for (const entry of parsed.entries) {
    if (entry.kind !== "script") {
      entries.push(entry);
      continue;
    }
    const earlier = first.get(entry.name);
    if (earlier === undefined) {
      first.set(entry.name, entry);
      entries.push(entry);
      const line = context.lineOf(["hooks", entry.index], false);
      if (line !== undefined) lines.set(entry.name, line);
    } else if (entrySettings(earlier) !== entrySettings(entry)) {
      report(
        context,
        ["hooks", entry.index],
        `hook "${entry.name}" is listed again with other settings (${entrySettings(entry)}; ` +
          `first: ${entrySettings(earlier)}): list it once, with the settings it needs`,
      );
    }
  }
  return { entries, names: [...first.keys()], lines };
}
