/**
 * A text seen without what can hide a key from a plain search: terminal
 * escape sequences, control and zero-width characters, and (for the
 * `lineBreaks` view) line breaks with the indentation after them. A
 * key printed in colour, cut by `fold` or `base64 -w 76`, or sprinkled with
 * zero-width spaces is one run of characters in the view; a match in the
 * view maps back to the range of the original text it came from, with what
 * was hidden inside it.
 *
 * Building a view is one native `replace`; the map back is computed only
 * when something matched.
 *
 * @module
 */

/**
 * CSI escape sequences (colours, cursor moves; also in their C1 form), the
 * two characters of every other escape (the text of an OSC title or
 * hyperlink stays in the view, so a key cannot hide inside one), C0 and C1
 * controls but tab and line feed, DEL, and the zero-width and
 * direction-format characters.
 */
const INVISIBLE =
  "\\x1b\\[[0-?]*[ -/]*[@-~]|\\x9b[0-?]*[ -/]*[@-~]|\\x1b[ -~]|[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u00ad\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\ufeff]";

/** {@link INVISIBLE}, and a line break with the spaces and tabs after it. */
const INVISIBLE_AND_LINE_BREAKS = `(?:${INVISIBLE}|\\n[ \\t]*)+`;

/** Which characters a view leaves out. */
export type ViewKind = "invisible" | "lineBreaks";

const PATTERNS: Readonly<Record<ViewKind, RegExp>> = {
  // Whole runs at once: 256 KiB of blank lines is one replacement, not 262,144.
  invisible: new RegExp(`(?:${INVISIBLE})+`, "g"),
  lineBreaks: new RegExp(INVISIBLE_AND_LINE_BREAKS, "g"),
};

/** A half-open range `[start, end)` of a text. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/** A text without the characters of its kind, and the way back to the original. */
export interface TextView {
  readonly text: string;
  /** The range of the original text that the view's range `[start, end)` (non-empty) came from. */
  original(range: TextRange): TextRange;
}

/** The view of `text` that leaves out what {@link ViewKind} `kind` names. */
export function viewOf(text: string, kind: ViewKind): TextView {
  const pattern = PATTERNS[kind];
  const view = text.replace(pattern, "");
  if (view.length === text.length) return { text, original: (range) => range };
  let removed: { viewAt: Int32Array; before: Int32Array } | null = null;
  const offsets = () => {
    if (removed !== null) return removed;
    // viewAt[i]: where in the view the i-th removed run would have been; before[i]: characters removed before it.
    const viewAt: number[] = [];
    const before: number[] = [0];
    let total = 0;
    for (const match of text.matchAll(pattern)) {
      viewAt.push(match.index - total);
      total += match[0].length;
      before.push(total);
    }
    removed = { viewAt: Int32Array.from(viewAt), before: Int32Array.from(before) };
    return removed;
  };
  /** The original index of the view's character at `index`. */
  const at = (index: number): number => {
    const { viewAt, before } = offsets();
    // The runs at or before `index` were removed in front of it.
    let low = 0;
    let high = viewAt.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((viewAt[middle] ?? 0) <= index) low = middle + 1;
      else high = middle;
    }
    return index + (before[low] ?? 0);
  };
  return {
    text: view,
    original: (range) => ({ start: at(range.start), end: at(range.end - 1) + 1 }),
  };
}
