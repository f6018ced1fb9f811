/**
 * The real terminal of interactive mode: raw mode, key input, size, resize,
 * and the escape modes it turns on (bracketed paste, and the kitty keyboard
 * protocol's "disambiguate" flag plus xterm's modifyOtherKeys level 1, so
 * Shift+Enter arrives as a key of its own where the terminal supports either)
 * — always turned off again, on quit, on a crash and on SIGTERM or SIGHUP.
 *
 * Deno restores the termios mode itself on exit; escape modes it does not,
 * so {@link Term.restore} writes their reset and runs from every exit path:
 * the UI's own quit, `unload` (which `Deno.exit` dispatches, also on a
 * second SIGINT/SIGTERM), uncaught errors and rejections, and SIGHUP.
 * SIGINT and SIGTERM reach `main.ts`, whose abort signal makes the UI quit.
 *
 * @module
 */

/** What the interactive UI needs from a terminal. */
export interface Term {
  readonly columns: number;
  readonly rows: number;
  write(text: string): void;
  /** Starts raw mode and reading; `onInput` receives decoded text, `onResize` size changes. */
  start(handlers: { onInput(text: string): void; onResize(): void; onHangup(): void }): void;
  /** Leaves raw mode and resets every escape mode turned on (idempotent). */
  restore(): void;
  /**
   * Hands the terminal to another program: stops reading after the input
   * being handled, leaves raw mode; {@link resume} takes it back.
   */
  suspend(): void;
  resume(): void;
}

/** Bracketed paste on; kitty keyboard flags 1 pushed; modifyOtherKeys 1. */
const ENTER_MODES = "\x1b[?2004h\x1b[>1u\x1b[>4;1m";
/**
 * Bracketed paste off, kitty keyboard flags popped, modifyOtherKeys reset,
 * cursor shown, synchronized output ended, attributes reset.
 */
export const RESTORE_MODES = "\x1b[?2004l\x1b[<u\x1b[>4m\x1b[?25h\x1b[?2026l\x1b[0m";

/** Terminal size with the fallbacks a pty reporting 0x0 needs: COLUMNS/LINES, then 80x24. */
export function terminalSize(env: (name: string) => string | undefined): {
  columns: number;
  rows: number;
} {
  let columns = 0;
  let rows = 0;
  try {
    ({ columns, rows } = Deno.consoleSize());
  } catch {
    // not a terminal, or no size: fall back below
  }
  const fromEnv = (name: string) => {
    const value = Number(env(name));
    return Number.isInteger(value) && value > 0 ? value : 0;
  };
  return {
    columns: columns > 0 ? columns : fromEnv("COLUMNS") || 80,
    rows: rows > 0 ? rows : fromEnv("LINES") || 24,
  };
}

/** The process's terminal, writing through `write`. */
export function createDenoTerm(
  write: (text: string) => void,
  env: (name: string) => string | undefined,
): Term {
  let size = terminalSize(env);
  let started = false;
  let restored = false;
  const reading = { paused: null as Promise<void> | null, resume: () => {} };
  const listeners: Array<() => void> = [];

  function restore() {
    if (!started || restored) return;
    restored = true;
    for (const remove of listeners.splice(0)) remove();
    try {
      write(RESTORE_MODES);
      Deno.stdin.setRaw(false);
    } catch {
      // the terminal is gone (hangup): nothing left to restore
    }
  }

  function listen(target: "unload" | "error" | "unhandledrejection", handler: () => void) {
    globalThis.addEventListener(target, handler);
    listeners.push(() => globalThis.removeEventListener(target, handler));
  }

  function signal(name: Deno.Signal, handler: () => void) {
    Deno.addSignalListener(name, handler);
    listeners.push(() => Deno.removeSignalListener(name, handler));
  }

  return {
    // Read afresh on each frame, not only on SIGWINCH: a frame drawn at the old width
    // after the terminal has resized (the signal still queued) would leave debris.
    get columns() {
      if (started && !restored) size = terminalSize(env);
      return size.columns;
    },
    get rows() {
      return size.rows;
    },
    write,
    start(handlers) {
      started = true;
      Deno.stdin.setRaw(true);
      write(ENTER_MODES);
      listen("unload", restore);
      listen("error", restore);
      listen("unhandledrejection", restore);
      signal("SIGWINCH", () => {
        size = terminalSize(env);
        handlers.onResize();
      });
      signal("SIGHUP", () => {
        restore();
        handlers.onHangup();
      });
      void readLoop(handlers.onInput, handlers.onHangup, reading);
    },
    restore,
    suspend() {
      reading.paused = new Promise((resolve) => (reading.resume = resolve));
      write(RESTORE_MODES);
      Deno.stdin.setRaw(false);
    },
    resume() {
      Deno.stdin.setRaw(true);
      write(ENTER_MODES);
      reading.paused = null;
      reading.resume();
    },
  };
}

async function readLoop(
  onInput: (text: string) => void,
  onEnd: () => void,
  reading: { readonly paused: Promise<void> | null },
): Promise<void> {
  const buffer = new Uint8Array(4096);
  const decoder = new TextDecoder();
  for (;;) {
    let count: number | null;
    try {
      count = await Deno.stdin.read(buffer);
    } catch {
      count = null;
    }
    if (count === null) {
      onEnd();
      return;
    }
    const text = decoder.decode(buffer.subarray(0, count), { stream: true });
    if (text !== "") onInput(text);
    // Another program owns the terminal: a pending read would steal its keys.
    if (reading.paused !== null) await reading.paused;
  }
}
