/**
 * Terminal styling, decided once: colour only when the stream is a terminal
 * and `NO_COLOR` is unset; a spinner only on a terminal.
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

/** Whether to colour `sink` (https://no-color.org: any non-empty NO_COLOR disables it). */
export function useColor(sink: TextSink, env: (name: string) => string | undefined): boolean {
  const noColor = env("NO_COLOR");
  return sink.isTerminal && (noColor === undefined || noColor === "");
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
  start(label: string): void;
  /** Clears the line; call before writing anything else to the stream. */
  stop(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

/** A spinner on `sink`, or one that does nothing when `sink` is not a terminal. */
export function createSpinner(sink: TextSink, style: Style): Spinner {
  if (!sink.isTerminal) return { start() {}, stop() {} };
  let timer: ReturnType<typeof setInterval> | undefined;
  let frame = 0;
  let label = "";
  const draw = () => {
    sink.write(`\r\x1b[K${style.cyan(FRAMES[frame % FRAMES.length]!)} ${style.dim(label)}`);
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
