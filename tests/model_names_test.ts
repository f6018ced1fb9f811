import assert from "node:assert/strict";
import { lastLine, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { modelOf } from "./harness/wire.ts";

/** The default config plus the built-in `anthropic` and `openai` sent to the fake provider. */
function builtinsConfig(url: string): string {
  return `${defaultConfig(url)}  anthropic:\n    base_url: ${url}\n    api_key: test-key\n` +
    `  openai:\n    protocol: openai_chat_completions\n    base_url: ${url}\n    api_key: test-key\n`;
}

Deno.test("bare model names resolve: built-in aliases, known prefixes, a provider's models", async () => {
  await using provider = await startFakeProvider([{ text: "1" }, { text: "2" }, { text: "3" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(builtinsConfig(provider.url));
  const cases = [
    ["sonnet", "anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"],
    ["gpt-4o", "openai/gpt-4o", "gpt-4o"],
    ["m", "fake/m", "fake-model"],
  ] as const;
  for (const [index, [name, ref, wire]] of cases.entries()) {
    const result = await env.run(["run", "-a", "coder", "-m", name, "hi"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(modelOf(provider.requests[index]), wire);
    const header = (await env.readSession(sessionIdOf(result.stderr)))[0];
    assert.equal(header?.["model"], ref, "the session records provider/model");
  }
});

Deno.test("model_aliases of config.yaml come first, for -m, agent files and default_model", async () => {
  await using provider = await startFakeProvider([{ text: "1" }, { text: "2" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    builtinsConfig(provider.url).replace("default_model: fake/m", "default_model: fast") +
      "model_aliases:\n  fast: fake/m\n  sonnet: fake/m\n",
  );
  await env.writeAgent("aliased", { description: "Aliased.", model: "sonnet" });
  const agent = await env.run(["run", "-a", "aliased", "hi"]);
  assert.equal(agent.code, 0, agent.stderr);
  assert.equal(modelOf(provider.requests[0]), "fake-model", "model_aliases wins over sonnet");
  const byDefault = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(byDefault.code, 0, byDefault.stderr);
  assert.equal((await env.readSession(sessionIdOf(byDefault.stderr)))[0]?.["model"], "fake/m");
  await env.writeAgent("lost", { description: "Lost.", model: "nonsense" });
  const listing = await env.run(["agents"]);
  assert.match(listing.stdout, /^aliased +sonnet \(fake\/m\) +Aliased\./m);
  assert.match(listing.stdout, /^lost +nonsense \(unknown model\) +Lost\./m);
});

Deno.test("an ambiguous or unknown bare model name fails before any request, listing candidates", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    `${defaultConfig(provider.url)}  lab:\n    protocol: openai_chat_completions\n` +
      `    base_url: ${provider.url}\n    models:\n      m: {}\n`,
  );
  const ambiguous = await env.run(["run", "-a", "coder", "-m", "m", "hi"]);
  assert.equal(ambiguous.code, 1, ambiguous.stderr);
  assert.match(lastLine(ambiguous.stderr), /^rienda: model "m" is ambiguous: fake\/m, lab\/m /);
  const unknown = await env.run(["run", "-a", "coder", "-m", "nonsense", "hi"]);
  assert.equal(unknown.code, 1, unknown.stderr);
  const last = lastLine(unknown.stderr);
  assert.match(last, /^rienda: unknown model "nonsense": no alias \(haiku|sonnet|opus/);
  assert.ok(last.includes("gpt-") && last.includes("claude-") && last.includes("model_aliases"));
  assert.equal(provider.requests.length, 0);
});

Deno.test("model_aliases is validated like the rest of config.yaml", async () => {
  await using env = await createTestEnv();
  const cases = [
    ["  fast: gpt-4o\n", /model_aliases\.fast: malformed model reference "gpt-4o"/],
    ["  fast: ghost/x\n", /model_aliases\.fast: unknown provider "ghost"/],
    ['  "a/b": fake/m\n', /invalid alias "a\/b"/],
  ] as const;
  for (const [entry, expect] of cases) {
    await env.writeConfig(`${defaultConfig("http://127.0.0.1:9")}model_aliases:\n${entry}`);
    const result = await env.run(["run", "-a", "coder", "hi"]);
    assert.equal(result.code, 1, result.stderr);
    assert.ok(result.stderr.includes(env.configPath), result.stderr);
    assert.match(result.stderr, expect);
  }
  await env.writeConfig(defaultConfig("http://127.0.0.1:9").replace("fake/m", "nonsense"));
  const result = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /default_model: unknown model "nonsense"/);
});
