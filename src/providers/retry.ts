/**
 * The one retry policy of every model request (docs/providers.md, Errors and retries).
 *
 * - 5 attempts in all; waits of 0.5 s doubling to at most 8 s, each with
 *   ±20 % jitter (`base × (0.8 + 0.4 × random)`, then capped at 8 s).
 * - A `retry-after` the provider sent replaces the computed wait, up to
 *   60 s; a provider asking for longer fails the request at once, saying so.
 * - Retried: a retryable {@link ProviderError} (408, 409, 429, 5xx but 501
 *   and 505, 529, network failures, timeouts, cut streams) and a response
 *   with no content at all (`error_kind.ts` classifies).
 *   Never: other errors, and anything once the signal is aborted.
 * - A `retry` event voids everything the failed attempt streamed.
 *
 * @module
 */

import type { AssistantMessage } from "../llm/messages.ts";
import type { ModelEvent } from "../llm/model_events.ts";
import { cutStreamError, ProviderError } from "./http_errors.ts";

/** The numbers of the retry policy. */
export interface RetryPolicy {
  /** Attempts in all, the first included. @default {5} */
  readonly maxAttempts: number;
  /** The wait before the second attempt, before jitter. @default {500} */
  readonly baseDelayMs: number;
  /** The longest computed wait, jitter included. @default {8000} */
  readonly maxDelayMs: number;
  /** The longest `retry-after` honoured; a longer one fails at once. @default {60000} */
  readonly maxRetryAfterMs: number;
}

/** The policy of docs/providers.md. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** A wait that ends early, rejecting with the signal's reason, on abort. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Options of {@link retryingStream}. */
export interface RetryOptions extends Partial<RetryPolicy> {
  readonly signal: AbortSignal;
  /** A number in [0, 1) for the jitter. @default {Math.random} */
  readonly random?: () => number;
  /** The wait between attempts. @default {abortableSleep} */
  readonly sleep?: Sleep;
}

/** Waits `ms` milliseconds, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The wait after failed attempt `attempt` (from 1): the base doubled per
 * attempt, times a jitter factor in [0.8, 1.2), capped at `maxDelayMs`.
 *
 * @example
 * ```ts
 * retryDelayMs(1, () => 0.5); // 500
 * retryDelayMs(3, () => 0);   // 1600
 * retryDelayMs(9, () => 0.5); // 8000
 * ```
 */
export function retryDelayMs(
  attempt: number,
  random: () => number = Math.random,
  options: Partial<Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">> = {},
): number {
  const { baseDelayMs = DEFAULT_RETRY_POLICY.baseDelayMs } = options;
  const { maxDelayMs = DEFAULT_RETRY_POLICY.maxDelayMs } = options;
  // Capping the exponent keeps 2 ** n finite for any attempt count.
  const base = Math.min(baseDelayMs * 2 ** Math.min(attempt - 1, 30), maxDelayMs);
  const jitter = 0.8 + 0.4 * random();
  return Math.round(Math.min(base * jitter, maxDelayMs));
}

/** Whether a response holds nothing at all: no tool call, no text, no thinking. */
export function isEmptyMessage(message: AssistantMessage): boolean {
  return message.blocks.every((block) => {
    switch (block.type) {
      case "text":
        return block.text === "";
      case "thinking":
        return block.thinking === "" && block.redacted !== true;
      case "tool_call":
        return false;
      default: {
        const unknownBlock: never = block;
        throw new TypeError(`unknown block ${JSON.stringify(unknownBlock)}`);
      }
    }
  });
}

function checkPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`cannot retry: "${name}" must be a positive integer (found ${value})`);
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** The failure, once its `retry-after` asks for more than rienda waits. */
function tooLongToWait(failure: ProviderError, maxRetryAfterMs: number): ProviderError {
  const wait = seconds(failure.retryAfterMs ?? 0);
  return new ProviderError(
    failure.kind,
    `${failure.message}; the provider asks to retry after ${wait}, ` +
      `longer than rienda waits (${seconds(maxRetryAfterMs)}): try again later`,
    { ...(failure.status === undefined ? {} : { status: failure.status }), cause: failure },
  );
}

/**
 * Streams `attempt`'s events, sending it again after a retryable failure
 * with a `retry` event in between; throws the last error when the attempts
 * run out, and the signal's reason once aborted.
 */
export async function* retryingStream(
  attempt: (attempt: number) => AsyncIterable<ModelEvent>,
  options: RetryOptions,
): AsyncGenerator<ModelEvent> {
  const {
    signal,
    maxAttempts = DEFAULT_RETRY_POLICY.maxAttempts,
    baseDelayMs = DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs = DEFAULT_RETRY_POLICY.maxDelayMs,
    maxRetryAfterMs = DEFAULT_RETRY_POLICY.maxRetryAfterMs,
    random = Math.random,
    sleep = abortableSleep,
  } = options;
  checkPositiveInteger("maxAttempts", maxAttempts);
  for (let number = 1;; number++) {
    signal.throwIfAborted();
    let failure: ProviderError;
    try {
      for await (const event of attempt(number)) {
        if (event.type === "done" && isEmptyMessage(event.message)) {
          throw new ProviderError("empty", "the model returned an empty response");
        }
        yield event;
        if (event.type === "done") return;
      }
      // model_events.ts: a stream ends with a `done` event or throws.
      throw cutStreamError();
    } catch (cause) {
      signal.throwIfAborted();
      if (!(cause instanceof ProviderError) || !cause.retryable) throw cause;
      failure = cause;
    }
    if (number >= maxAttempts) throw failure;
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > maxRetryAfterMs) {
      throw tooLongToWait(failure, maxRetryAfterMs);
    }
    const delayMs = failure.retryAfterMs ??
      retryDelayMs(number, random, { baseDelayMs, maxDelayMs });
    yield { type: "retry", attempt: number, delayMs, error: failure.message };
    await sleep(delayMs, signal);
  }
}
