/**
 * Values shaped like keys that rienda does not know, found by pattern
 * (docs/security.md, "What is masked", lists them): provider and platform
 * tokens by their prefix (`sk-…`, `ghp_…`, `xoxb-…`, `AKIA…`, …), JSON web
 * tokens, PEM private keys, the password of URL userinfo, the value of a
 * `Bearer`/`Basic`/`Token` credential, of a secret-named variable
 * (`GITHUB_TOKEN=…`), of a secret-named quoted field (`"api_key": "…"`), of a
 * secret-named command-line flag (`--api-key …`) and of a secret-named URL
 * query parameter (`?access_token=…`).
 *
 * A prefixed token or credential value must also look random: at least
 * {@link MIN_RANDOM_DISTINCT} distinct characters, a run of
 * {@link MIN_RANDOM_RUN} letters and digits, and a digit or both cases
 * (`sk-learn-compatible-api` and `Bearer tokens` are words, not keys).
 * Values named secret need only be {@link MIN_NAMED_VALUE_CHARS} long and not
 * a placeholder (`$TOKEN`, `<token>`, `****`), a path or a mask.
 *
 * @module
 */

import type { TextRange } from "./text_view.ts";

/** A range of a text to mask, and what it becomes. */
export interface MaskedRange extends TextRange {
  readonly mask: string;
}

/** Distinct characters a random-looking value has at least. */
export const MIN_RANDOM_DISTINCT = 8;

/** The longest run of letters and digits a random-looking value has at least. */
export const MIN_RANDOM_RUN = 12;

/** The shortest value of a secret-named variable, field, flag or parameter that is masked. */
export const MIN_NAMED_VALUE_CHARS = 8;

/**
 * The type prefixes of well-known tokens: OpenAI, Anthropic (`sk-ant-`),
 * OpenRouter (`sk-or-`), DeepSeek and others (`sk-`), Stripe (`sk_live_`,
 * `rk_test_`, …), GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`,
 * `github_pat_`), GitLab (`glpat-`), Slack (`xoxb-`, …), AWS access key ids
 * (`AKIA`, `ASIA`), Google API keys (`AIza`), Hugging Face (`hf_`), Groq
 * (`gsk_`), xAI (`xai-`), npm (`npm_`), Perplexity (`pplx-`).
 */
const TOKEN_PREFIX =
  "sk[-_]|rk_|gh[pousr]_|github_pat_|glpat-|xox[aboprs]-|A(?:KIA|SIA|Iza)|hf_|gsk_|xai-|npm_|pplx-";

/** Secret words that end a name: `api_key`, `GITHUB_TOKEN`, `--password`, `client-secret`. */
const SECRET_WORD = "(?:api[_-]?key|apikey|access[_-]?key|private[_-]?key|secret[_-]?key|" +
  "token|secret|password|passwd|pwd|credentials?)";

/** The longest prefixed token masked (a longer run of letters is no key). */
const MAX_TOKEN_CHARS = 1024;

/** The longest value of a secret-named variable, field, flag or parameter that is masked. */
export const MAX_NAMED_VALUE_CHARS = 512;

/**
 * A run of at least {@link MIN_NAMED_VALUE_CHARS} and at most
 * {@link MAX_NAMED_VALUE_CHARS} characters of `chars` (a character class body)
 * that ends there: a longer run is no value (a minified line), and the bound
 * keeps the search linear.
 */
function valueOf(chars: string): string {
  return `[${chars}]{${MIN_NAMED_VALUE_CHARS},${MAX_NAMED_VALUE_CHARS}}(?![${chars}])`;
}

/**
 * An unquoted value: not a quote, space, shell operator, bracket or `=` (so
 * `token=token=…` is not one long value; base64 padding is left out).
 */
const VALUE = valueOf("^\\s\"'`;&|,(){}<>\\[\\]=");

/** A quoted value (the quotes around it are matched outside). */
const QUOTED_VALUE = valueOf("^\"'\\s");

/**
 * The shapes found in their own case, each in its own group so a match says
 * which it is: a prefixed token (1: its prefix, 2: the rest), a JSON web token
 * (3), a PEM private key's body (4), the password of URL userinfo (5). Every
 * branch starts with a literal, which keeps a pass over 256 KiB at about a
 * millisecond; the shapes in any case are a second pass ({@link CASELESS}):
 * one regular expression for both is more than twice as slow.
 */
const CASED = new RegExp(
  [
    `(${TOKEN_PREFIX})([A-Za-z0-9_\\-]{16,})`,
    // Only where a word starts, so `eyJeyJ…` is not searched again from each `eyJ` in it.
    "\\b(eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,})",
    "-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----([^-]+)(?=-----END|$)",
    `://[^\\s/?#@:"'<>\\\\]*:([^\\s/?#@"'<>\\\\]+)@`,
  ].join("|"),
  "g",
);

/**
 * The shapes found in any case: a credential after its scheme (1), the value
 * of a secret-named variable or flag right after `=` (`GITHUB_TOKEN=…`,
 * `--password=…`: 2), a quoted value after `=` or `:` (`"api_key": "…"`,
 * `token = "…"`: 3), the value of a flag before a space (`--api-key …`: 4),
 * and of a secret-named query parameter (`?access_token=…`, `&sig=…`: 5).
 * Named values are found by the secret word that ends the name; an unquoted
 * value after `=` with spaces around it is code (`token = accessToken`), not
 * a setting.
 */
const CASELESS = new RegExp(
  [
    "(?:Bearer|Basic|Token)[ \\t]+([A-Za-z0-9._~+/=-]{16,})",
    `${SECRET_WORD}(?:=["']?(${VALUE})|["']?[ \\t]*[=:][ \\t]*["'](${QUOTED_VALUE})["']|(?<=(?:^|[ \\t])--?[A-Za-z0-9-]*${SECRET_WORD})[ \\t]+["']?(?!-)(${VALUE}))`,
    `[?&](?:[A-Za-z0-9_.-]*[_.-])?(?:${SECRET_WORD}|sig|signature|key|auth)=(${
      valueOf("^&\\s#\"'<>?=")
    })`,
  ].join("|"),
  "gi",
);

/** Whether `value` looks random (see the module doc). */
export function looksRandom(value: string): boolean {
  let run = 0;
  let longest = 0;
  let digit = false;
  let lower = false;
  let upper = false;
  const distinct = new Set<string>();
  for (const char of value) {
    distinct.add(char);
    const isDigit = char >= "0" && char <= "9";
    const isLower = char >= "a" && char <= "z";
    const isUpper = char >= "A" && char <= "Z";
    digit ||= isDigit;
    lower ||= isLower;
    upper ||= isUpper;
    run = isDigit || isLower || isUpper ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return distinct.size >= MIN_RANDOM_DISTINCT && longest >= MIN_RANDOM_RUN &&
    (digit || (lower && upper));
}

/** A placeholder, path, reference (`process.env.TOKEN`, `getToken(`) or mask rather than a value. */
const NOT_A_VALUE_REGEXP =
  /^(?:[$%<{(\[/~.*]|\w+\()|…|\[redacted\]|^(?:x+|\*+|null|undefined)$|^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/i;

/** Whether a named secret's `value` is one (see the module doc). */
function isNamedValue(value: string): boolean {
  return !NOT_A_VALUE_REGEXP.test(value);
}

/** What a token shows as once masked: its type prefix, or its first 3 characters. */
function tokenMask(prefix: string): string {
  return `${prefix.length <= 4 ? prefix : prefix.slice(0, 3)}…`;
}

/** The range of the value `match` captured in `group`: it ends the match, or one character before (a quote, the `@`). */
function valueRange(match: RegExpExecArray, group: number): TextRange | null {
  const value = match[group];
  if (value === undefined) return null;
  const whole = match[0];
  const end = match.index + whole.length - (whole.endsWith(value) ? 0 : 1);
  return { start: end - value.length, end };
}

/**
 * The matches of global `pattern` in `text`, by `exec` on the one compiled
 * expression (`matchAll` clones it on every call).
 */
export function* matchesOf(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] === "") pattern.lastIndex++;
    yield match;
  }
}

/** The first group of `match` from `from` on that took part in it. */
function groupOf(match: RegExpExecArray, from: number): number {
  for (let group = from; group < match.length; group++) {
    if (match[group] !== undefined) return group;
  }
  return -1;
}

/** The ranges of `text` holding key-shaped values (the key itself, not the name before it). */
export function findKeyShapes(text: string): MaskedRange[] {
  const ranges: MaskedRange[] = [];
  for (const match of matchesOf(CASED, text)) {
    const [whole, prefix, rest, jwt] = match;
    if (prefix !== undefined && rest !== undefined) {
      // A token starts a word (`task-…` holds no `sk-` key) and looks random.
      const word = WORD_CHAR_REGEXP.test(text[match.index - 1] ?? "");
      if (word || rest.length > MAX_TOKEN_CHARS || !looksRandom(rest)) continue;
      ranges.push({ start: match.index, end: match.index + whole.length, mask: tokenMask(prefix) });
    } else if (jwt !== undefined) {
      ranges.push({ start: match.index, end: match.index + whole.length, mask: "eyJ…" });
    } else {
      const group = groupOf(match, 4);
      const range = valueRange(match, group);
      // A URL's password may be a placeholder: `https://${USER}:${PASS}@host`.
      if (range === null || (group === 5 && /^[$<{]/.test(match[5] ?? ""))) continue;
      ranges.push({ ...range, mask: "[redacted]" });
    }
  }
  for (const match of matchesOf(CASELESS, text)) {
    const group = groupOf(match, 1);
    const value = match[group] ?? "";
    const range = valueRange(match, group);
    if (range === null || !(group === 1 ? looksRandom(value) : isNamedValue(value))) continue;
    ranges.push({ ...range, mask: "[redacted]" });
  }
  return ranges;
}

/** The most a writer holds back for a key-shaped value it has not seen the end of. */
const MAX_HELD_CHARS = 512;

/** How key-shaped values begin (lower-cased): a token's prefix, a credential's scheme. */
const LEADS = [
  ..."sk- sk_ rk_ ghp_ gho_ ghu_ ghs_ ghr_ github_pat_ glpat- xoxa- xoxb- xoxo- xoxp- xoxr-".split(
    " ",
  ),
  ..."xoxs- akia asia aiza hf_ gsk_ xai- npm_ pplx- eyj -----begin bearer basic token".split(" "),
];

const WORD_CHAR_REGEXP = /[A-Za-z0-9_]/;
/** The characters after the last space, quote or control character (an escape sequence ends a run). */
// deno-lint-ignore no-control-regex
const RUN_AT_END_REGEXP = /[^\s\x00-\x1f\x7f"'<>`]*$/;
const SECRET_WORD_REGEXP = new RegExp(SECRET_WORD, "i");
/** A word that a credential follows after a space: `Bearer`, `--api-key`. */
const VALUE_FOLLOWS_REGEXP = new RegExp(
  `(?:^|\\s)((?:bearer|basic|token|--?[A-Za-z0-9-]*${SECRET_WORD})[ \\t]+)$`,
  "i",
);

/**
 * How much of the end of `text` may be the start of a key-shaped value (0
 * when none): a writer holds that back until the next write, so a key cut in
 * two by a chunk boundary is still masked. A run of at most
 * {@link MAX_HELD_CHARS} characters without spaces qualifies when a token
 * prefix or credential scheme starts a word in it (or it is the start of
 * one), when it holds `://` or a secret word; so do `Bearer ` and
 * `--api-key ` waiting for their value.
 */
export function keyShapeStartAtEnd(text: string): number {
  const tail = text.slice(-MAX_HELD_CHARS);
  const run = RUN_AT_END_REGEXP.exec(tail)?.[0] ?? "";
  if (run === "") return VALUE_FOLLOWS_REGEXP.exec(tail)?.[1]?.length ?? 0;
  if (run.length === MAX_HELD_CHARS) return 0;
  const lower = run.toLowerCase();
  for (let at = 0; at < run.length; at++) {
    if (at > 0 && WORD_CHAR_REGEXP.test(run[at - 1] ?? "")) continue;
    const rest = lower.slice(at);
    if (LEADS.some((lead) => rest.startsWith(lead) || lead.startsWith(rest))) {
      return run.length - at;
    }
  }
  const held = run.includes("://") || /^[a-z][a-z0-9+.-]*:\/{0,2}$/i.test(run) ||
    SECRET_WORD_REGEXP.test(run);
  return held ? run.length : 0;
}
