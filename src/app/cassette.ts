/**
 * `--record FILE` and `--replay FILE` → the cassette tap a run builds its
 * model client with (`prepare_run.ts`), paths relative to the current folder.
 *
 * @module
 */

import { resolve } from "node:path";
import { createRecorder } from "../cassette/recording.ts";
import { loadReplayer } from "../cassette/replaying.ts";
import type { CassetteTap } from "../cassette/tap.ts";

/** The cassette flags of a run. */
export interface CassetteFlags {
  readonly record?: string | undefined;
  readonly replay?: string | undefined;
  readonly replayStrict?: boolean | undefined;
}

/** A run's cassette: the tap, and whether it replays (then no key is needed). */
export interface RunCassette {
  readonly tap: CassetteTap;
  readonly replay: boolean;
}

/**
 * The cassette the flags ask for, or undefined; a replayed cassette is read
 * and checked here, before the run prepares.
 *
 * @throws {CassetteError} when the cassette to replay is missing or broken
 */
export async function openCassette(
  cwd: string,
  flags: CassetteFlags,
): Promise<RunCassette | undefined> {
  if (flags.replay !== undefined) {
    const tap = await loadReplayer(resolve(cwd, flags.replay), {
      strict: flags.replayStrict === true,
    });
    return { tap, replay: true };
  }
  if (flags.record !== undefined) {
    return { tap: createRecorder(resolve(cwd, flags.record)), replay: false };
  }
  return undefined;
}
