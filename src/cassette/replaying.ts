/**
 * `--replay FILE`: every HTTP request of the run is answered from the
 * cassette, in order, and no connection is opened. Only the network is
 * replaced: the wire protocol's decoder, the error classification and the
 * retry policy run as they did when the cassette was recorded, so text,
 * thinking, usage, errors and retries come back as recorded
 * (docs/testing.md).
 *
 * - Nothing waits: a chunk follows the one before at once, and a retry's
 *   wait is skipped (its `retry` event shows the recorded wait).
 * - A request that is not the recorded one (`replay_checks.ts`) stops the
 *   run with the first difference; it is not retried: the mismatch aborts
 *   the request, so every layer of the client hands it on as the abort's reason.
 *
 * @module
 */

import type { ModelClient, ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { createModelClient, type ModelClientOptions } from "../providers/client.ts";
import type { Sleep } from "../providers/retry.ts";
import { errorMessage } from "../base/unknown.ts";
import { readTextFileAtMost } from "../host/read_at_most.ts";
import {
  type Cassette,
  CassetteError,
  type Exchange,
  parseCassette,
  type RecordedResponse,
} from "./cassette_format.ts";
import { replayMismatch } from "./replay_checks.ts";
import { type CassetteTap, replayedError } from "./tap.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** A request that is not the one the cassette recorded. */
export class CassetteMismatch extends Error {
  override name = "CassetteMismatch";
}

/** Options of {@link loadReplayer}. */
export interface ReplayOptions {
  /** `--replay-strict`: the conversation sent must be the recorded one too. */
  readonly strict: boolean;
}

/** The largest cassette rienda reads: far more than any recorded run, far less than memory. */
export const MAX_CASSETTE_BYTES = 256 * 1024 * 1024;

/** A retry's wait, skipped: the cassette already holds what came after it. */
const skipWait: Sleep = (_ms, signal) =>
  signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();

/**
 * Reads the cassette at `path` and returns the tap that replays it.
 *
 * @throws {CassetteError} when the file is missing or not a cassette
 */
export async function loadReplayer(path: string, options: ReplayOptions): Promise<CassetteTap> {
  let source: string;
  try {
    const read = await readTextFileAtMost(path, MAX_CASSETTE_BYTES);
    if (!read.complete) {
      throw new CassetteError(
        `--replay ${path}: the cassette is larger than 256 MiB: record a shorter run`,
      );
    }
    source = read.text;
  } catch (error) {
    if (error instanceof CassetteError) throw error;
    if (error instanceof Deno.errors.NotFound) {
      throw new CassetteError(`--replay ${path}: no such file: record it with --record ${path}`);
    }
    throw new CassetteError(`--replay ${path}: cannot read it: ${errorMessage(error)}`);
  }
  return createReplayer(parseCassette(source, path), path, options);
}

/** The tap replaying `cassette` (named `file` in messages). */
export function createReplayer(
  cassette: Cassette,
  file: string,
  options: ReplayOptions,
): CassetteTap {
  const { exchanges } = cassette;
  const lastTurn = exchanges.at(-1)?.turn ?? 0;
  let next = 0;
  let turns = 0;
  return {
    client(model: ModelClientOptions, _agent: string, secrets: SecretSet): ModelClient {
      let turn: { number: number; replayed: number; stop: AbortController } | undefined;
      const replayFetch: typeof fetch = (_input, init) => {
        const signal = init?.signal ?? undefined;
        if (signal?.aborted) return Promise.reject(signal.reason);
        if (turn === undefined) {
          return Promise.reject(new Error("a request outside a model turn has no recorded answer"));
        }
        const recorded = exchanges[next];
        const problem = replayMismatch(
          {
            turn: turn.number,
            again: turn.replayed > 0,
            protocol: model.protocol,
            model: model.ref,
            body: bodyOf(init?.body),
          },
          recorded,
          { strict: options.strict, lastTurn },
        );
        if (problem !== null || recorded === undefined) {
          const mismatch = new CassetteMismatch(
            `--replay ${file}: turn ${turn.number}: ${problem}`,
          );
          turn.stop.abort(mismatch);
          return Promise.reject(mismatch);
        }
        next += 1;
        turn.replayed += 1;
        return responseOf(recorded.response, signal);
      };
      const inner = createModelClient({ ...model, fetch: replayFetch, sleep: skipWait }, secrets);
      return {
        ref: model.ref,
        async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
          const stop = new AbortController();
          turn = { number: ++turns, replayed: 0, stop };
          try {
            for await (
              const event of inner.stream(request, AbortSignal.any([signal, stop.signal]))
            ) {
              yield event.type === "retry"
                ? { ...event, delayMs: recordedWait(exchanges[next], turn.number) ?? event.delayMs }
                : event;
            }
          } catch (error) {
            if (!signal.aborted && stop.signal.aborted) throw stop.signal.reason;
            throw error;
          } finally {
            turn = undefined;
          }
        },
      };
    },
  };
}

/** The wait recorded before the next attempt of `turn`, if the cassette has one. */
function recordedWait(exchange: Exchange | undefined, turn: number): number | undefined {
  return exchange?.turn === turn ? exchange.waitMs : undefined;
}

function bodyOf(body: BodyInit | null | undefined): unknown {
  if (typeof body !== "string") return null;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** The recorded response as a `Response` whose body streams the recorded chunks, one by one. */
function responseOf(
  recorded: RecordedResponse,
  signal: AbortSignal | undefined,
): Promise<Response> {
  if (recorded.kind === "failed") return Promise.reject(replayedError(recorded.error));
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (signal?.aborted) {
        controller.error(signal.reason);
        return;
      }
      const chunk = recorded.chunks[index++];
      if (chunk !== undefined) {
        controller.enqueue(encoder.encode(chunk));
      } else if (recorded.end.kind === "error") {
        controller.error(replayedError(recorded.end.error));
      } else {
        controller.close();
      }
    },
  });
  // A body with a status that allows none (204, 304) would throw: those have none on the wire either.
  const empty = recorded.status === 204 || recorded.status === 304;
  return Promise.resolve(
    new Response(empty ? null : body, { status: recorded.status, headers: recorded.headers }),
  );
}
