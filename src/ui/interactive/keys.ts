/**
 * Terminal input bytes → keys: printable text, bracketed pastes, and named
 * keys with their modifiers (CSI and SS3 sequences, Alt as an Esc prefix,
 * the kitty / modifyOtherKeys forms of Shift+Enter).
 *
 * - Text typed in one read is one `text` key, but an Enter inside it is a
 *   key of its own, so "text + Enter" arriving together still submits.
 * - A lone Esc at the end of a read may start a sequence: the parser holds it
 *   until more input arrives or {@link KeyParser.flush} is called (after a
 *   short pause), which then reports the Esc key.
 * - A paste may span reads; its text is reported whole.
 *
 * @module
 */

/** Keys with a name. Letters are used with `ctrl` or `alt`. */
export type KeyName =
  | "enter"
  | "tab"
  | "backspace"
  | "delete"
  | "escape"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageup"
  | "pagedown"
  | string;

/** One key press, or a paste. */
export type Key =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "paste"; readonly text: string }
  | {
    readonly type: "key";
    readonly name: KeyName;
    readonly ctrl: boolean;
    readonly alt: boolean;
    readonly shift: boolean;
  };

/** A stateful parser over the input stream. */
export interface KeyParser {
  /** Parses more input. */
  feed(input: string): Key[];
  /** Reports a held lone Esc (call after a pause with no input). */
  flush(): Key[];
  /** Whether input is held (a lone Esc or an unfinished sequence). */
  readonly pending: boolean;
}

const PASTE_END = "\x1b[201~";

function named(name: KeyName, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}): Key {
  return {
    type: "key",
    name,
    ctrl: mods.ctrl ?? false,
    alt: mods.alt ?? false,
    shift: mods.shift ?? false,
  };
}

/** xterm modifier parameter (1 + bits: shift 1, alt 2, ctrl 4) → flags. */
function modifiers(parameter: number | undefined) {
  const bits = Math.max(0, (parameter ?? 1) - 1);
  return { shift: (bits & 1) !== 0, alt: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

const CSI_FINAL: Readonly<Record<string, KeyName>> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  Z: "tab",
};

const TILDE: Readonly<Record<string, KeyName>> = {
  "1": "home",
  "7": "home",
  "4": "end",
  "8": "end",
  "3": "delete",
  "5": "pageup",
  "6": "pagedown",
  "2": "insert",
};

/** A control character (other than Esc) as a key. */
function controlKey(code: number): Key {
  switch (code) {
    case 0x0d:
      return named("enter");
    case 0x09:
      return named("tab");
    case 0x7f:
    case 0x08:
      return named("backspace");
    case 0x00:
      return named("space", { ctrl: true });
    default:
      return named(String.fromCharCode(code + 0x60), { ctrl: true });
  }
}

/** Parses a CSI sequence body (after `ESC [`); null when it is not a key. */
function csiKey(params: string, final: string, alt: boolean): Key | null {
  const parts = params.split(";").map((part) => Number(part.split(":")[0]));
  if (final === "~") {
    if (parts[0] === 27 && parts[2] !== undefined) {
      // modifyOtherKeys: ESC [ 27 ; mod ; code ~
      return codeKey(parts[2], modifiers(parts[1]), alt);
    }
    const name = TILDE[String(parts[0])];
    if (name === undefined) return null;
    const mods = modifiers(parts[1]);
    return named(name, { ...mods, alt: mods.alt || alt });
  }
  if (final === "u") {
    // kitty keyboard protocol: ESC [ code ; mod u
    return codeKey(parts[0] ?? 0, modifiers(parts[1]), alt);
  }
  const name = CSI_FINAL[final];
  if (name === undefined) return null;
  const mods = modifiers(params === "" ? undefined : parts[parts.length - 1]);
  if (final === "Z") return named("tab", { shift: true });
  return named(name, { ...mods, alt: mods.alt || alt });
}

function codeKey(
  code: number,
  mods: { shift: boolean; alt: boolean; ctrl: boolean },
  alt: boolean,
): Key | null {
  const withAlt = { ...mods, alt: mods.alt || alt };
  if (code === 13) return named("enter", withAlt);
  if (code === 9) return named("tab", withAlt);
  if (code === 127) return named("backspace", withAlt);
  if (code === 27) return named("escape", withAlt);
  if (code >= 32) {
    const char = String.fromCodePoint(code);
    if (!withAlt.ctrl && !withAlt.alt) return { type: "text", text: char };
    return named(char.toLowerCase(), withAlt);
  }
  return null;
}

/** Creates a parser. */
export function createKeyParser(): KeyParser {
  let buffer = "";
  let paste: string | null = null;

  function parse(final: boolean): Key[] {
    const keys: Key[] = [];
    let text = "";
    const pushText = () => {
      if (text !== "") keys.push({ type: "text", text });
      text = "";
    };
    let index = 0;
    while (index < buffer.length) {
      if (paste !== null) {
        const end = buffer.indexOf(PASTE_END, index);
        if (end === -1) {
          // Keep a possible partial end marker for the next read.
          const keep = partialSuffix(buffer, PASTE_END);
          paste += buffer.slice(index, buffer.length - keep);
          buffer = buffer.slice(buffer.length - keep);
          return keys;
        }
        paste += buffer.slice(index, end);
        keys.push({ type: "paste", text: paste.replace(/\r\n?/g, "\n") });
        paste = null;
        index = end + PASTE_END.length;
        continue;
      }
      const char = buffer[index]!;
      const code = char.charCodeAt(0);
      if (char === "\x1b") {
        const sequence = parseEscape(buffer, index, final);
        if (sequence === "incomplete") break;
        pushText();
        if (sequence.paste) {
          paste = "";
        } else if (sequence.key !== null) keys.push(sequence.key);
        index += sequence.length;
        continue;
      }
      if (code < 0x20 || code === 0x7f) {
        pushText();
        keys.push(controlKey(code));
        index++;
        continue;
      }
      text += char;
      index++;
    }
    pushText();
    buffer = buffer.slice(index);
    return keys;
  }

  return {
    feed(input) {
      buffer += input;
      return parse(false);
    },
    flush() {
      if (paste !== null) return [];
      return parse(true);
    },
    get pending() {
      return buffer !== "" || paste !== null;
    },
  };
}

/** How long an unfinished marker at the end of `text` is. */
function partialSuffix(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(marker.slice(0, length))) return length;
  }
  return 0;
}

type Escape = { key: Key | null; length: number; paste: boolean };

/** Parses an escape sequence at `index`; "incomplete" when more input may complete it. */
function parseEscape(buffer: string, index: number, final: boolean): Escape | "incomplete" {
  const next = buffer[index + 1];
  if (next === undefined) {
    return final ? { key: named("escape"), length: 1, paste: false } : "incomplete";
  }
  if (next === "[" || next === "O") {
    const sequence = parseCsi(buffer, index + 2, next === "O");
    if (sequence === "incomplete") {
      return final ? { key: named("escape"), length: 1, paste: false } : "incomplete";
    }
    return { ...sequence, length: sequence.length + 2 };
  }
  if (next === "\x1b") {
    // Esc Esc: an Alt-prefixed sequence (some terminals) or two Esc presses.
    const inner = parseEscape(buffer, index + 1, final);
    if (inner === "incomplete") return "incomplete";
    const key = inner.key?.type === "key" ? { ...inner.key, alt: true } : inner.key;
    return { key, length: inner.length + 1, paste: inner.paste };
  }
  const code = next.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) {
    const key = controlKey(code);
    return { key: key.type === "key" ? { ...key, alt: true } : key, length: 2, paste: false };
  }
  const char = String.fromCodePoint(buffer.codePointAt(index + 1) ?? code);
  return { key: named(char.toLowerCase(), { alt: true }), length: 1 + char.length, paste: false };
}

function parseCsi(
  buffer: string,
  start: number,
  ss3: boolean,
): { key: Key | null; length: number; paste: boolean } | "incomplete" {
  let end = start;
  while (end < buffer.length) {
    const code = buffer.charCodeAt(end);
    if (code >= 0x40 && code <= 0x7e) break;
    if (code < 0x20) return { key: null, length: end - start, paste: false };
    end++;
  }
  if (end >= buffer.length) return "incomplete";
  const params = buffer.slice(start, end);
  const final = buffer[end]!;
  const length = end - start + 1;
  if (!ss3 && params === "200" && final === "~") return { key: null, length, paste: true };
  if (ss3) {
    const name = CSI_FINAL[final] ?? (final === "M" ? "enter" : undefined);
    return { key: name === undefined ? null : named(name), length, paste: false };
  }
  return { key: csiKey(params.replace(/^[?<=>]/, ""), final, false), length, paste: false };
}
