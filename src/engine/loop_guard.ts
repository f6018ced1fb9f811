/**
 * Detects a model stuck in a loop: the same tool calls with the same
 * arguments and the same results, three rounds in a row (docs/cli.md, Stops).
 *
 * @module
 */

import type { CallOutcome } from "./tool_batch.ts";

/** Rounds of identical calls and results that stop the run. */
const LOOP_GUARD_ROUNDS = 3;

/** The message of the error that ends a looping run. */
export const LOOP_GUARD_MESSAGE =
  `the model made the same tool call with the same result ${LOOP_GUARD_ROUNDS} times in a row`;

/** Remembers the last rounds of one run. */
export interface LoopGuard {
  /** Records a round; returns true when it completes a loop. */
  observe(outcomes: readonly CallOutcome[]): boolean;
}

/** A guard with no history. */
export function createLoopGuard(rounds = LOOP_GUARD_ROUNDS): LoopGuard {
  let last = "";
  let repeats = 0;
  return {
    observe(outcomes) {
      const signature = JSON.stringify(
        outcomes.map(({ call, result }) => [
          call.name,
          call.rawArguments ?? call.arguments,
          result.text,
          result.isError,
        ]),
      );
      repeats = signature === last ? repeats + 1 : 1;
      last = signature;
      return repeats >= rounds;
    },
  };
}
