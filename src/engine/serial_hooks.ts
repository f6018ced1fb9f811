/**
 * The tool hooks of calls that run at the same time (`tool_batch.ts`),
 * queued: each chain starts once the one asked for before it has finished,
 * so hooks still see one payload after another, as in a turn of calls made
 * one by one.
 *
 * @module
 */

import type { HookRunner } from "./hooks.ts";

/** The two hook points around a tool call. */
export type ToolHooks = Pick<HookRunner, "beforeToolExecute" | "afterToolExecute">;

/** `hooks` with every chain queued behind the one before it. */
export function serialHooks(hooks: ToolHooks): ToolHooks {
  let last: Promise<unknown> = Promise.resolve();
  const queued = <T>(run: () => Promise<T>): Promise<T> => {
    const next = last.then(run, run);
    last = next.catch(() => {});
    return next;
  };
  return {
    beforeToolExecute: (call, signal, complete) =>
      queued(() => hooks.beforeToolExecute(call, signal, complete)),
    afterToolExecute: (call, result, signal) =>
      queued(() => hooks.afterToolExecute(call, result, signal)),
  };
}
