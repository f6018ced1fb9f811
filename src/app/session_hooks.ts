/**
 * The hooks a conversation adds for itself (`/hooks add`): numbered from 1
 * in the order they were added, numbered again when one is removed, and
 * dropped by `/clear`, a new session or the end of the conversation.
 *
 * @module
 */

import type { SessionHook } from "../hooks/session_hook.ts";

/** A conversation's own hooks. */
export interface SessionHookList {
  /** The hooks, hook number N at index N - 1. */
  list(): readonly SessionHook[];
  /** Adds `hook` last; resolves to its number. */
  add(hook: SessionHook): number;
  /** Removes hook number `number`; null when there is none. */
  remove(number: number): SessionHook | null;
  /** Removes them all; resolves to how many there were. */
  drop(): number;
}

/** An empty list. */
export function createSessionHookList(): SessionHookList {
  let hooks: readonly SessionHook[] = [];
  return {
    list: () => hooks,
    add(hook) {
      hooks = [...hooks, hook];
      return hooks.length;
    },
    remove(number) {
      const hook = Number.isInteger(number) ? hooks[number - 1] : undefined;
      if (hook === undefined) return null;
      hooks = hooks.filter((_, i) => i !== number - 1);
      return hook;
    },
    drop() {
      const count = hooks.length;
      hooks = [];
      return count;
    },
  };
}
