/**
 * Terminal styling, decided once: colour and a spinner only when the stream
 * is a terminal, `NO_COLOR` is unset and `TERM` is not `dumb`.
 *
 * @module
 */

import type { TextSink } from "./io.ts";

/** ANSI styling functions; identity functions when colour is off. */
export interface Style {
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly bold: (text: string) => string;
}

/**
 * Whether to colour `sink`: a terminal, `NO_COLOR` unset or empty
 * (https://no-color.org) and `TERM` other than `dumb`.
 */
export function useColor(sink: TextSink, env: (name: string) => string | undefined): boolean {
  const noColor = env("NO_COLOR");
  return sink.isTerminal && (noColor === undefined || noColor === "") && env("TERM") !== "dumb";
}

/** Whether to animate a spinner on `sink`: exactly when it may be coloured (plain lines otherwise). */
export function useSpinner(sink: TextSink, env: (name: string) => string | undefined): boolean {
  return useColor(sink, env);
}

/** A style that colours when `enabled`. */
export function createStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    bold: wrap(1, 22),
  };
}

/** A one-line progress indicator on a terminal stream. */
export interface Spinner {
  /** Shows `label` (a function is asked again at every frame, e.g. for an elapsed time). */
  start(label: string | (() => string)): void;
  /** Clears the line; call before writing anything else to the stream. */
  stop(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

/** A spinner on `sink`, or one that does nothing when not `enabled` (see {@link useSpinner}). */
export function createSpinner(sink: TextSink, style: Style, enabled: boolean): Spinner {
  if (!enabled) return { start() {}, stop() {} };
  let timer: ReturnType<typeof setInterval> | undefined;
  let frame = 0;
  let label: string | (() => string) = "";
  const draw = () => {
    const text = typeof label === "string" ? label : label();
    sink.write(`\r\x1b[K${style.cyan(FRAMES[frame % FRAMES.length]!)} ${style.dim(text)}`);
    frame++;
  };
  return {
    start(text) {
      label = text;
      if (timer !== undefined) return;
      draw();
      const interval = setInterval(draw, FRAME_MS);
      Deno.unrefTimer(interval);
      timer = interval;
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      sink.write("\r\x1b[K");
    },
  };
}

/** An elapsed time for a progress line: `4s`, `1m 05s`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}
