import assert from "node:assert/strict";
import { linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";

const KEY = "sk-ant-stored-0123456789abcdef";

/** A config pointing the anthropic built-in at the fake provider. */
function anthropicOverride(url: string): string {
  return `providers:\n  anthropic:\n    base_url: ${url}\n`;
}

Deno.test("auth login reads the key from stdin, stores it 0600, never prints it, and a run uses it", async () => {
  await using provider = await startFakeProvider([{ text: "Hi." }]);
  await using env = await createTestEnv({ provider, noConfig: true });
  await env.writeConfig(anthropicOverride(provider.url));
  const login = await env.run(["auth", "login", "anthropic"], { stdin: `${KEY}\n` });
  assert.equal(login.code, 0, login.stderr);
  const file = `${env.home}/credentials.json`;
  assert.equal(login.stdout, `stored the API key of anthropic in ${file}\n`);
  assert.equal(login.stderr, "");
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), { anthropic: { api_key: KEY } });

  const run = await env.run(["run", "-a", "coder", "-m", "anthropic/claude-sonnet-4-5", "go"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(provider.requests[0]?.headers["x-api-key"], KEY);
  const session = await Deno.readTextFile((await env.sessionFiles())[0] ?? "");
  assert.ok(session.includes(sessionIdOf(run.stderr)));
  for (const text of [login.stdout, login.stderr, run.stdout, run.stderr, session]) {
    assert.ok(!text.includes(KEY), `the key was printed or stored: ${text}`);
  }
});

Deno.test("auth list says where each key comes from without printing any key", async () => {
  await using env = await createTestEnv({ noConfig: true });
  await env.writeConfig(
    [
      "providers:",
      "  work:",
      "    protocol: openai_chat_completions",
      "    base_url: https://llm.example.com/v1",
      "    api_key_env: WORK_KEY",
      "  literal:",
      "    preset: groq",
      "    api_key: literal-secret",
      "",
    ].join("\n"),
  );
  const login = await env.run(["auth", "login", "mistral"], { stdin: "stored-secret\n" });
  assert.equal(login.code, 0, login.stderr);
  const list = await env.run(["auth", "list"], {
    env: { OPENAI_API_KEY: "env-secret", WORK_KEY: "work-secret" },
  });
  assert.equal(list.code, 0, list.stderr);
  const rows = new Map(
    linesOf(list.stdout).map((line) => {
      const [name = "", ...rest] = line.split(/\s{2,}/);
      return [name, rest.join("  ")];
    }),
  );
  assert.equal(rows.get("openai"), "environment (OPENAI_API_KEY)");
  assert.equal(rows.get("mistral"), "credentials.json");
  assert.equal(rows.get("work"), "environment (WORK_KEY)");
  assert.equal(rows.get("literal"), "config (providers.literal.api_key)");
  assert.equal(rows.get("ollama"), "none needed");
  assert.equal(
    rows.get("anthropic"),
    "missing: set ANTHROPIC_API_KEY or run rienda auth login anthropic",
  );
  for (const secret of ["env-secret", "work-secret", "literal-secret", "stored-secret"]) {
    assert.ok(!list.stdout.includes(secret) && !list.stderr.includes(secret), secret);
  }
});

Deno.test("auth logout removes only that provider's key", async () => {
  await using env = await createTestEnv({ noConfig: true });
  for (const provider of ["openai", "groq"]) {
    const login = await env.run(["auth", "login", provider], { stdin: `key-${provider}\n` });
    assert.equal(login.code, 0, login.stderr);
  }
  const file = `${env.home}/credentials.json`;
  const logout = await env.run(["auth", "logout", "openai"]);
  assert.equal(logout.code, 0, logout.stderr);
  assert.equal(logout.stdout, `removed the API key of openai from ${file}\n`);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), { groq: { api_key: "key-groq" } });
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  const again = await env.run(["auth", "logout", "openai"]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, `no API key of openai is stored in ${file}\n`);
});

Deno.test("auth login rejects an empty key and an unknown provider with exit 2", async () => {
  await using env = await createTestEnv({ noConfig: true });
  const empty = await env.run(["auth", "login", "openai"], { stdin: "\n" });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /^rienda: no API key given/m);
  const unknown = await env.run(["auth", "login", "nope"], { stdin: "key\n" });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^rienda: unknown provider "nope" \(known: openai, anthropic,/m);
  await assert.rejects(Deno.stat(`${env.home}/credentials.json`), Deno.errors.NotFound);
});

Deno.test("a malformed credentials.json is a warning, not a crash, and never quoted", async () => {
  await using provider = await startFakeProvider([{ text: "fine" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("rienda-home/credentials.json", '{"openai": {"api_key": "sk-half-wri', 0o600);
  const run = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "fine\n");
  assert.match(run.stderr, /credentials\.json: not valid JSON; its keys are ignored/);
  const list = await env.run(["auth", "list"]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stderr, /credentials\.json: not valid JSON/);
  for (const text of [run.stdout, run.stderr, list.stdout, list.stderr]) {
    assert.ok(!text.includes("sk-half"), text);
  }
  const login = await env.run(["auth", "login", "openai"], { stdin: "sk-new\n" });
  assert.equal(login.code, 0, login.stderr);
  const list2 = await env.run(["auth", "list"]);
  assert.equal(list2.stderr, "");
  assert.match(list2.stdout, /^openai\s+credentials\.json$/m);
});

Deno.test("auth --help and auth login --help print examples on stdout and exit 0", async () => {
  await using env = await createTestEnv({ noConfig: true });
  for (const args of [["auth", "--help"], ["auth", "login", "--help"], ["models", "--help"]]) {
    const result = await env.run(args);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /Examples:/);
  }
});
