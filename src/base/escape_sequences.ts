/**
 * ANSI/VT escape sequences in text from outside (command output, tool and
 * MCP results), found by the `ansi-regex` package: CSI (`ESC [` or C1
 * `0x9b`), OSC, DCS, SOS, PM, APC and the two-byte escapes, in their 7-bit
 * and C1 forms.
 *
 * - {@link stripEscapes} removes them: what the model reads.
 * - {@link escapePieces} tells SGR (colour and style, `ESC [ … m`) from the
 *   other sequences, for front ends that render the first and write out the
 *   rest.
 *
 * @module
 */

import ansiRegex from "ansi-regex";

const SEQUENCES = ansiRegex();
const FIRST_SEQUENCE = ansiRegex({ onlyFirst: true });
// The 7-bit ESC and the C1 controls that start a sequence (DCS, SOS, CSI, OSC, PM, APC).
// deno-lint-ignore no-control-regex
const INTRODUCER = /[\x1b\x90\x98\x9b\x9d\x9e\x9f]/;
// deno-lint-ignore no-control-regex
const SGR = /^\x1b\[[0-9;:]*m$/;
/** Longer SGR sequences are not colour a command means: they are written out like the others. */
const MAX_SGR_LENGTH = 64;

/** One piece of text: plain text, an SGR sequence, or another escape sequence. */
export interface EscapePiece {
  readonly kind: "text" | "sgr" | "escape";
  readonly text: string;
}

/** Whether `text` may hold an escape sequence (an ESC, or a C1 control that starts one). */
export function hasEscapes(text: string): boolean {
  return INTRODUCER.test(text);
}

/** `text` without its escape sequences (lone control characters stay). */
export function stripEscapes(text: string): string {
  return hasEscapes(text) ? text.replace(SEQUENCES, "") : text;
}

/** `text` cut into plain text, SGR sequences and other escape sequences, in order. */
export function escapePieces(text: string): EscapePiece[] {
  if (!hasEscapes(text)) return text === "" ? [] : [{ kind: "text", text }];
  const pieces: EscapePiece[] = [];
  let at = 0;
  for (const match of text.matchAll(SEQUENCES)) {
    if (match.index > at) pieces.push({ kind: "text", text: text.slice(at, match.index) });
    const sequence = match[0];
    const sgr = sequence.length <= MAX_SGR_LENGTH && SGR.test(sequence);
    pieces.push({ kind: sgr ? "sgr" : "escape", text: sequence });
    at = match.index + sequence.length;
  }
  if (at < text.length) pieces.push({ kind: "text", text: text.slice(at) });
  return pieces;
}

/**
 * Where an escape sequence that `text` ends with is still incomplete (more
 * of it may come in the next chunk of a stream), or `text.length` when
 * there is none. Only the last {@link MAX_PENDING} characters are looked at.
 */
export function incompleteTail(text: string): number {
  const from = Math.max(0, text.length - MAX_PENDING);
  for (let at = text.length - 1; at >= from; at--) {
    if (!INTRODUCER.test(text[at]!)) continue;
    // The last introducer: complete when a whole sequence starts there.
    return FIRST_SEQUENCE.exec(text.slice(at))?.index === 0 ? text.length : at;
  }
  return text.length;
}

/** The longest incomplete sequence a stream holds back (a longer one is written out as it is). */
export const MAX_PENDING = 256;
