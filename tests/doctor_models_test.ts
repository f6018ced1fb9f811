import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";

const NO_KEY_FIX =
  /^fail +run +no agent can run: set an API key \(ANTHROPIC_API_KEY, OPENAI_API_KEY, .*\) or run rienda auth login PROVIDER, or set default_model in config\.yaml or pass -m PROVIDER\/MODEL$/m;

Deno.test("rienda doctor fails when nothing can run (no key, no default_model) and says how to fix it", async () => {
  await using env = await createTestEnv({ noConfig: true, noAgent: true });
  const fresh = await env.run(["doctor", "--offline"]);
  assert.equal(fresh.code, 1, fresh.stdout);
  assert.match(fresh.stdout, NO_KEY_FIX);
  assert.match(fresh.stdout, /^ +default: no model \(it names none, there is no default_model/m);
  assert.equal((await env.run(["init"])).code, 0);
  const initialised = await env.run(["doctor", "--offline"]);
  assert.equal(initialised.code, 1, initialised.stdout);
  assert.match(initialised.stdout, NO_KEY_FIX);
  assert.match(initialised.stdout, /^ +assistant: no model/m);
  const keyed = await env.run(["doctor", "--offline"], { env: { ANTHROPIC_API_KEY: "sk-ant-x" } });
  assert.equal(keyed.code, 0, keyed.stdout);
  assert.ok(!keyed.stdout.includes("cannot run"), keyed.stdout);
});

Deno.test("rienda doctor warns for each agent that cannot run while others can", async () => {
  await using env = await createTestEnv({ noConfig: true, noAgent: true });
  await env.writeAgent("gpt", { description: "On OpenAI.", model: "openai/gpt-4o" });
  await env.writeAgent("lost", { description: "Nowhere.", model: "nowhere/x" });
  const result = await env.run(["doctor", "--offline"], {
    env: { ANTHROPIC_API_KEY: "sk-ant-x", OPENAI_API_KEY: "" },
  });
  assert.equal(result.code, 0, result.stdout);
  assert.match(
    result.stdout,
    /^warn +agent +gpt cannot run: openai\/gpt-4o: provider "openai" needs an API key: set OPENAI_API_KEY or run rienda auth login openai$/m,
  );
  assert.match(
    result.stdout,
    /^warn +agent +lost cannot run: nowhere\/x: unknown provider "nowhere" in model "nowhere\/x"/m,
  );
  assert.ok(!/^warn +agent +default /m.test(result.stdout), result.stdout);
});

Deno.test("rienda doctor fails when default_model's provider has no key and every agent inherits it", async () => {
  await using env = await createTestEnv({ noConfig: true, noAgent: true });
  await env.writeConfig("default_model: openai/gpt-4o\n");
  const result = await env.run(["doctor", "--offline"], { env: { OPENAI_API_KEY: "" } });
  assert.equal(result.code, 1, result.stdout);
  assert.match(result.stdout, /^fail +run +no agent can run: fix one of the agents below$/m);
  assert.match(
    result.stdout,
    /^ +default: openai\/gpt-4o: provider "openai" needs an API key: set OPENAI_API_KEY/m,
  );
});
