import assert from "node:assert/strict";
import { lastLine, linesOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { CHECKOUT_DIR } from "./harness/rienda.ts";
import { modelOf } from "./harness/wire.ts";

Deno.test("agents with model: inherit or no model: run on default_model, in the home and the project", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await env.writeAgentFile("plain", "---\ndescription: No model.\n---\nYou help.\n");
  await env.writeAgentFile(
    "inherits",
    "---\ndescription: Inherits.\nmodel: inherit\n---\nYou help.\n",
  );
  await env.writeFile(
    "workspace/.claude/agents/peer.md",
    "---\nname: peer\ndescription: A peer's subagent.\nmodel: inherit\n---\nYou help.\n",
  );
  for (const id of ["plain", "inherits", "peer"]) {
    provider.push({ text: `ran ${id}` });
    const result = await env.run(["run", "--no-session", "-a", id, "hi"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `ran ${id}\n`);
    assert.equal(modelOf(provider.requests.at(-1)), "fake-model");
  }
  const agents = await env.run(["agents"]);
  for (const id of ["plain", "inherits", "peer"]) {
    assert.match(agents.stdout, new RegExp(`^${id} +fake/m \\(default\\) `, "m"), agents.stdout);
  }
});

Deno.test("an agent without a model and no default_model takes the first provider with a key", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider, noConfig: true });
  await env.writeAgentFile(
    "inherits",
    "---\ndescription: Inherits.\nmodel: inherit\n---\nYou help.\n",
  );
  const keys = { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: provider.url };
  const result = await env.run(["run", "-a", "inherits", "hi"], { env: keys });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(provider.requests[0]?.path, "/v1/messages");
  assert.equal(modelOf(provider.requests[0]), "claude-sonnet-4-5");
  const agents = await env.run(["agents"], { env: keys });
  assert.match(agents.stdout, /^inherits +anthropic\/claude-sonnet-4-5 \(key found\) +Inherits\./m);
});

Deno.test("an agent without a model, default_model or any key fails naming its file", async () => {
  await using env = await createTestEnv({ noConfig: true });
  const path = await env.writeAgentFile(
    "inherits",
    "---\ndescription: I.\nmodel: inherit\n---\nB\n",
  );
  const result = await env.run(["run", "-a", "inherits", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(linesOf(result.stderr).length, 1, result.stderr);
  assert.match(
    lastLine(result.stderr),
    new RegExp(
      `^rienda: agent "inherits" \\(${path}\\) has no model: set an API key \\(ANTHROPIC_API_KEY, .*\\) or run rienda auth login PROVIDER, or set default_model in config\\.yaml or pass -m PROVIDER/MODEL$`,
    ),
  );
  assert.deepEqual(await env.sessionFiles(), []);
});

Deno.test("rienda agents marks the agents whose provider has no key", async () => {
  await using env = await createTestEnv({ noConfig: true });
  await env.writeAgent("gpt", { description: "On OpenAI.", model: "openai/gpt-4o-mini" });
  await env.writeAgent("bare", { description: "A bare name.", model: "sonnet" });
  await env.writeAgent("elsewhere", { description: "Nowhere.", model: "nowhere/x" });
  const result = await env.run(["agents"], { env: { OPENAI_API_KEY: "" } });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^gpt +openai\/gpt-4o-mini \(no key\) +On OpenAI\./m);
  assert.match(
    result.stdout,
    /^bare +sonnet \(anthropic\/claude-sonnet-4-5, no key\) +A bare name\./m,
  );
  assert.match(result.stdout, /^elsewhere +nowhere\/x \(unknown provider\) +Nowhere\./m);
  const keyed = await env.run(["agents"], { env: { OPENAI_API_KEY: "sk-test-1234" } });
  assert.match(keyed.stdout, /^gpt +openai\/gpt-4o-mini +On OpenAI\./m);
});

Deno.test("with only an Anthropic key, the README's first commands run: the default agent, examples/hello.md, rienda init's assistant", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider, noConfig: true, noAgent: true });
  const keys = { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: provider.url };
  const runs = [
    ["run", "What does this project do?"],
    ["run", "-f", `${CHECKOUT_DIR}/examples/hello.md`, "hi"],
    ["init"],
    ["run", "-a", "assistant", "how many words are in README.md?"],
  ];
  for (const args of runs) {
    if (args[0] === "run") provider.push({ text: "answered" });
    const result = await env.run(args, { env: keys });
    assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
    if (args[0] === "run") assert.equal(result.stdout, "answered\n");
  }
  assert.deepEqual(provider.requests.map((request) => request.path), [
    "/v1/messages",
    "/v1/messages",
    "/v1/messages",
  ]);
  assert.deepEqual(provider.requests.map(modelOf), Array(3).fill("claude-sonnet-4-5"));
});

Deno.test("the example agents name no provider", async () => {
  const hello = await Deno.readTextFile(`${CHECKOUT_DIR}/examples/hello.md`);
  assert.ok(!/^model:/m.test(hello), hello);
  await using env = await createTestEnv({ noConfig: true, noAgent: true });
  assert.equal((await env.run(["init"])).code, 0);
  for await (const entry of Deno.readDir(`${env.home}/agents`)) {
    const text = await Deno.readTextFile(`${env.home}/agents/${entry.name}`);
    assert.ok(!/^model:/m.test(text), `${entry.name}: ${text}`);
  }
});
