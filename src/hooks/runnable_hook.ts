/**
 * One hook of any kind (a JavaScript hook, a command, a Claude Code hook) as
 * the chain runs it: a label for messages, the points it runs at, its
 * policy, and one call that answers or fails. What it answers is checked by
 * the chain, the same way for every kind.
 *
 * @module
 */

import type { HookPoint } from "../engine/hooks.ts";

/** How one call of a hook is made. */
export interface HookCallOptions {
  /** The run's interrupt (or, for `afterRun`, the end of its grace period). */
  readonly signal: AbortSignal;
}

/**
 * What one call came to: an answer (an object of the point's fields, not yet
 * checked, or null for "no opinion"); stopped by the interrupt (never "no
 * opinion"); a request to end the run, with the hook's reason (only Claude
 * Code hooks make one: `continue: false`); or no verdict, with the problem
 * in the words of the spec (`exited 1: <line>`, `did not finish within 500
 * ms (timeout_ms)`).
 */
export type HookAnswer =
  | { readonly kind: "answered"; readonly value: Readonly<Record<string, unknown>> | null }
  | { readonly kind: "interrupted" }
  | { readonly kind: "stop"; readonly reason: string }
  | {
    readonly kind: "failed";
    readonly problem: string;
    readonly timedOut?: boolean;
    /** It did not run for a reason of rienda's (an untrusted project's file): closed whatever its `fail_closed`. */
    readonly closed?: boolean;
  };

/** A hook the chain can run. */
export interface RunnableHook {
  /** How messages name it: `guard`, `node hooks/policy.mjs`. */
  readonly label: string;
  /** The points it runs at, in `HOOK_POINTS` order. */
  readonly points: readonly HookPoint[];
  /** A failure to give a verdict is a refusal. */
  readonly failClosed: boolean;
  /**
   * Its refusal of a call reaches the model in its own words, not as
   * `hook "x" refused the call: …` (the chat's `/hooks`, which name themselves).
   */
  readonly ownWords?: boolean;
  /** Whether it runs for a call of `tool` at the tool points (its `matcher`). */
  matches(tool: string): boolean;
  /** Runs `point` with `args` (the payload, and the result at `afterToolExecute`). */
  call(point: HookPoint, args: readonly unknown[], options: HookCallOptions): Promise<HookAnswer>;
}
