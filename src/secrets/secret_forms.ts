/**
 * The forms a known secret may take in a text, each with the shortest match
 * that is masked (docs/security.md, "What is masked"):
 *
 * - as it is, JSON-escaped and URL-encoded, in any case; a prefix of at least
 *   {@link MIN_PARTIAL_CHARS} characters, {@link MIN_PARTIAL_PAST_PREFIX} of
 *   them past its type prefix (`sk-proj-`), is masked too (a provider that
 *   echoes the first part of a key);
 * - base64-encoded (standard and URL alphabet) at any of the three byte
 *   alignments it can have inside a longer encoded text (`Basic` credentials,
 *   `base64 credentials.json`), whole, in its own case.
 *
 * Only secrets of at least {@link MIN_FUZZY_SECRET_CHARS} characters get these
 * forms; shorter ones are matched as they are (and JSON-escaped) only, so a
 * short value cannot mask ordinary words.
 *
 * @module
 */

/** The shortest secret whose other forms (case, base64, prefixes, line breaks) are caught. */
export const MIN_FUZZY_SECRET_CHARS = 16;

/** The shortest prefix of a secret that is masked. */
export const MIN_PARTIAL_CHARS = 12;

/** How many characters past its type prefix a masked prefix must reach. */
export const MIN_PARTIAL_PAST_PREFIX = 8;

/** How many characters every form shares with its search (the forms are found by these). */
export const HEAD_CHARS = MIN_PARTIAL_CHARS;

/** One form of a secret. */
export interface SecretForm {
  /** The form, lower-cased when {@link caseless}. */
  readonly text: string;
  /** Whether a match may differ in case. */
  readonly caseless: boolean;
  /** The shortest match that is masked (the whole form when only whole matches count). */
  readonly floor: number;
  /** What a whole match becomes. */
  readonly mask: string;
  /** What a shorter match becomes. */
  readonly partialMask: string;
}

/** A type prefix such as `sk-`, `sk-proj-`, `sk-ant-api03-`, `ghp_`, `github_pat_`. */
const TYPE_PREFIX_REGEXP = /^(?:[A-Za-z][A-Za-z0-9]{0,9}[-_]){1,3}/;

/** The length of `secret`'s type prefix, leaving at least the characters a prefix match needs. */
function typePrefixLength(secret: string): number {
  const length = TYPE_PREFIX_REGEXP.exec(secret)?.[0].length ?? 0;
  return Math.min(length, Math.max(0, secret.length - MIN_PARTIAL_PAST_PREFIX));
}

/** The JSON-escaped form of `text` (without the quotes). */
export function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Base64 of bytes, without a spread (a long key must not overflow the stack). */
function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The first and last byte (of the encoded bytes) that base64 character `index` depends on. */
function bytesOf(index: number): readonly [number, number] {
  const group = 3 * (index >> 2);
  switch (index & 3) {
    case 0:
      return [group, group];
    case 1:
      return [group, group + 1];
    case 2:
      return [group + 1, group + 2];
    default:
      return [group + 2, group + 2];
  }
}

/**
 * The base64 text `secret` shows as inside any longer encoded text: for each
 * alignment, the characters that depend on the secret's bytes alone.
 */
export function base64Forms(secret: string): string[] {
  const key = new TextEncoder().encode(secret);
  const forms = new Set<string>();
  for (let align = 0; align < 3; align++) {
    const bytes = new Uint8Array(align + key.length);
    bytes.set(key, align);
    const encoded = base64Of(bytes);
    let first = -1;
    let last = -1;
    for (let index = 0; index < encoded.length; index++) {
      const [low, high] = bytesOf(index);
      if (low < align || high >= bytes.length) continue;
      if (first === -1) first = index;
      last = index;
    }
    const form = encoded.slice(first, last + 1);
    forms.add(form);
    forms.add(form.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return [...forms];
}

/** Every form of a secret of at least {@link MIN_FUZZY_SECRET_CHARS} characters. */
export function fuzzyForms(secret: string, mask: string): SecretForm[] {
  const partialMask = `${secret.slice(0, 3)}…`;
  const floor = Math.max(MIN_PARTIAL_CHARS, typePrefixLength(secret) + MIN_PARTIAL_PAST_PREFIX);
  const caseless = new Set([secret, jsonEscaped(secret), encodeURIComponent(secret)]);
  return [
    ...[...caseless].map((text) => ({
      text: text.toLowerCase(),
      caseless: true,
      floor: text === secret ? Math.min(floor, text.length) : text.length,
      mask,
      partialMask,
    })),
    ...base64Forms(secret).map((text) => ({
      text,
      caseless: false,
      floor: text.length,
      mask: "[redacted]",
      partialMask,
    })),
  ];
}
