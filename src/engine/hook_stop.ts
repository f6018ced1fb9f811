/**
 * A hook's request to end the run (a Claude Code hook's `continue: false`,
 * docs/extending.md): what the engine keeps of it and how its results and
 * messages word it.
 *
 * - The reason loses its escape sequences, becomes one line and is masked
 *   with the run's `redact` before anyone sees it: the session, the
 *   front ends, the model reading a result.
 * - The call whose `beforeToolExecute` chain stopped the run does not run:
 *   its result is {@link stoppedBy}. A call the stop left unrun gets
 *   {@link notRunAfterStop}. A call whose tool had run and whose
 *   `afterToolExecute` chain stopped the run gets {@link stoppedAfter}, not
 *   its output: the hooks after the one that stopped never saw it.
 *
 * @module
 */

import { stripEscapes } from "../base/escape_sequences.ts";
import type { Chained, HookPoint } from "./hooks.ts";

/** A hook ended the run at `point` (for the call `callId` at the tool points). */
export interface HookStop {
  readonly point: HookPoint;
  /** How messages name the hook: `python3 hooks/stop.py`. */
  readonly hook: string;
  /** What the hook said, masked, without escape sequences, on one line; may be empty. */
  readonly reason: string;
  readonly callId?: string;
}

/** The stop a `stopped` chain asks for, at `point`, its texts made safe with `redact`. */
export function hookStop(
  chained: Extract<Chained<unknown>, { kind: "stopped" }>,
  point: HookPoint,
  redact: (text: string) => string,
  callId?: string,
): HookStop {
  // Escapes go first: a key cut by one, or running into one, is masked whole.
  const safe = (text: string) => redact(stripEscapes(text).replace(/\s*[\r\n]\s*/g, " ").trim());
  return {
    point,
    hook: safe(chained.hook),
    reason: safe(chained.reason),
    ...(callId === undefined ? {} : { callId }),
  };
}

/** `hook "x" stopped the run: <reason>` (without the colon when it gave none). */
export function stoppedBy(stop: Pick<HookStop, "hook" | "reason">): string {
  return `hook "${stop.hook}" stopped the run${stop.reason === "" ? "" : `: ${stop.reason}`}`;
}

/** The result of a call that had not started when a hook stopped the run. */
export function notRunAfterStop(stop: Pick<HookStop, "hook">): string {
  return `the tool was not executed: hook "${stop.hook}" stopped the run`;
}

/** The result of a call whose `afterToolExecute` chain stopped the run. */
export function stoppedAfter(stop: Pick<HookStop, "hook" | "reason">): string {
  return `the tool ran, then ${stoppedBy(stop)}`;
}
