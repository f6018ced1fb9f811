import { strictEqual } from "node:assert/strict";
import { maskSecret, SecretSet } from "./secrets.ts";

const KEY = "sk-proj-Xy7Qw2Er9Tz4Lm8Nb3Vc6Hd1Jk5";
const MASK = "sk-…1Jk5";

function setOf(...secrets: string[]): SecretSet {
  const set = new SecretSet();
  for (const secret of secrets) set.remember(secret);
  return set;
}

Deno.test("maskSecret() shows at most the first 3 and last 4 characters", () => {
  strictEqual(maskSecret("sk-proj-0123456789abcdef1234"), "sk-…1234");
  strictEqual(maskSecret("short-secret"), "[redacted]");
});

Deno.test("mask() hides a known key as it is, JSON-escaped, URL-encoded and in another case", () => {
  const quoted = 'pass"word/with?odd&chars-0123456789';
  const set = setOf(KEY, quoted);
  strictEqual(set.mask(`a ${KEY} b`), `a ${MASK} b`);
  strictEqual(set.mask(`upper ${KEY.toUpperCase()}`), `upper ${MASK}`);
  strictEqual(set.mask(JSON.stringify({ k: quoted })), '{"k":"pas…6789"}');
  strictEqual(set.mask(`?p=${encodeURIComponent(quoted)}&x=1`), "?p=pas…6789&x=1");
});

Deno.test("mask() hides a known key cut by line breaks, escape sequences and zero-width characters", () => {
  const set = setOf(KEY);
  const folded = KEY.match(/.{1,10}/g)?.join("\n    ") ?? "";
  strictEqual(set.mask(`key:\n    ${folded}\nend`), `key:\n    ${MASK}\nend`);
  const coloured = `\x1b[31m${KEY.slice(0, 10)}\x1b[0m\x1b[1m${KEY.slice(10)}\x1b[0m done`;
  strictEqual(set.mask(coloured), `\x1b[31m${MASK}\x1b[0m done`);
  const sprinkled = [...KEY].join("\u200b");
  strictEqual(set.mask(`[${sprinkled}]`), `[${MASK}]`);
  const crlf = `${KEY.slice(0, 20)}\r\n${KEY.slice(20)}`;
  strictEqual(set.mask(crlf), MASK);
});

Deno.test("mask() hides a known key in base64 at every alignment, standard and URL-safe, wrapped or not", () => {
  const set = setOf(KEY);
  for (const before of ["", "u", "us", "user:"]) {
    const encoded = btoa(`${before}${KEY}:x`);
    strictEqual(set.mask(encoded).includes("[redacted]"), true, encoded);
    const url = encoded.replaceAll("+", "-").replaceAll("/", "_");
    strictEqual(set.mask(url).includes("[redacted]"), true, url);
  }
  const file = btoa(JSON.stringify({ openai: { api_key: KEY } }, null, 2));
  const wrapped = file.match(/.{1,76}/g)?.join("\n") ?? "";
  strictEqual(set.mask(wrapped).includes("[redacted]"), true, set.mask(wrapped));
});

Deno.test("mask() hides a prefix of a known key that reaches 8 characters past its type prefix", () => {
  const set = setOf(KEY);
  strictEqual(set.mask(`Invalid key ${KEY.slice(0, 16)}*****`), "Invalid key sk-…*****");
  // The type prefix and a few characters more are no secret.
  strictEqual(set.mask(`${KEY.slice(0, 14)}… and sk-proj-`), `${KEY.slice(0, 14)}… and sk-proj-`);
});

Deno.test("mask() leaves short values alone and matches mid-length ones exactly", () => {
  const set = setOf("abc", "  ", "", "hunter22", "Passw0rd-2024");
  strictEqual(set.size, 2);
  strictEqual(set.mask("abc abc a b c"), "abc abc a b c");
  strictEqual(set.mask("pw hunter22!"), "pw [redacted]!");
  // Under 16 characters: only the exact text, not another case, not cut in two.
  strictEqual(set.mask("HUNTER22 hunter\n22"), "HUNTER22 hunter\n22");
  strictEqual(set.mask('{"p":"Passw0rd-2024"}'), '{"p":"[redacted]"}');
});

Deno.test("mask() leaves ordinary text as it was, and masking twice changes nothing", () => {
  const set = setOf(KEY, "0123456789abcdef0123");
  const prose = [
    "The task-runner reads config.yaml; see https://example.com/docs?page=2#keys.",
    "const token = await getToken(); password: hashPassword(input)",
    "git 1be2f67 and 438e42f3c0a1d9e6b5f4c3a2b1d0e9f8a7b6c5d4",
    "\x1b[1mbold\x1b[0m, a\u200bzero width, tabs\tand\r\nlines",
  ].join("\n");
  strictEqual(set.mask(prose), prose);
  const once = set.mask(`${KEY} and ghp_${"A1b2C3d4E5".repeat(4)}`);
  strictEqual(set.mask(once), once);
});

Deno.test("startAtEnd() measures the end of a text that may begin a secret or a key-shaped value", () => {
  const set = setOf("sk-tail-Zc81Qx0Wv27LmPd4");
  strictEqual(set.startAtEnd("output: sk-tail-Zc8"), "sk-tail-Zc8".length);
  strictEqual(set.startAtEnd("output: done\n"), 0);
  strictEqual(set.startAtEnd("token: gh"), 2);
  strictEqual(set.startAtEnd("Authorization: Bearer "), "Bearer ".length);
  strictEqual(set.startAtEnd("\x1b[12;5H"), 0);
});

Deno.test("mask() stays linear on hostile 256 KiB inputs (a quadratic search would take minutes)", () => {
  const set = setOf(KEY, "hunter22hunter");
  const size = 256 * 1024;
  const hostile = [
    "eyJ",
    "sk-",
    "token=",
    "?key=",
    "--a-token abcdefghij ",
    "http://a:",
    "-----BEGIN RSA PRIVATE KEY-----",
    "\x1b[31m",
    "\n",
    "\u200b",
    KEY.slice(0, 14),
  ].map((unit) => unit.repeat(Math.ceil(size / unit.length)));
  const started = performance.now();
  for (const text of hostile) set.mask(text);
  const seconds = (performance.now() - started) / 1000;
  strictEqual(seconds < 10, true, `took ${seconds.toFixed(1)} s`);
});
