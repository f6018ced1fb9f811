/**
 * The chat's `/hooks` command (docs/interactive.md, "/hooks"): `add
 * pre-tool|post-tool PROGRAM ARGS...`, `list` (the default) and `remove N`
 * over the conversation's own hooks (`hooks/session_hook.ts`), listed after
 * the hooks config.yaml and the agent give every run.
 *
 * ```
 * hooks of this chat, in the order they run:
 *   agent coder: guard
 *   #1 pre-tool node hooks/pre.mjs {tool} {path}
 * ```
 *
 * @module
 */

import type { InteractiveSession } from "../app/interactive_session.ts";
import { commandText, type HookEntry } from "../config/hook_entries.ts";
import { runHookOrder, sessionHooksAt } from "../app/run_hooks.ts";
import { parseSessionHook, sessionHookLabel } from "../hooks/session_hook.ts";

/** What `/hooks …` shows: its lines, and whether they say what is wrong. */
export interface HooksReply {
  readonly lines: readonly string[];
  readonly error: boolean;
}

const USAGE = "usage: /hooks add pre-tool|post-tool PROGRAM ARGS… | /hooks list | /hooks remove N";

const reply = (lines: readonly string[], error = false): HooksReply => ({ lines, error });

/** How the list shows a config.yaml or agent entry: its name or command, its points, its matcher. */
function entryText(entry: HookEntry): string {
  const matcher = entry.matcher === undefined ? "" : `, matcher ${entry.matcher}`;
  switch (entry.kind) {
    case "script":
      return `${entry.name}${matcher}`;
    case "command":
      return `${commandText(entry.argv)} (${entry.points.join(", ")}${matcher})`;
    case "claude":
      return `${entry.command} (claude: ${entry.event}${matcher})`;
  }
}

/** The lines of `/hooks list`, in the order the hooks run (`app/run_hooks.ts`). */
async function listing(session: InteractiveSession): Promise<string[]> {
  const agent = await session.agent();
  const ordered = runHookOrder({
    config: session.config.hooks,
    configFile: session.config.file,
    agent: agent ?? { path: "", hookEntries: [] },
  });
  const shown = ordered.map(({ entry, source }) =>
    `  ${source === "config" ? "config.yaml" : `agent ${agent?.id ?? ""}`}: ${entryText(entry)}`
  );
  const own = session.hooks.list().map((hook, i) =>
    `  #${i + 1} ${hook.kind} ${commandText(hook.argv)}`
  );
  shown.splice(sessionHooksAt(ordered), 0, ...own);
  if (shown.length === 0) shown.push("  none (add one: /hooks add pre-tool PROGRAM ARGS…)");
  return ["hooks of this chat, in the order they run:", ...shown];
}

/** Runs `/hooks <argument>` on `session`'s hooks. */
export async function chatHooksCommand(
  session: InteractiveSession,
  argument: string,
): Promise<HooksReply> {
  const trimmed = argument.trim();
  const [verb = "list", ...rest] = trimmed === "" ? [] : trimmed.split(/\s+/);
  switch (verb) {
    case "list":
      return rest.length === 0 ? reply(await listing(session)) : reply([USAGE], true);
    case "add": {
      const parsed = parseSessionHook(trimmed.slice("add".length));
      if ("problem" in parsed) return reply([parsed.problem], true);
      const number = session.hooks.add(parsed);
      return reply([`added ${sessionHookLabel(parsed, number)}: it runs from the next message on`]);
    }
    case "remove": {
      const [word] = rest;
      const number = word !== undefined && /^\d+$/.test(word) ? Number(word) : NaN;
      const count = session.hooks.list().length;
      const removed = rest.length === 1 ? session.hooks.remove(number) : null;
      if (removed === null) {
        return reply([
          count === 0
            ? "this chat has no hooks to remove (config.yaml's and the agent's stay)"
            : `usage: /hooks remove N, N from 1 to ${count} (see /hooks list)`,
        ], true);
      }
      return reply([`removed ${sessionHookLabel(removed, number)}`, ...await listing(session)]);
    }
    default:
      return reply([USAGE], true);
  }
}
