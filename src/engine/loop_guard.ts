/**
 * Detects a model stuck in a loop: the same tool calls with the same
 * arguments and the same results, round after round (docs/cli.md, Stops).
 * The third identical round gets a note in its results asking the model to
 * change approach (so does the fourth); the fifth stops the run.
 *
 * @module
 */

import type { CallOutcome } from "./tool_batch.ts";

/** The identical round whose results first carry {@link loopNote}. */
export const LOOP_NOTE_ROUND = 3;

/** Rounds of identical calls and results that stop the run. */
export const LOOP_GUARD_ROUNDS = 5;

/** The message of the error that ends a looping run. */
export const LOOP_GUARD_MESSAGE =
  `the model made the same tool call with the same result ${LOOP_GUARD_ROUNDS} times in a row`;

/** Remembers the last rounds of one run. */
export interface LoopGuard {
  /**
   * Records a round (its raw results, before any note); returns how many
   * identical rounds in a row it completes (1 for a new one).
   */
  observe(outcomes: readonly CallOutcome[]): number;
}

/** A guard with no history. */
export function createLoopGuard(): LoopGuard {
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
      return repeats;
    },
  };
}

/** The note appended to each result of a round that repeats the previous ones `round` times. */
export function loopNote(round: number): string {
  return `[rienda: this is call ${round} in a row with the same arguments and the same result; ` +
    `repeating it will not change the answer: change approach (other arguments, another tool, ` +
    `or answer with what you have); the run stops after ${LOOP_GUARD_ROUNDS}]`;
}

/** `outcomes` with {@link loopNote} after each result text. */
export function withLoopNote(
  outcomes: readonly CallOutcome[],
  round: number,
): CallOutcome[] {
  return outcomes.map((outcome) => ({
    ...outcome,
    result: { ...outcome.result, text: `${outcome.result.text}\n\n${loopNote(round)}` },
  }));
}
