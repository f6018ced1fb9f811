/**
 * The secrets a process or run knows ({@link SecretSet}: API keys,
 * credential headers, tokens) and the one function that hides them in a
 * text, known or key-shaped (docs/security.md, "What is masked").
 *
 * - A known secret shows as `sk-…1234` at most: its first 3 and last 4
 *   characters when it is at least {@link MIN_PARTLY_SHOWN_CHARS} long, else
 *   `[redacted]`. Values shorter than {@link MIN_SECRET_CHARS} are not
 *   remembered (they would hide ordinary words); values shorter than
 *   `MIN_FUZZY_SECRET_CHARS` are matched exactly (as they are and
 *   JSON-escaped), longer ones in every form of `secret_forms.ts`, also when
 *   line breaks, escape sequences or zero-width characters cut them
 *   (`text_view.ts`).
 * - Values rienda does not know but that look like keys are masked by their
 *   shape (`key_shapes.ts`).
 *
 * There is no process-wide set: `main.ts` makes one {@link SecretSet} and
 * the `Io` carries it (`Io.secrets`) to every command, which hands it on to
 * what it builds (the run, model clients, MCP servers, the extension host).
 * Keys are remembered into it where rienda learns them (the environment,
 * credentials.json, config.yaml, a key typed in, a model client's key, an
 * MCP server's token); stdout and stderr are masked with it, and a run masks
 * every tool result with it before the model, the hooks and the session see
 * the result.
 *
 * @module
 */

import { fuzzyForms, HEAD_CHARS, jsonEscaped, MIN_FUZZY_SECRET_CHARS } from "./secret_forms.ts";
import type { SecretForm } from "./secret_forms.ts";
import { findKeyShapes, keyShapeStartAtEnd, type MaskedRange, matchesOf } from "./key_shapes.ts";
import { viewOf } from "./text_view.ts";

/** The shortest value remembered as a secret. */
export const MIN_SECRET_CHARS = 8;

/** The shortest secret whose ends are shown (`sk-…1234`). */
export const MIN_PARTLY_SHOWN_CHARS = 20;

/** How a secret shows once masked: `sk-…1234`, or `[redacted]` when it is short. */
export function maskSecret(secret: string): string {
  return secret.length >= MIN_PARTLY_SHOWN_CHARS
    ? `${secret.slice(0, 3)}…${secret.slice(-4)}`
    : "[redacted]";
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `code` lower-cased when it is an ASCII capital; other characters through `toLowerCase`. */
function lowerChar(code: number): string {
  if (code >= 65 && code <= 90) return String.fromCharCode(code + 32);
  const char = String.fromCharCode(code);
  return code < 128 ? char : char.toLowerCase();
}

/** How many characters of `form` match `text` from `start` on. */
function matchLength(text: string, start: number, form: SecretForm): number {
  const { text: wanted, caseless } = form;
  let length = 0;
  while (length < wanted.length && start + length < text.length) {
    const code = text.charCodeAt(start + length);
    const char = caseless ? lowerChar(code) : String.fromCharCode(code);
    if (char !== wanted[length]) break;
    length++;
  }
  return length;
}

/** `text` with each range replaced by its mask; overlapping ranges become one, with the first one's mask. */
function applyRanges(text: string, ranges: MaskedRange[]): string {
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: string[] = [];
  let at = 0;
  let current: { start: number; end: number; mask: string } | null = null;
  const close = () => {
    if (current === null) return;
    parts.push(text.slice(at, current.start), current.mask);
    at = current.end;
  };
  for (const range of ranges) {
    if (current !== null && range.start < current.end) {
      current.end = Math.max(current.end, range.end);
      continue;
    }
    close();
    current = { ...range };
  }
  close();
  parts.push(text.slice(at));
  return parts.join("");
}

/** What {@link SecretSet} searches with, built again after a secret is remembered. */
interface Search {
  /** Secrets shorter than `MIN_FUZZY_SECRET_CHARS`, as they are and JSON-escaped, longest first. */
  readonly exact: RegExp | null;
  readonly exactMasks: ReadonlyMap<string, string>;
  /** The first `HEAD_CHARS` characters of every form of the longer secrets. */
  readonly heads: RegExp | null;
  readonly formsByHead: ReadonlyMap<string, readonly SecretForm[]>;
  /** The forms whose start, at the end of a write, is held back (as they are, JSON-escaped). */
  readonly heldForms: readonly string[];
}

/** A set of known secrets and the masking of texts with them (see the module doc). */
export class SecretSet {
  readonly #known = new Set<string>();
  #search: Search | null = null;

  /** Remembers a secret; blank and short values are ignored. */
  remember(value: string | null | undefined): void {
    const secret = value?.trim() ?? "";
    if (secret.length < MIN_SECRET_CHARS || this.#known.has(secret)) return;
    this.#known.add(secret);
    this.#search = null;
  }

  /** How many secrets are known. */
  get size(): number {
    return this.#known.size;
  }

  /** `text` with every known secret and every key-shaped value masked. */
  mask(text: string): string {
    if (text.length < MIN_SECRET_CHARS) return text;
    const search = this.#searchOf();
    const ranges: MaskedRange[] = [];
    if (search.exact !== null) {
      for (const match of matchesOf(search.exact, text)) {
        const mask = search.exactMasks.get(match[0]) ?? "[redacted]";
        ranges.push({ start: match.index, end: match.index + match[0].length, mask });
      }
    }
    if (search.heads !== null) this.#findForms(text, search, ranges);
    const shapes = viewOf(text, "invisible");
    for (const range of findKeyShapes(shapes.text)) {
      ranges.push({ ...shapes.original(range), mask: range.mask });
    }
    return applyRanges(text, ranges);
  }

  /**
   * The length of the longest end of `text` that may be the start of a known
   * secret or of a key-shaped value (0 when none): a writer holds that much
   * back until the next write, so a key cut in two by a chunk boundary is
   * still recognised.
   */
  startAtEnd(text: string): number {
    let longest = keyShapeStartAtEnd(text);
    for (const form of this.#searchOf().heldForms) {
      const from = Math.max(0, text.length - form.length + 1);
      const first = form[0] ?? "";
      for (let at = text.indexOf(first, from); at !== -1; at = text.indexOf(first, at + 1)) {
        if (form.startsWith(text.slice(at))) {
          longest = Math.max(longest, text.length - at);
          break;
        }
      }
    }
    return longest;
  }

  /** The ranges of `text` holding a form of a longer secret, whole or (where allowed) in part. */
  #findForms(text: string, search: Search, ranges: MaskedRange[]): void {
    const view = viewOf(text, "lineBreaks");
    const heads = search.heads;
    if (heads === null) return;
    heads.lastIndex = 0;
    for (let match = heads.exec(view.text); match !== null; match = heads.exec(view.text)) {
      const start = match.index;
      let best: { length: number; mask: string } | null = null;
      for (const form of search.formsByHead.get(match[0].toLowerCase()) ?? []) {
        const length = matchLength(view.text, start, form);
        if (length < form.floor || length <= (best?.length ?? 0)) continue;
        best = { length, mask: length === form.text.length ? form.mask : form.partialMask };
      }
      if (best === null) {
        heads.lastIndex = start + 1;
        continue;
      }
      ranges.push({ ...view.original({ start, end: start + best.length }), mask: best.mask });
      heads.lastIndex = start + best.length;
    }
  }

  #searchOf(): Search {
    if (this.#search !== null) return this.#search;
    const exactMasks = new Map<string, string>();
    const formsByHead = new Map<string, SecretForm[]>();
    const held = new Set<string>();
    for (const secret of this.#known) {
      const mask = maskSecret(secret);
      held.add(secret).add(jsonEscaped(secret));
      if (secret.length < MIN_FUZZY_SECRET_CHARS) {
        exactMasks.set(secret, mask).set(jsonEscaped(secret), mask);
        continue;
      }
      for (const form of fuzzyForms(secret, mask)) {
        const head = form.text.slice(0, HEAD_CHARS).toLowerCase();
        formsByHead.set(head, [...formsByHead.get(head) ?? [], form]);
      }
    }
    const alternation = (texts: Iterable<string>) =>
      [...texts].sort((a, b) => b.length - a.length).map(escapeRegExp).join("|");
    this.#search = {
      exact: exactMasks.size === 0 ? null : new RegExp(alternation(exactMasks.keys()), "g"),
      exactMasks,
      heads: formsByHead.size === 0 ? null : new RegExp(alternation(formsByHead.keys()), "gi"),
      formsByHead,
      heldForms: [...held],
    };
    return this.#search;
  }
}
