/**
 * The interactive mode's colours and attributes. With `NO_COLOR` set (any
 * non-empty value) colours are dropped but bold, dim, italic, underline,
 * strike and inverse stay, so structure remains visible.
 *
 * @module
 */

/** Styling functions for terminal text. */
export interface Theme {
  readonly color: boolean;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly italic: (text: string) => string;
  readonly underline: (text: string) => string;
  readonly strike: (text: string) => string;
  readonly inverse: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly blue: (text: string) => string;
  readonly magenta: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly gray: (text: string) => string;
}

const sgr = (open: number, close: number) => (text: string) =>
  text === "" ? "" : `\x1b[${open}m${text}\x1b[${close}m`;
const identity = (text: string) => text;

/** The theme: colours only when `color` is true. */
export function createTheme(color: boolean): Theme {
  const colour = (open: number) => color ? sgr(open, 39) : identity;
  return {
    color,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    italic: sgr(3, 23),
    underline: sgr(4, 24),
    strike: sgr(9, 29),
    inverse: sgr(7, 27),
    red: colour(31),
    green: colour(32),
    yellow: colour(33),
    blue: colour(34),
    magenta: colour(35),
    cyan: colour(36),
    gray: color ? sgr(90, 39) : sgr(2, 22),
  };
}

/** Whether the environment allows colour (https://no-color.org). */
export function colorAllowed(env: (name: string) => string | undefined): boolean {
  const noColor = env("NO_COLOR");
  return noColor === undefined || noColor === "";
}
