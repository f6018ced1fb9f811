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
