/**
 * Text from models, tools, extensions and servers, made safe to print on a
 * terminal: every C0 control but newline and tab, DEL and every C1 control
 * is shown as a visible escape (`\x1b`, `\r`, `\x9b`), so no such text can
 * colour the terminal, move its cursor, set its title or hide what came
 * before it. rienda's own styling is added around the text after this.
 *
 * What a command prints ({@link commandText}) may keep its colours: on a
 * terminal with colour its SGR sequences are rendered and every other
 * sequence is written out; with `NO_COLOR` the SGR sequences are dropped; to
 * a pipe every sequence is dropped. Lone controls are written out in each.
 *
 * @module
 */

import { escapePieces, incompleteTail, stripEscapes } from "../base/escape_sequences.ts";
import type { Io, TextSink } from "./io.ts";

// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `text` with its terminal controls (all but `\n` and `\t`) written out as `\xNN` / `\r`. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROLS, (control) => {
    if (control === "\r") return "\\r";
    return `\\x${control.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
}

/**
 * SGR parameters of colour and style: reset, bold, dim, italic, underline,
 * inverse, strike, their resets, and the 8, 16, 256 and RGB colours. Blink
 * and conceal (text that is there but cannot be seen) are left out.
 */
function styleOnly(parameters: string): boolean {
  if (parameters === "") return true;
  const codes = parameters.split(";");
  for (let index = 0; index < codes.length; index++) {
    const code = codes[index]!;
    // `4:3` (an underline style) is the one colon form kept.
    if (/^4:[0-5]$/.test(code)) continue;
    if (!/^\d{1,3}$/.test(code)) return false;
    const value = Number(code);
    if (value === 38 || value === 48 || value === 58) {
      const mode = codes[index + 1];
      const count = mode === "5" ? 1 : mode === "2" ? 3 : -1;
      if (count < 0 || index + 1 + count >= codes.length) return false;
      const values = codes.slice(index + 2, index + 2 + count);
      if (!values.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return false;
      index += 1 + count;
      continue;
    }
    const kept = value <= 4 || value === 7 || value === 9 || (value >= 21 && value <= 24) ||
      value === 27 || value === 29 || (value >= 30 && value <= 37) || value === 39 ||
      (value >= 40 && value <= 47) || value === 49 || value === 59 ||
      (value >= 90 && value <= 97) || (value >= 100 && value <= 107);
    if (!kept) return false;
  }
  return true;
}

/**
 * `text` with its SGR sequences of colour and style kept and every other
 * terminal control written out as by {@link terminalSafe} (an OSC title or
 * clipboard write, a cursor move, a screen clear, blink, conceal, C1 forms).
 *
 * @example
 * ```ts
 * keepStyling("\x1b[1mok\x1b[22m\x1b]0;t\x07"); // "\x1b[1mok\x1b[22m\\x1b]0;t\\x07"
 * ```
 */
export function keepStyling(text: string): string {
  return commandText(text, "colour");
}

/**
 * `text` without terminal controls: escape sequences (CSI, OSC, DCS, …, in
 * their ESC and C1 forms) are removed whole, other controls but `\n` and
 * `\t` one by one. For text that leaves the screen, such as `/copy`.
 */
export function withoutControls(text: string): string {
  return stripEscapes(text).replace(CONTROLS, "");
}

/** {@link terminalSafe} when `onTerminal`, else `text` byte for byte (pipes and files get it exact). */
export function safeFor(onTerminal: boolean, text: string): string {
  return onTerminal ? terminalSafe(text) : text;
}

/** `sink` with {@link terminalSafe} applied to everything written (`always`, or on a terminal). */
export function terminalSafeSink(sink: TextSink, always = false): TextSink {
  if (!sink.isTerminal && !always) return sink;
  return { isTerminal: sink.isTerminal, write: (text) => sink.write(terminalSafe(text)) };
}

/**
 * `io` whose stdout writes out control characters on a terminal and whose
 * stderr, the human channel, always does: for the commands that print text
 * of agents, sessions, extensions and servers and add no styling of their own.
 */
export function terminalSafeIo(io: Io): Io {
  return { ...io, stdout: terminalSafeSink(io.stdout), stderr: terminalSafeSink(io.stderr, true) };
}

/**
 * How a command's output is shown: its SGR colours rendered (`colour`: a
 * terminal with colour), dropped (`plain`: a terminal with `NO_COLOR`), or
 * every escape sequence dropped (`strip`: a pipe or a file).
 */
export type OutputMode = "colour" | "plain" | "strip";

/** The {@link OutputMode} for `sink` when rienda's own colour is `colour`. */
export function outputMode(sink: TextSink, colour: boolean): OutputMode {
  return !sink.isTerminal ? "strip" : colour ? "colour" : "plain";
}

/**
 * A command's output for `mode`: SGR sequences of colour and style kept in
 * `colour` mode and dropped otherwise, the other sequences written out on a
 * terminal and dropped in `strip` mode, and every other control written out
 * ({@link terminalSafe}).
 */
export function commandText(text: string, mode: OutputMode): string {
  let out = "";
  for (const piece of escapePieces(text)) {
    switch (piece.kind) {
      case "text":
        out += terminalSafe(piece.text);
        break;
      case "sgr":
        // Only colour and style: blink, conceal and the like are written out as any other.
        if (styleOnly(piece.text.slice(2, -1))) {
          if (mode === "colour") out += piece.text;
        } else if (mode !== "strip") out += terminalSafe(piece.text);
        break;
      case "escape":
        if (mode !== "strip") out += terminalSafe(piece.text);
        break;
      default:
        piece.kind satisfies never;
    }
  }
  return out;
}

/** Whether `text` (made by {@link commandText}) turns on any colour or style. */
export function hasStyle(text: string): boolean {
  return text.includes("\x1b[");
}

/** Ends every colour and style. */
export const RESET_STYLE = "\x1b[0m";

// deno-lint-ignore no-control-regex
const SHOWN_SGR = /\x1b\[[0-9;:]*m/g;
/** The most SGR text carried over from one line to the next (beyond it, none is). */
const MAX_CARRIED = 256;

/**
 * A command's output as lines for `mode` ({@link commandText}), each line
 * complete in itself: it reopens the colour and style the lines before it
 * left on, and ends with a reset when it has any.
 */
export function commandLines(text: string, mode: OutputMode): string[] {
  const lines = commandText(text, mode).split("\n");
  if (mode !== "colour") return lines;
  let carried = "";
  return lines.map((line) => {
    const shown = carried + line;
    for (const [sequence] of line.matchAll(SHOWN_SGR)) {
      carried = sequence === RESET_STYLE || sequence === "\x1b[m" ? "" : carried + sequence;
    }
    if (carried.length > MAX_CARRIED) carried = "";
    return hasStyle(shown) ? shown + RESET_STYLE : shown;
  });
}

/**
 * A command's output as it streams, in chunks: a sequence cut between two
 * chunks is held back until it is whole (or the output ends), and `end`
 * resets the style when the output turned any on.
 */
export interface CommandStream {
  /** The shown form of everything up to the chunk's last complete piece. */
  push(chunk: string): string;
  /** The rest, and a reset when the output was styled; the stream starts afresh after it. */
  end(): string;
}

/** A {@link CommandStream} for `mode`. */
export function createCommandStream(mode: OutputMode): CommandStream {
  let pending = "";
  let styled = false;
  const show = (text: string) => {
    const shown = commandText(text, mode);
    styled ||= hasStyle(shown);
    return shown;
  };
  return {
    push(chunk) {
      const text = pending + chunk;
      const cut = incompleteTail(text);
      pending = text.slice(cut);
      return show(text.slice(0, cut));
    },
    end() {
      const rest = show(pending);
      const reset = styled ? RESET_STYLE : "";
      pending = "";
      styled = false;
      return rest + reset;
    },
  };
}
