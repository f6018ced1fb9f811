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
import { commandText } from "../config/hook_entries.ts";
import { parseSessionHook, sessionHookLabel } from "../hooks/session_hook.ts";

/** What `/hooks …` shows: its lines, and whether they say what is wrong. */
export interface HooksReply {
  readonly lines: readonly string[];
  readonly error: boolean;
}

const USAGE = "usage: /hooks add pre-tool|post-tool PROGRAM ARGS… | /hooks list | /hooks remove N";

const reply = (lines: readonly string[], error = false): HooksReply => ({ lines, error });

/** The lines of `/hooks list`. */
async function listing(session: InteractiveSession): Promise<string[]> {
  const agent = await session.agent();
  const own = session.sessionHooks();
  const lines = ["hooks of this chat, in the order they run:"];
  if (agent !== null && agent.hooks.length > 0) {
    lines.push(`  agent ${agent.id}: ${agent.hooks.join(", ")}`);
  }
  own.forEach((hook, i) => lines.push(`  #${i + 1} ${hook.kind} ${commandText(hook.argv)}`));
  if (lines.length === 1) lines.push("  none (add one: /hooks add pre-tool PROGRAM ARGS…)");
  return lines;
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
      const number = session.addSessionHook(parsed);
      return reply([`added ${sessionHookLabel(parsed, number)}: it runs from the next message on`]);
    }
    case "remove": {
      const [word] = rest;
      const number = word !== undefined && /^\d+$/.test(word) ? Number(word) : NaN;
      const count = session.sessionHooks().length;
      const removed = rest.length === 1 ? session.removeSessionHook(number) : null;
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
