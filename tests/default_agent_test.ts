import assert from "node:assert/strict";
import { lastLine, linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { modelOf, systemPromptOf, toolNamesOf } from "./harness/wire.ts";

const DEFAULT_TOOLS = ["read", "write", "edit", "grep", "find", "ls", "shell"];

/** A config that sends the built-in `anthropic` and `openai` to the fake provider. */
function builtinsAt(url: string): string {
  return `providers:\n  anthropic:\n    base_url: ${url}\n  openai:\n    base_url: ${url}\n`;
}

Deno.test("rienda run with a prompt alone runs the built-in default agent", async () => {
  await using provider = await startFakeProvider([{ text: "Hello." }, { text: "Again." }]);
  await using env = await createTestEnv({ provider, noAgent: true });
  const result = await env.run(["run", "what is here?"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Hello.\n");
  const request = provider.requests[0];
  assert.deepEqual(toolNamesOf(request), DEFAULT_TOOLS);
  assert.equal(modelOf(request), "fake-model");
  assert.match(
    systemPromptOf(request),
    /^You are a coding assistant working in the user's workspace/,
  );
  const session = await env.readSession(sessionIdOf(result.stderr));
  assert.equal(session[0]?.agent, "default");
  const again = await env.run(["run", "-c", "and now?"]);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(toolNamesOf(provider.requests[1]), DEFAULT_TOOLS);
});

Deno.test("the default agent takes the first built-in provider with a key: anthropic, then openai", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider, noConfig: true, noAgent: true });
  await env.writeConfig(builtinsAt(provider.url));
  const cases = [
    [{ OPENAI_API_KEY: "sk-o", ANTHROPIC_API_KEY: "sk-a" }, "/v1/messages", "claude-sonnet-4-5"],
    [{ OPENAI_API_KEY: "sk-o" }, "/v1/responses", "gpt-5"],
  ] as const;
  for (const [keys, path, model] of cases) {
    provider.push({ text: "ok" });
    const result = await env.run(["run", "--no-session", "hi"], { env: keys });
    assert.equal(result.code, 0, result.stderr);
    const request = provider.requests.at(-1);
    assert.equal(request?.path, path);
    assert.equal(modelOf(request), model);
  }
  const agents = await env.run(["agents"], { env: { OPENAI_API_KEY: "sk-o" } });
  assert.match(
    agents.stdout,
    /^default +openai\/gpt-5 \(key found\) +A concise coding assistant.* +built-in$/m,
  );
  assert.ok(!agents.stdout.includes("sk-o"), "a key was printed");
});

Deno.test("the default agent without a model or any key says which keys to set", async () => {
  await using env = await createTestEnv({ noConfig: true, noAgent: true });
  const result = await env.run(["run", "hi"]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.equal(linesOf(result.stderr).length, 1, result.stderr);
  const line = lastLine(result.stderr);
  assert.match(
    line,
    /^rienda: the default agent has no model: set an API key \(ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, .*GEMINI_API_KEY\) or run rienda auth login PROVIDER/,
  );
  assert.deepEqual(await env.sessionFiles(), []);
  const agents = await env.run(["agents"]);
  assert.equal(agents.code, 0, agents.stderr);
  assert.match(agents.stdout, /^default +\(no model\) +A concise coding assistant/m);
});

Deno.test("agents/default.md replaces the built-in default agent", async () => {
  await using provider = await startFakeProvider([{ text: "Mine." }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("default", { description: "My default.", tools: ["read"] }, "You are mine.");
  const result = await env.run(["run", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(systemPromptOf(provider.requests[0]), "You are mine.");
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["read"]);
  const agents = await env.run(["agents"]);
  assert.deepEqual(linesOf(agents.stdout), [
    "coder    fake/m (default)  Answers briefly.  home",
    "default  fake/m (default)  My default.       home",
  ]);
});

Deno.test("rienda init writes the default agent as agents/default.md, which runs as the built-in would", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider, noConfig: true, noAgent: true });
  const init = await env.run(["init"]);
  assert.equal(init.code, 0, init.stderr);
  assert.ok(init.stdout.includes(`created  ${env.home}/agents/default.md`), init.stdout);
  assert.match(init.stdout, /rienda run "what does this project do\?"/);
  const agents = await env.run(["agents"]);
  assert.match(
    agents.stdout,
    /^default +\(no model\) +A concise coding assistant for the current workspace\. \(sandbox: workspace-write\) +home$/m,
  );
  await Deno.writeTextFile(env.configPath, defaultConfig(provider.url));
  const run = await env.run(["run", "hi"]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(toolNamesOf(provider.requests[0]), DEFAULT_TOOLS);
});

Deno.test("every system prompt ends with the environment block unless environment_context is false", async () => {
  await using provider = await startFakeProvider([{ text: "1" }, { text: "2" }, { text: "3" }]);
  await using env = await createTestEnv({ provider });
  const config = defaultConfig(provider.url).replace("environment_context: false\n", "");
  await env.writeConfig(config);
  const today = new Date();
  const date = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${
    String(today.getDate()).padStart(2, "0")
  }`;
  const block = (git: string) =>
    `You answer briefly.\n\nThe environment this run works in:\n<environment>\n` +
    `workspace: ${env.workdir}\nplatform: ${Deno.build.os} (${Deno.build.arch})\n` +
    `date: ${date}\ngit repository: ${git}\n</environment>`;
  assert.equal((await env.run(["run", "-a", "coder", "hi"])).code, 0);
  assert.equal(systemPromptOf(provider.requests[0]), block("no"));
  await Deno.mkdir(`${env.workdir}/.git`);
  assert.equal((await env.run(["run", "-a", "coder", "hi"])).code, 0);
  assert.equal(systemPromptOf(provider.requests[1]), block("yes"));
  await env.writeConfig(`${config}environment_context: false\n`);
  assert.equal((await env.run(["run", "-a", "coder", "hi"])).code, 0);
  assert.equal(systemPromptOf(provider.requests[2]), "You answer briefly.");
});
