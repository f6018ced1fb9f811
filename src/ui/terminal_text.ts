/**
 * Text from models, tools, extensions and servers, made safe to print on a
 * terminal: every C0 control but newline and tab, DEL and every C1 control
 * is shown as a visible escape (`\x1b`, `\r`, `\x9b`), so no such text can
 * colour the terminal, move its cursor, set its title or hide what came
 * before it. rienda's own styling is added around the text after this.
 *
 * @module
 */

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

// deno-lint-ignore no-control-regex
const SGR_REGEXP = /\x1b\[([0-9;:]*)m/y;

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
  let at = text.indexOf("\x1b");
  if (at === -1) return terminalSafe(text);
  let out = "";
  let from = 0;
  while (at !== -1) {
    SGR_REGEXP.lastIndex = at;
    const match = SGR_REGEXP.exec(text);
    if (match !== null && styleOnly(match[1]!)) {
      out += terminalSafe(text.slice(from, at)) + match[0];
      from = at + match[0].length;
      at = text.indexOf("\x1b", from);
    } else at = text.indexOf("\x1b", at + 1);
  }
  return out + terminalSafe(text.slice(from));
}

const SEQUENCES_REGEXP = new RegExp(
  [
    "(?:\\x1b\\[|\\x9b)[0-?]*[ -/]*[@-~]", // CSI
    "(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c)?", // OSC, DCS, …
    "\\x1b[ -/]*[0-~]", // other ESC sequences
    "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]", // lone controls
  ].join("|"),
  "g",
);

/**
 * `text` without terminal controls: escape sequences (CSI, OSC, DCS, …, in
 * their ESC and C1 forms) are removed whole, other controls but `\n` and
 * `\t` one by one. For text that leaves the screen, such as `/copy`.
 */
export function withoutControls(text: string): string {
  return text.replace(SEQUENCES_REGEXP, "");
}

/** {@link terminalSafe} when `onTerminal`, else `text` byte for byte (pipes and files get it exact). */
export function safeFor(onTerminal: boolean, text: string): string {
  return onTerminal ? terminalSafe(text) : text;
}

/** `sink` with {@link terminalSafe} applied to everything written, when it is a terminal. */
export function terminalSafeSink(sink: TextSink): TextSink {
  if (!sink.isTerminal) return sink;
  return { isTerminal: true, write: (text) => sink.write(terminalSafe(text)) };
}

/**
 * `io` whose stdout and stderr write out control characters on a terminal:
 * for the commands that print text of agents, sessions, extensions and
 * servers and add no styling of their own.
 */
export function terminalSafeIo(io: Io): Io {
  return { ...io, stdout: terminalSafeSink(io.stdout), stderr: terminalSafeSink(io.stderr) };
}
