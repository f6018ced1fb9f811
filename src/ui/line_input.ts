/**
 * Reading one line from a terminal in its normal (cooked) mode, where the
 * terminal itself echoes and edits the line, and dropping what was typed
 * before a question was shown.
 *
 * - One read of standard input is pending at a time and is shared: a read
 *   left waiting by an interrupted question serves the next line, and
 *   nothing is read twice.
 * - {@link discardTypedAhead} switches the terminal to raw mode for a moment,
 *   so a line typed ahead (finished or not) can be read, and throws it away;
 *   Deno offers no `tcflush`, so reading it is the way to drop it.
 *
 * @module
 */

const decoder = new TextDecoder();
let rest = "";
let pending: Promise<string | null> | null = null;

/** Typing ahead ends after this long without input. */
const QUIET_MS = 30;
/** Discarding gives up after this long (a stream of input, such as a paste still arriving). */
const MAX_DISCARD_MS = 500;

/** The next piece of standard input (shared by every caller); null at its end. */
function nextChunk(): Promise<string | null> {
  pending ??= (async () => {
    const buffer = new Uint8Array(1024);
    const count = await Deno.stdin.read(buffer);
    return count === null ? null : decoder.decode(buffer.subarray(0, count), { stream: true });
  })();
  return pending;
}

/**
 * The next line of standard input without its newline; null at end of
 * input, or once `signal` aborts (what arrives later is kept for the next call).
 */
export async function readLine(signal?: AbortSignal): Promise<string | null> {
  const aborted = signal === undefined ? null : new Promise<"aborted">((resolve) => {
    if (signal.aborted) resolve("aborted");
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
  for (;;) {
    const end = rest.indexOf("\n");
    if (end !== -1) {
      const line = rest.slice(0, end).replace(/\r$/, "");
      rest = rest.slice(end + 1);
      return line;
    }
    const chunk = await (aborted === null ? nextChunk() : Promise.race([nextChunk(), aborted]));
    if (chunk === "aborted") return null;
    pending = null;
    if (chunk === null) {
      const last = rest;
      rest = "";
      return last === "" ? null : last;
    }
    rest += chunk;
  }
}

/**
 * Drops whatever was typed on the terminal before now: what an earlier read
 * left, and what waits in the terminal (call just before showing a question,
 * so a `y` typed while the model was thinking never answers it).
 */
export async function discardTypedAhead(): Promise<void> {
  rest = "";
  try {
    Deno.stdin.setRaw(true);
  } catch {
    return; // not a terminal: nothing was typed ahead
  }
  try {
    const until = Date.now() + MAX_DISCARD_MS;
    while (Date.now() < until) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const quiet = new Promise<"quiet">((resolve) =>
        timer = setTimeout(resolve, QUIET_MS, "quiet")
      );
      const chunk = await Promise.race([nextChunk(), quiet]);
      clearTimeout(timer);
      if (chunk === "quiet") break;
      pending = null;
      if (chunk === null) break;
    }
  } finally {
    Deno.stdin.setRaw(false);
  }
}
