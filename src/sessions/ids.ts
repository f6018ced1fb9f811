/**
 * Identifiers of sessions (time-sortable ULIDs) and of entries (short random
 * hex, unique within one file).
 *
 * @module
 */

/** Crockford base32, lowercase: no i, l, o, u. */
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

// A session id is 26 characters: 10 of time (48 bits), 16 of randomness (80 bits).
const TIME_CHARS = 10;
const RANDOM_BYTES = 10;
const MAX_TIME_MS = 2 ** 48 - 1;

// Within one millisecond, later ids increment the previous random part so
// that ids made by one process stay strictly ordered.
let lastTimeMs = -1;
let lastRandom: Uint8Array = new Uint8Array(RANDOM_BYTES);

/**
 * A new session id: a lowercase ULID whose string order follows creation time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const early = newSessionId(new Date(1_000));
 * const later = newSessionId(new Date(2_000));
 * assert.equal(early.length, 26);
 * assert.ok(early < later);
 * ```
 */
export function newSessionId(now: Date = new Date()): string {
  const timeMs = now.getTime();
  if (!Number.isInteger(timeMs) || timeMs < 0 || timeMs > MAX_TIME_MS) {
    throw new RangeError(
      `cannot make a session id: time must be within 0..2^48 ms (found ${timeMs})`,
    );
  }
  let random: Uint8Array;
  if (timeMs === lastTimeMs && incremented(lastRandom)) {
    random = lastRandom;
  } else {
    random = crypto.getRandomValues(new Uint8Array(RANDOM_BYTES));
  }
  lastTimeMs = timeMs;
  lastRandom = random;
  return encodeTime(timeMs) + encodeRandom(random);
}

/** A new 8-character lowercase hex entry id not present in `taken` (which it joins). */
export function newEntryId(taken: Set<string>): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(4));
    let id = "";
    for (const byte of bytes) id += byte.toString(16).padStart(2, "0");
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

function encodeTime(timeMs: number): string {
  let text = "";
  let rest = timeMs;
  for (let i = 0; i < TIME_CHARS; i++) {
    text = CROCKFORD.charAt(rest % 32) + text;
    rest = Math.floor(rest / 32);
  }
  return text;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits → 16 characters of 5 bits, most significant first.
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = "";
  for (let i = 0; i < 16; i++) {
    text = CROCKFORD.charAt(Number(value & 31n)) + text;
    value >>= 5n;
  }
  return text;
}

/** Adds one to a big-endian byte array in place; false when it overflowed. */
function incremented(bytes: Uint8Array): boolean {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const byte = bytes[i] ?? 0;
    if (byte < 255) {
      bytes[i] = byte + 1;
      return true;
    }
    bytes[i] = 0;
  }
  return false;
}
