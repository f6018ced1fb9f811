/**
 * The `hooks` of a Claude Code settings file (`~/.claude/settings.json`,
 * `.claude/settings.json`) as rienda's `claude:` hook entries, for
 * `rienda hooks import-claude` (docs/extending.md, "Moving from Claude Code").
 *
 * ```json
 * { "hooks": { "PreToolUse": [
 *   { "matcher": "Bash", "hooks": [ { "type": "command", "command": "python3 v.py", "timeout": 30 } ] }
 * ] } }
 * ```
 * becomes `{ claude: PreToolUse, matcher: Bash, command: "python3 v.py", timeout_ms: 30000 }`.
 *
 * - A matcher that is empty or `*` is left out (it matches every tool), and
 *   so is one on an event whose matcher Claude Code does not read.
 * - `timeout` is in seconds in Claude Code, `timeout_ms` in rienda.
 * - What rienda cannot run is skipped with a note: events other than those
 *   `claude:` takes, hooks whose `type` is not `command`, entries that are
 *   not what Claude Code reads.
 * - The same entry twice (event, matcher and command) is kept once.
 *
 * @module
 */

import { CLAUDE_EVENTS, type ClaudeEvent, MATCHED_CLAUDE_EVENTS } from "../config/hook_entries.ts";

/** One `claude:` entry, as config.yaml writes it. */
export interface ImportedHook {
  readonly claude: ClaudeEvent;
  readonly matcher?: string;
  readonly command: string;
  /** `timeout_ms`, when the settings gave a timeout. */
  readonly timeoutMs?: number;
}

/** What a settings file gives: its entries, and a note per hook skipped. */
export interface ImportedSettings {
  readonly hooks: readonly ImportedHook[];
  readonly skipped: readonly string[];
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isClaudeEvent(name: string): name is ClaudeEvent {
  const events: readonly string[] = CLAUDE_EVENTS;
  return events.includes(name);
}

/** The key that tells two entries apart. */
export function importedKey(hook: ImportedHook): string {
  return JSON.stringify([hook.claude, hook.matcher ?? "", hook.command]);
}

/** The hook of one `{ type, command, timeout }` of a group, or why it is skipped. */
function importOne(
  event: ClaudeEvent,
  matcher: string | undefined,
  hook: unknown,
  where: string,
): ImportedHook | string {
  if (!isObject(hook)) return `${where}: not an object`;
  if (hook.type !== "command") {
    return `${where}: type ${JSON.stringify(hook.type)} (rienda runs "command" hooks only)`;
  }
  if (typeof hook.command !== "string" || hook.command.trim() === "") {
    return `${where}: no command`;
  }
  const timeout = hook.timeout;
  const timeoutMs = typeof timeout === "number" && timeout > 0 && timeout <= 2_147_483
    ? Math.round(timeout * 1000)
    : undefined;
  return {
    claude: event,
    ...(matcher === undefined ? {} : { matcher }),
    command: hook.command,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

/** The hooks of `settings`, decoded JSON of a Claude Code settings file (see the module doc). */
export function importClaudeSettings(settings: unknown): ImportedSettings {
  const hooks: ImportedHook[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  const byEvent = isObject(settings) && isObject(settings.hooks) ? settings.hooks : {};
  for (const [event, groups] of Object.entries(byEvent)) {
    if (!isClaudeEvent(event)) {
      skipped.push(`hooks.${event}: rienda runs ${CLAUDE_EVENTS.join(", ")}`);
      continue;
    }
    if (!Array.isArray(groups)) {
      skipped.push(`hooks.${event}: not a list`);
      continue;
    }
    groups.forEach((group: unknown, i) => {
      const where = `hooks.${event}[${i}]`;
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        skipped.push(`${where}: no "hooks" list`);
        return;
      }
      const written = typeof group.matcher === "string" ? group.matcher.trim() : "";
      const read = MATCHED_CLAUDE_EVENTS.includes(event);
      if (!read && written !== "" && written !== "*") {
        skipped.push(`${where}.matcher: left out (Claude Code reads no matcher for ${event})`);
      }
      const matcher = !read || written === "" || written === "*" ? undefined : written;
      group.hooks.forEach((hook: unknown, j) => {
        const imported = importOne(event, matcher, hook, `${where}.hooks[${j}]`);
        if (typeof imported === "string") return void skipped.push(imported);
        const key = importedKey(imported);
        if (seen.has(key)) return;
        seen.add(key);
        hooks.push(imported);
      });
    });
  }
  return { hooks, skipped };
}

/** Extensions of the scripts an interpreter is usually given (`python3 check.py`). */
const SCRIPT_NAME = /\.(?:py|sh|bash|zsh|js|mjs|cjs|ts|rb|pl|php|ps1)$/;

/**
 * Whether a Claude Code command names a file of the workspace it runs in:
 * it uses `CLAUDE_PROJECT_DIR`, or one of its words is a relative path
 * (`.claude/hooks/x.sh`, `node hooks/x.mjs`, `python3 check.py`), not an
 * absolute one, `~/…`, another variable, an option or a URL. Such a hook in
 * config.yaml runs whatever file of that name the repository of each run
 * holds.
 */
export function namesWorkspaceFile(command: string): boolean {
  if (command.includes("CLAUDE_PROJECT_DIR")) return true;
  return command.split(/[\s;&|()<>`]+/).some((raw) => {
    // `VAR=path` and `--option=path` name the path after `=`.
    const word = raw.replace(/^["']+|["']+$/g, "").replace(/^[^=/]*=/, "");
    if (word === "" || /^[-/~$]/.test(word) || word.includes("://")) return false;
    return word.includes("/") || SCRIPT_NAME.test(word);
  });
}
