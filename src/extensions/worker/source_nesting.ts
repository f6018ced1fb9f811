/**
 * Finds JavaScript source whose brackets nest too deeply for the engine to
 * parse safely. QuickJS's parser checks its own stack, but the WebAssembly
 * frames of nested `(`, `[`, `{` and `${` run out of V8's thread stack first
 * (from about 580 levels), which kills the engine in a way the guest cannot
 * catch; at 256 levels the margin is more than twofold, and hand-written code
 * rarely passes 30.
 *
 * The scan is linear and knows enough of the grammar to skip what cannot
 * nest: strings, comments, the text of template literals and regular
 * expression literals (told from division by the token before the `/`; when
 * unsure it reads a division, so brackets are counted rather than skipped).
 *
 * @module
 */

/** The deepest bracket nesting guest source may have. */
export const MAX_SOURCE_NESTING = 256;

/** Words after which a `/` starts a regular expression rather than a division. */
const KEYWORDS_BEFORE_EXPRESSION = new Set([
  "await",
  "case",
  "delete",
  "do",
  "else",
  "in",
  "instanceof",
  "new",
  "of",
  "return",
  "throw",
  "typeof",
  "void",
  "yield",
]);

const NEWLINE = 10;
const BACKSLASH = 92;

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ||
    code === 36 || code === 95 || code > 127;
}

/** A scan over one source text. */
interface Scan {
  readonly source: string;
  index: number;
  line: number;
}

/** Moves past a quoted string that starts at `scan.index` (an unterminated one ends at its line). */
function skipString(scan: Scan, quote: number): void {
  const { source } = scan;
  scan.index++;
  while (scan.index < source.length) {
    const code = source.charCodeAt(scan.index);
    if (code === BACKSLASH) {
      if (source.charCodeAt(scan.index + 1) === NEWLINE) scan.line++;
      scan.index += 2;
      continue;
    }
    scan.index++;
    if (code === quote || code === NEWLINE) {
      if (code === NEWLINE) scan.line++;
      return;
    }
  }
}

/** Moves past template text up to its end (true) or to a `${` (false), which it consumes. */
function skipTemplateText(scan: Scan): boolean {
  const { source } = scan;
  while (scan.index < source.length) {
    const code = source.charCodeAt(scan.index);
    if (code === BACKSLASH) {
      if (source.charCodeAt(scan.index + 1) === NEWLINE) scan.line++;
      scan.index += 2;
      continue;
    }
    scan.index++;
    if (code === NEWLINE) scan.line++;
    else if (code === 96) return true; // `
    else if (code === 36 && source.charCodeAt(scan.index) === 123) { // ${
      scan.index++;
      return false;
    }
  }
  return true;
}

/** Moves past a regular expression literal whose `/` is at `scan.index`. */
function skipRegExp(scan: Scan): void {
  const { source } = scan;
  let inClass = false;
  scan.index++;
  while (scan.index < source.length) {
    const code = source.charCodeAt(scan.index);
    if (code === NEWLINE) return; // not a literal after all; let the scan go on
    scan.index++;
    if (code === BACKSLASH) scan.index++;
    else if (code === 91) inClass = true; // [
    else if (code === 93) inClass = false; // ]
    else if (code === 47 && !inClass) break; // /
  }
  while (scan.index < source.length && isWordChar(source.charCodeAt(scan.index))) scan.index++;
}

/** Moves past a comment whose `/` is at `scan.index`, when one starts there; true if it did. */
function skipComment(scan: Scan): boolean {
  const { source } = scan;
  const next = source.charCodeAt(scan.index + 1);
  if (next === 47) { // //
    const end = source.indexOf("\n", scan.index);
    scan.index = end === -1 ? source.length : end;
    return true;
  }
  if (next !== 42) return false; // /*
  const end = source.indexOf("*/", scan.index + 2);
  const stop = end === -1 ? source.length : end + 2;
  for (let i = scan.index; i < stop; i++) {
    if (source.charCodeAt(i) === NEWLINE) scan.line++;
  }
  scan.index = stop;
  return true;
}

/**
 * The line (from 1) where `source` first nests brackets deeper than `max`,
 * or null when it never does.
 */
export function findDeepNesting(source: string, max = MAX_SOURCE_NESTING): number | null {
  if (source.length <= max) return null;
  const scan: Scan = { source, index: 0, line: 1 };
  // One entry per open bracket: true when it is a template literal's `${`.
  const open: boolean[] = [];
  // True when a `/` here would start a regular expression.
  let expectExpression = true;
  while (scan.index < source.length) {
    const code = source.charCodeAt(scan.index);
    if (isWordChar(code)) {
      const start = scan.index;
      while (scan.index < source.length && isWordChar(source.charCodeAt(scan.index))) scan.index++;
      expectExpression = KEYWORDS_BEFORE_EXPRESSION.has(source.slice(start, scan.index));
      continue;
    }
    switch (code) {
      case NEWLINE:
        scan.line++;
        scan.index++;
        continue;
      case 32: // space
      case 9: // tab
      case 13: // carriage return
        scan.index++;
        continue;
      case 34: // "
      case 39: // '
        skipString(scan, code);
        expectExpression = false;
        continue;
      case 96: // `
        scan.index++;
        if (!skipTemplateText(scan)) {
          open.push(true);
          if (open.length > max) return scan.line;
          expectExpression = true;
        } else expectExpression = false;
        continue;
      case 47: // /
        if (skipComment(scan)) continue;
        if (expectExpression) {
          skipRegExp(scan);
          expectExpression = false;
        } else {
          scan.index++;
          expectExpression = true;
        }
        continue;
      case 40: // (
      case 91: // [
      case 123: // {
        open.push(false);
        if (open.length > max) return scan.line;
        scan.index++;
        expectExpression = true;
        continue;
      case 41: // )
      case 93: // ]
      case 125: // }
        scan.index++;
        if (open.pop() === true && !skipTemplateText(scan)) {
          open.push(true); // the template literal goes on with another `${`
          expectExpression = true;
        } else {
          // After a block a `/` may start a regular expression, but reading it as a
          // division errs on the safe side: what follows is counted, never skipped.
          expectExpression = false;
        }
        continue;
      default:
        scan.index++;
        expectExpression = true;
    }
  }
  return null;
}
