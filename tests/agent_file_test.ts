import assert from "node:assert/strict";
import { sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { systemPromptOf, toolNamesOf } from "./harness/wire.ts";

Deno.test("an agent file with a byte-order mark and CRLF line ends runs", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgentFile(
    "windows",
    "\uFEFF---\r\ndescription: Written on Windows.\r\ntools: [shell]\r\n---\r\nYou use CRLF.\r\n",
  );
  const result = await env.run(["run", "-a", "windows", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "ok\n");
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(system.includes("You use CRLF."), system);
  assert.ok(!system.includes("\uFEFF") && !system.includes("description:"), system);
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["shell"]);
});

Deno.test("the body of an agent file is the system prompt, without the frontmatter", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent(
    "writer",
    { description: "Writes." },
    "You are a writer.\n\nKeep it short: one *paragraph*.",
  );
  const result = await env.run(["run", "-a", "writer", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(system.includes("You are a writer.\n\nKeep it short: one *paragraph*."), system);
  assert.ok(!system.includes("Writes.") && !system.includes("---"), system);
});

Deno.test("an agent without tools offers the model none", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("plain", { description: "No tools." });
  const result = await env.run(["run", "-a", "plain", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolNamesOf(provider.requests[0]), []);
});

Deno.test("duplicate tool names in an agent file collapse to the first", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("twice", { description: "Twice.", tools: ["shell", "shell"] });
  const result = await env.run(["run", "-a", "twice", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["shell"]);
});

Deno.test("the agent's model wins over default_model when -m is absent", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("own", { description: "Own model.", model: "fake/m" });
  const result = await env.run(["run", "-a", "own", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  const header = (await env.readSession(sessionIdOf(result.stderr)))[0];
  assert.equal(header?.model, "fake/m");
});
