import assert from "node:assert/strict";
import { lastLine } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";

const REFUSED = { status: 401, errorMessage: "invalid x-api-key" };

Deno.test("a 401 names the provider and where its key came from: config.yaml", async () => {
  await using provider = await startFakeProvider([REFUSED]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    lastLine(result.stderr),
    'rienda: invalid x-api-key (status 401): provider "fake" refused the key from config ' +
      "(providers.fake.api_key): check it, or replace it with rienda auth login fake",
  );
  assert.equal(provider.requests.length, 1, "a refused key is not retried");
});

Deno.test("a 401 names the variable the key came from, and credentials.json", async () => {
  await using provider = await startFakeProvider([REFUSED, REFUSED]);
  await using env = await createTestEnv({ provider, noConfig: true, noAgent: true });
  const base = { ANTHROPIC_BASE_URL: provider.url };
  const fromEnv = await env.run(["run", "hi"], {
    env: { ...base, ANTHROPIC_API_KEY: "sk-ant-from-env" },
  });
  assert.equal(fromEnv.code, 1, fromEnv.stderr);
  assert.match(
    lastLine(fromEnv.stderr),
    /: provider "anthropic" refused the key from environment \(ANTHROPIC_API_KEY\): check it, or replace it with rienda auth login anthropic$/,
  );
  const login = await env.run(["auth", "login", "anthropic"], { stdin: "sk-ant-stored-key\n" });
  assert.equal(login.code, 0, login.stderr);
  const stored = await env.run(["run", "hi"], { env: { ...base, ANTHROPIC_API_KEY: "" } });
  assert.equal(stored.code, 1, stored.stderr);
  assert.match(
    lastLine(stored.stderr),
    /: provider "anthropic" refused the key from credentials\.json: check it, or replace it with rienda auth login anthropic$/,
  );
  assert.ok(!stored.stderr.includes("sk-ant-stored-key"), stored.stderr);
});
