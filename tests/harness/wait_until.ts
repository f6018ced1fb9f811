/**
 * Waiting for a condition that a producer re-checks on every change (a request
 * arriving, stderr growing), with a timeout and an optional end of the producer.
 *
 * @module
 */

/** When and how {@link waitUntil} gives up. */
export interface WaitUntilOptions {
  readonly timeoutMs: number;
  /** The error to reject with after `timeoutMs`. */
  readonly onTimeout: () => Error;
  /** Settles when no further change can come (e.g. the process ended). */
  readonly ended?: Promise<unknown>;
  /** The error to reject with when `ended` settles and the condition still fails. */
  readonly onEnded?: () => Error;
}

/**
 * Resolves once `ready()` holds. The producer calls every function in
 * `listeners` after each change; the waiter adds itself there and removes
 * itself when done.
 */
export function waitUntil(
  ready: () => boolean,
  listeners: Set<() => void>,
  options: WaitUntilOptions,
): Promise<void> {
  const { timeoutMs, onTimeout, ended, onEnded = onTimeout } = options;
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      listeners.delete(check);
      clearTimeout(timer);
      if (error === undefined) resolve();
      else reject(error);
    };
    const check = () => {
      if (ready()) finish();
    };
    const timer = setTimeout(() => finish(onTimeout()), timeoutMs);
    listeners.add(check);
    check();
    const end = () => {
      if (listeners.has(check)) finish(ready() ? undefined : onEnded());
    };
    ended?.then(end, end);
  });
}
