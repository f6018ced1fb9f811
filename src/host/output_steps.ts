/**
 * How loops that forward output (command pipes, `ctx.log`) stay
 * interruptible. Deno runs signal listeners only when its event loop gets a
 * turn, and a loop whose next input is always ready (a pipe read, a worker
 * message) while each write blocks on a slow terminal never gives it one:
 * Ctrl-C was then seen only after the output ended. So output goes in small
 * steps ({@link splitOutput}), and the loop yields to a timer between steps
 * at least every {@link YIELD_INTERVAL_MS} ({@link createYieldPoint}).
 *
 * Output to a pipe or a file is written asynchronously (`ui/stream_sink.ts`),
 * so a reader that never reads cannot block the process; the bytes not yet
 * written are the {@link changeOutputBacklog backlog}, and the yield point
 * also waits while it is above {@link BACKLOG_HIGH_BYTES}: a slow reader still
 * slows the command, and memory stays bounded. An interrupt
 * {@link releaseOutputBacklog releases} every wait for good.
 *
 * @module
 */

/** How long a loop may keep the event loop busy before it yields. */
export const YIELD_INTERVAL_MS = 20;

/** The longest piece of output written at once: 8 KiB blocks ~2 ms on a 5 MB/s terminal. */
export const OUTPUT_STEP_CHARS = 8 * 1024;

/**
 * A function to call after each step of a loop: null while the loop may go
 * on, or a promise (a 1 ms timer, which lets the event loop wait) to await
 * once `intervalMs` passed since the last yield.
 */
export function createYieldPoint(intervalMs = YIELD_INTERVAL_MS): () => Promise<void> | null {
  let last = performance.now();
  return () => {
    const drained = backlogDrained();
    if (drained !== null) return drained.then(() => void (last = performance.now()));
    if (performance.now() - last < intervalMs) return null;
    return new Promise((resolve) =>
      setTimeout(() => {
        last = performance.now();
        resolve();
      }, 1)
    );
  };
}

/** Above this many unwritten bytes of output, loops forwarding output wait at their yield point. */
export const BACKLOG_HIGH_BYTES = 1024 * 1024;
/** They go on once the backlog is down to this. */
export const BACKLOG_LOW_BYTES = 256 * 1024;

let backlogBytes = 0;
let backlogReleased = false;
let backlogWaiters: (() => void)[] = [];

/** Counts bytes queued (`delta` > 0) or written (`delta` < 0) by an asynchronous output stream. */
export function changeOutputBacklog(delta: number): void {
  backlogBytes += delta;
  if (backlogBytes <= BACKLOG_LOW_BYTES) wakeBacklogWaiters();
}

/** From now on output never makes a loop wait (the run was interrupted: stopping comes first). */
export function releaseOutputBacklog(): void {
  backlogReleased = true;
  wakeBacklogWaiters();
}

function wakeBacklogWaiters(): void {
  const waiters = backlogWaiters;
  backlogWaiters = [];
  for (const wake of waiters) wake();
}

/** A promise for the backlog to drain, or null when there is no need to wait. */
function backlogDrained(): Promise<void> | null {
  if (backlogReleased || backlogBytes <= BACKLOG_HIGH_BYTES) return null;
  return new Promise((resolve) => backlogWaiters.push(resolve));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * `text` in pieces of at most `maxChars`, each cut after a line break when
 * one is in its second half, and never inside a surrogate pair.
 */
export function splitOutput(text: string, maxChars = OUTPUT_STEP_CHARS): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > maxChars) {
    let end = start + maxChars;
    const newline = text.lastIndexOf("\n", end - 1);
    if (newline >= start + maxChars / 2) end = newline + 1;
    else if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}
