import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { findKeyShapes, looksRandom } from "./key_shapes.ts";

/** `text` with its key-shaped ranges replaced by their masks. */
function masked(text: string): string {
  let result = text;
  for (const range of findKeyShapes(text).reverse()) {
    result = result.slice(0, range.start) + range.mask + result.slice(range.end);
  }
  return result;
}

const RANDOM = "Zq81xWc0Rk27LmPd4Hv9BnT3";

Deno.test("prefixed tokens are masked down to their type prefix", () => {
  const cases: readonly [string, string][] = [
    [`sk-proj-${RANDOM}${RANDOM}`, "sk-…"],
    [`sk-ant-api03-${RANDOM}-${RANDOM}AA`, "sk-…"],
    [`sk-${"0a1b2c3d4e5f6a7b".repeat(2)}`, "sk-…"],
    [`ghp_${RANDOM}abcdefghijkl`, "ghp_…"],
    [`github_pat_11ABCDEFG0${RANDOM}_${RANDOM}`, "git…"],
    [`xoxb-123456789012-1234567890123-${RANDOM}`, "xox…"],
    ["AKIAIOSFODNN7EXAMPLE", "AKIA…"],
    [`AIzaSyD-${RANDOM}abcdefghijk`, "AIza…"],
    [`glpat-${RANDOM.slice(0, 20)}`, "glp…"],
    [`hf_${RANDOM}abcdefghij`, "hf_…"],
  ];
  for (const [token, mask] of cases) {
    strictEqual(masked(`key=${token}.`), `key=${mask}.`, token);
    strictEqual(masked(`"${token}"`), `"${mask}"`, token);
  }
});

Deno.test("credentials, web tokens, private keys and userinfo passwords are masked", () => {
  const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${RANDOM}`;
  strictEqual(masked(`jwt: ${jwt} end`), "jwt: eyJ… end");
  strictEqual(masked(`Authorization: Bearer ${RANDOM}`), "Authorization: Bearer [redacted]");
  strictEqual(
    masked(`Authorization: Basic ${btoa(`me:${RANDOM}`)}`),
    "Authorization: Basic [redacted]",
  );
  const pem =
    `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\nAAAA\n-----END OPENSSH PRIVATE KEY-----`;
  strictEqual(
    masked(pem),
    "-----BEGIN OPENSSH PRIVATE KEY-----[redacted]-----END OPENSSH PRIVATE KEY-----",
  );
  strictEqual(
    masked("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n[output truncated]").includes("MIIE"),
    false,
  );
  strictEqual(masked("postgres://app:hunter22@db:5432/x"), "postgres://app:[redacted]@db:5432/x");
  strictEqual(
    masked("https://oauth2:s3cr3t@gitlab.com/a.git"),
    "https://oauth2:[redacted]@gitlab.com/a.git",
  );
});

Deno.test("values of secret-named variables, fields, flags and query parameters are masked", () => {
  strictEqual(masked("export GITHUB_TOKEN=abc123def456"), "export GITHUB_TOKEN=[redacted]");
  strictEqual(masked("DB_PASSWORD='hunter22'"), "DB_PASSWORD='[redacted]'");
  strictEqual(masked('{"api_key": "local-dev-key-1"}'), '{"api_key": "[redacted]"}');
  strictEqual(masked("client_secret: 'abcdefghij'"), "client_secret: '[redacted]'");
  strictEqual(masked('const token = "abcdefgh12";'), 'const token = "[redacted]";');
  strictEqual(masked("node s.js --api-key abcdefgh12 --x"), "node s.js --api-key [redacted] --x");
  strictEqual(masked("mysql --password=hunter22"), "mysql --password=[redacted]");
  strictEqual(
    masked("GET /v1?access_token=abcdefgh12&page=2"),
    "GET /v1?access_token=[redacted]&page=2",
  );
  strictEqual(
    masked("https://x.blob/f?sv=1&sig=AbCdEf123%3D"),
    "https://x.blob/f?sv=1&sig=[redacted]",
  );
});

Deno.test("words, identifiers, placeholders and paths are left alone", () => {
  const texts = [
    "the task-runner-configuration-file and sk-learn-compatible-api",
    "sk-2024-release-notes-final and disk-0123456789abcdefghij",
    "Bearer tokens are sent as Authorization headers; Token authentication",
    "const token = await getToken(); password: hashPassword(input)",
    "const token = accessToken; let password = userPassword;",
    "headers: {token=e.headers.get(n),apiKey=process.env.API_KEY}; x.token=self.session.token",
    `token=${"t".repeat(600)}`,
    'api_key: "$OPENAI_API_KEY", token: "<your token>", secret: "********"',
    "GITHUB_TOKEN=${GITHUB_TOKEN} --token-file /run/secrets/t --password-stdin",
    "SSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.42 api_key_env: OPENAI_API_KEY",
    "ssh://git@github.com/o/r.git https://user@host/p https://${USER}:${PASS}@h/",
    "438e42f3c0a1d9e6b5f4c3a2b1d0e9f8a7b6c5d4 550e8400-e29b-41d4-a716-446655440000",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
    "sk-…1234 and [redacted] stay as they are",
  ];
  for (const text of texts) deepStrictEqual(findKeyShapes(text), [], text);
});

Deno.test("looksRandom() wants distinct characters, a long run and a digit or both cases", () => {
  strictEqual(looksRandom(RANDOM), true);
  strictEqual(looksRandom("0a1b2c3d4e5f6a7b8c9d"), true);
  strictEqual(looksRandom("learn-compatible-api"), false);
  strictEqual(looksRandom("aaaaaaaaaaaaaaaaaaaa1111"), false);
  strictEqual(looksRandom("2024-release-notes-final"), false);
});
