import assert from "node:assert/strict";
import { lastLine, retryLines } from "./harness/assertions.ts";
import type { Protocol } from "./harness/codec.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";
import type { RiendaResult } from "./harness/rienda.ts";

const KEY = "sk-test-0123456789abcdefghijKLMN";
/** What may show of the key: its first 3 and last 4 characters. */
const MASK = "sk-…KLMN";

/** Fails when any part of the key beyond its mask shows in `text`. */
function assertNoKey(text: string, secret: string = KEY): void {
  const middle = secret.slice(3, -4);
  assert.ok(!text.includes(middle), `the key was printed:\n${text}`);
}

function assertNoKeyIn(result: RiendaResult, secret: string = KEY): void {
  assertNoKey(result.stdout, secret);
  assertNoKey(result.stderr, secret);
}

function config(url: string, protocol: Protocol): string {
  return defaultConfig(url, protocol).replace("api_key: test-key", `api_key: ${KEY}`);
}

async function runWith(
  turns: Turn[],
  args: readonly string[] = [],
  protocol: Protocol = "openai_chat_completions",
) {
  await using provider = await startFakeProvider(turns);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(config(provider.url, protocol));
  return await env.run(["run", "-a", "coder", ...args, "go"]);
}

const ECHOED_401: Turn = { status: 401, errorMessage: `Incorrect API key provided: ${KEY}` };

Deno.test("a 401 body that echoes the key is printed with the key masked, in every output format", async () => {
  const text = await runWith([ECHOED_401]);
  assert.equal(text.code, 1, text.stderr);
  assertNoKeyIn(text);
  assert.equal(
    lastLine(text.stderr),
    `rienda: Incorrect API key provided: ${MASK} (status 401): provider "fake" refused the key ` +
      "from config (providers.fake.api_key): check it, or replace it with rienda auth login fake",
  );
  for (const output of ["json", "stream-json"]) {
    const result = await runWith([ECHOED_401], ["--output", output]);
    assert.equal(result.code, 1, result.stderr);
    assertNoKeyIn(result);
    assert.ok(result.stdout.includes(MASK), result.stdout);
  }
});

Deno.test("a 5xx body that echoes the key shows it masked in the retry line", async () => {
  const result = await runWith([
    { status: 500, errorMessage: `upstream got key ${KEY}` },
    { text: "fine" },
  ], ["--output", "stream-json"]);
  assert.equal(result.code, 0, result.stderr);
  assertNoKeyIn(result);
  const text = await runWith([{ status: 503, errorMessage: `upstream got ${KEY}` }, {
    text: "fine",
  }]);
  assertNoKeyIn(text);
  assert.deepEqual(retryLines(text.stderr).map((retry) => retry.error), [
    `upstream got ${MASK} (status 503)`,
  ]);
});

Deno.test("an HTML 400 page that echoes the key is not quoted", async () => {
  const result = await runWith([{
    status: 400,
    errorBody: `<html><body>Bad key ${KEY}</body></html>`,
    headers: { "content-type": "text/html" },
  }]);
  assert.equal(result.code, 1, result.stderr);
  assertNoKeyIn(result);
});

Deno.test("an in-stream error event that echoes the key is masked", async () => {
  const event = {
    type: "error",
    error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` },
  };
  for (const output of ["text", "json"]) {
    const result = await runWith(
      [{ rawStream: { chunks: [`event: error\ndata: ${JSON.stringify(event)}\n\n`] } }],
      ["--output", output],
      "anthropic",
    );
    assert.equal(result.code, 1, result.stderr);
    assertNoKeyIn(result);
  }
});

Deno.test("a stored key and a built-in key variable are masked when echoed", async () => {
  const stored = "sk-stored-9876543210zyxwvutsrqPONM";
  const variable = "sk-openai-env-5555555555555555555QRST";
  await using provider = await startFakeProvider([
    {
      toolCalls: [{ name: "shell", arguments: { command: 'echo "env: $OPENAI_API_KEY"' } }],
    },
    { status: 401, errorMessage: `bad key ${stored}` },
  ]);
  await using env = await createTestEnv({ provider, noConfig: true });
  await env.writeConfig(
    `providers:\n  fake:\n    protocol: openai_chat_completions\n    base_url: ${provider.url}\n    api_key_env: FAKE_KEY\n`,
  );
  await env.writeFile(
    "rienda-home/credentials.json",
    JSON.stringify({ fake: { api_key: stored } }),
    0o600,
  );
  const result = await env.run(["run", "-a", "coder", "-m", "fake/m", "go"], {
    env: { OPENAI_API_KEY: variable },
  });
  assert.equal(result.code, 1, result.stderr);
  assertNoKeyIn(result, stored);
  assertNoKeyIn(result, variable);
  assert.ok(result.stderr.includes("env: sk-…QRST"), result.stderr);
  assert.equal(
    lastLine(result.stderr),
    'rienda: bad key sk-…PONM (status 401): provider "fake" refused the key from credentials.json: ' +
      "check it, or replace it with rienda auth login fake",
  );
});

const MISTAKES: readonly { readonly name: string; readonly line: string }[] = [
  { name: "a key typed into api_key_env", line: `    api_key_env: ${KEY}` },
  { name: "a number as api_key", line: "    api_key: 1234567890123456" },
  { name: "a number as a header value", line: "    headers: {authorization: 987654321098765}" },
];

for (const { name, line } of MISTAKES) {
  Deno.test(`${name} is never echoed by run, doctor or auth list`, async () => {
    await using env = await createTestEnv({ noConfig: true });
    await env.writeConfig(
      [
        "providers:",
        "  fake:",
        "    protocol: openai_chat_completions",
        "    base_url: http://127.0.0.1:1/v1",
        line,
        "",
      ].join("\n"),
    );
    const value = line.slice(line.indexOf(":") + 2).replace(/^\[|\]$/g, "").replace(/^\{.*: /, "")
      .replace(/\}$/, "");
    for (
      const args of [["run", "-a", "coder", "-m", "fake/m", "go"], ["doctor", "--offline"], [
        "auth",
        "list",
      ]]
    ) {
      const result = await env.run(args);
      assert.notEqual(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
      const output = result.stdout + result.stderr;
      assert.ok(output.includes("config.yaml: providers.fake."), `${args.join(" ")}: ${output}`);
      assert.ok(!output.includes(value.slice(3, -4)), `${args.join(" ")} printed it:\n${output}`);
    }
  });
}
