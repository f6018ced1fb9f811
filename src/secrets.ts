/**
 * The secrets this process knows (API keys, credential headers) and the one
 * function that hides them: {@link redactSecrets}. Keys are remembered where
 * they are read (config.yaml, credentials.json, the key variables, a model
 * client's key), and `main.ts` applies the redaction to everything written to
 * stdout and stderr, so no message, notice, event or error can print one
 * (docs/providers.md, "Keys are never printed").
 *
 * A key shows as `sk-…1234` at most: its first 3 and last 4 characters when it
 * is at least {@link MIN_PARTLY_SHOWN_CHARS} long, else `[redacted]`. Values
 * shorter than {@link MIN_SECRET_CHARS} are not remembered (they would hide
 * ordinary words).
 *
 * @module
 */

/** The shortest value remembered as a secret. */
export const MIN_SECRET_CHARS = 8;

/** The shortest secret whose ends are shown (`sk-…1234`). */
export const MIN_PARTLY_SHOWN_CHARS = 20;

/** Every form of every secret (as is and JSON-escaped), longest first, with its mask. */
let forms: { readonly text: string; readonly mask: string }[] = [];
const known = new Set<string>();

/** How a secret shows once redacted: `sk-…1234`, or `[redacted]` when it is short. */
export function maskSecret(secret: string): string {
  return secret.length >= MIN_PARTLY_SHOWN_CHARS
    ? `${secret.slice(0, 3)}…${secret.slice(-4)}`
    : "[redacted]";
}

/** Remembers a secret, so that {@link redactSecrets} hides it from now on; blank and short values are ignored. */
export function rememberSecret(value: string | null | undefined): void {
  const secret = value?.trim() ?? "";
  if (secret.length < MIN_SECRET_CHARS || known.has(secret)) return;
  known.add(secret);
  const mask = maskSecret(secret);
  const escaped = JSON.stringify(secret).slice(1, -1);
  forms.push({ text: secret, mask });
  if (escaped !== secret) forms.push({ text: escaped, mask });
  forms = forms.sort((a, b) => b.text.length - a.text.length);
}

/** `text` with every remembered secret replaced by its mask. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const form of forms) {
    if (result.includes(form.text)) result = result.replaceAll(form.text, form.mask);
  }
  return result;
}

/**
 * The length of the longest end of `text` that is the start of a remembered
 * secret (0 when none): a writer holds that much back until the next write,
 * so a key cut in two by a chunk boundary is still recognised.
 */
export function secretStartAtEnd(text: string): number {
  let longest = 0;
  for (const { text: secret } of forms) {
    for (let length = Math.min(secret.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(secret.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

const CREDENTIAL_HEADER_REGEXP =
  /^(authorization|proxy-authorization|cookie)$|key|token|secret|auth|session|password/i;

/** Whether a header of this name carries a credential (`Authorization`, `x-api-key`, `Cookie`, …). */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER_REGEXP.test(name);
}
