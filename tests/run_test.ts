import assert from "node:assert/strict";
import { assertNoAnsi, checkSession, linesOf, sessionIdOf } from "./harness/assertions.ts";
import { agentText, createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { chatMessages, modelOf, promptOf, systemPromptOf, toolNamesOf } from "./harness/wire.ts";

Deno.test("run prints the answer on stdout and only the session line on stderr", async () => {
  await using provider = await startFakeProvider([{ text: "Hello there." }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "say hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Hello there.\n");
  const id = sessionIdOf(result.stderr);
  assert.deepEqual(linesOf(result.stderr), [`session: ${id}`]);
  assertNoAnsi(result.stdout);
  assertNoAnsi(result.stderr);
});

Deno.test("run prints a chunked answer exactly once, as sent", async () => {
  const text = "The quick brown fox jumps over the lazy dog.";
  await using provider = await startFakeProvider([{ text, chunks: 9, chunkDelayMs: 10 }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${text}\n`);
});

Deno.test("run adds no second newline to an answer that ends with one", async () => {
  await using provider = await startFakeProvider([{ text: "line one\nline two\n", chunks: 3 }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "line one\nline two\n");
});

Deno.test("run prints the text of every assistant message in order, a blank line between two, and nothing of the tools", async () => {
  await using provider = await startFakeProvider([
    {
      text: "Let me look.",
      toolCalls: [{ name: "shell", arguments: { command: "echo tool-out" } }],
    },
    { toolCalls: [{ name: "shell", arguments: { command: "echo more" } }] },
    { text: "Done." },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  // Each message is its own paragraph: a blank line between them.
  assert.equal(result.stdout, "Let me look.\n\nDone.\n");
});

Deno.test("run sends a streamed chat completions request with the key, user agent, prompt and tools", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "say hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(provider.requests.length, 1);
  const [request] = provider.requests;
  assert.equal(request?.method, "POST");
  assert.equal(request?.path, "/v1/chat/completions");
  assert.equal(request?.headers["authorization"], "Bearer test-key");
  assert.equal(request?.headers["user-agent"], "rienda/0.1.0");
  assert.match(request?.headers["content-type"] ?? "", /^application\/json/);
  assert.equal(modelOf(request), "fake-model");
  assert.equal(at(request?.body, "stream"), true);
  assert.deepEqual(at(request?.body, "stream_options"), { include_usage: true });
  const messages = chatMessages(request);
  assert.deepEqual(messages.map((message) => message.role), ["system", "user"]);
  assert.ok(systemPromptOf(request).includes("You answer briefly."));
  assert.equal(promptOf(request), "say hi");
  assert.deepEqual(toolNamesOf(request), ["shell"]);
});

Deno.test("run keeps thinking off stdout and stores it before the text", async () => {
  await using provider = await startFakeProvider([
    { thinking: "secret reasoning", text: "answer", chunks: 3 },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "answer\n");
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(session.entries[1]?.blocks, [
    { type: "thinking", thinking: "secret reasoning" },
    { type: "text", text: "answer" },
  ]);
});

Deno.test("run -m overrides the agent's model, which overrides default_model", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("pinned", { description: "Pinned.", model: "fake/agent-model" });
  const byAgent = await env.run(["run", "-a", "pinned", "go"]);
  const byFlag = await env.run(["run", "-a", "pinned", "-m", "fake/flag-model", "go"]);
  const byDefault = await env.run(["run", "-a", "coder", "go"]);
  for (const result of [byAgent, byFlag, byDefault]) assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(provider.requests.map(modelOf), [
    "agent-model",
    "flag-model",
    "fake-model",
  ]);
  const header = (await env.readSession(sessionIdOf(byFlag.stderr)))[0];
  assert.equal(header?.model, "fake/flag-model");
  assert.equal(header?.agent, "pinned");
});

Deno.test("run -C runs the agent in another workspace", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "pwd" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const other = await env.makeDir("elsewhere");
  const result = await env.run(["run", "-a", "coder", "-C", other, "where?"], { cwd: env.root });
  assert.equal(result.code, 0, result.stderr);
  const messages = chatMessages(provider.requests[1]);
  assert.equal(messages.at(-1)?.content, other);
  const header = (await env.readSession(sessionIdOf(result.stderr)))[0];
  assert.equal(header?.workdir, other);
});

Deno.test("run reads the config named by --config, else RIENDA_CONFIG, else the home's", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  const flagConfig = await env.writeFile(
    "flag.yaml",
    defaultConfig(provider.url).replace("id: fake-model", "id: flag-model"),
  );
  const envConfig = await env.writeFile(
    "env.yaml",
    defaultConfig(provider.url).replace("id: fake-model", "id: env-model"),
  );
  const withFlag = await env.run(["run", "-a", "coder", "--config", flagConfig, "go"], {
    env: { RIENDA_CONFIG: envConfig },
  });
  const withEnv = await env.run(["run", "-a", "coder", "go"], {
    env: { RIENDA_CONFIG: envConfig },
  });
  const plain = await env.run(["run", "-a", "coder", "go"]);
  for (const result of [withFlag, withEnv, plain]) assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(provider.requests.map(modelOf), [
    "flag-model",
    "env-model",
    "fake-model",
  ]);
});

Deno.test("run reads the API key from the variable named by api_key_env", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url).replace("api_key: test-key", "api_key_env: FAKE_PROVIDER_KEY"),
  );
  const result = await env.run(["run", "-a", "coder", "go"], {
    env: { FAKE_PROVIDER_KEY: "key-from-env" },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(provider.requests[0]?.headers["authorization"], "Bearer key-from-env");
});

Deno.test("run -f runs an agent file from anywhere, named after the file", async () => {
  await using provider = await startFakeProvider([{ text: "reviewed" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile(
    "agents-elsewhere/reviewer.md",
    agentText({ description: "Reviews." }, "You review."),
  );
  const result = await env.run(["run", "-f", "../agents-elsewhere/reviewer.md", "check"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "reviewed\n");
  assert.ok(systemPromptOf(provider.requests[0]).includes("You review."));
  const header = (await env.readSession(sessionIdOf(result.stderr)))[0];
  assert.equal(header?.agent, "reviewer");
});

Deno.test("run writes no ANSI escapes when stderr is not a terminal, even without NO_COLOR", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "exit 4" } }] },
    { text: "ok" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"], { env: { NO_COLOR: undefined } });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(result.stderr.includes("tool failed: command exited with code 4"));
  assertNoAnsi(result.stdout);
  assertNoAnsi(result.stderr);
});
