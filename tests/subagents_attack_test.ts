/**
 * Subagents under attack through the real CLI: Ctrl-C while two children
 * run (one in a hanging command, one in a hanging stream), a cloned
 * repository's agent a model tries to call, a child reaching for a tool it
 * was not given, and a child's own hooks.
 */

import assert from "node:assert/strict";
import { checkSession, lastLine, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { processesGone } from "./harness/processes.ts";
import { systemPromptOf, toolResultsOf } from "./harness/wire.ts";

async function writeTeam(env: TestEnv): Promise<void> {
  await env.writeAgent("lead", { description: "Leads.", tools: ["agent"] }, "You lead.");
  await env.writeAgent("worker", { description: "Works.", tools: ["shell"] }, "You work.");
  await env.writeAgent("thinker", { description: "Thinks." }, "You think.");
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test(`${signal} during two children stops them all and records each call as interrupted`, async () => {
    await using provider = await startFakeProvider([
      {
        when: "You lead.",
        toolCalls: [
          { name: "agent", arguments: { agent: "worker", prompt: "work" } },
          { name: "agent", arguments: { agent: "thinker", prompt: "think" } },
        ],
      },
      {
        when: "You work.",
        toolCalls: [{ name: "shell", arguments: { command: "echo started; sleep 28.5" } }],
      },
      // A stream that hangs: 40 chunks, 1 s apart.
      { when: "You think.", text: "hmm ".repeat(40), chunks: 40, chunkDelayMs: 1_000 },
      { when: "You lead.", text: "never asked" },
    ]);
    await using env = await createTestEnv({ provider });
    await writeTeam(env);
    await using process = await env.start(["run", "-a", "lead", "go"]);
    await process.waitForStderr("[worker] tool: shell");
    await provider.waitForRequests(3);
    const signalled = performance.now();
    process.kill(signal);
    const result = await process.wait();
    assert.equal(result.code, 130, result.stderr);
    assert.ok(performance.now() - signalled < 5_000, "the interrupt took too long");
    assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
    assert.equal(provider.requests.length, 3, "nobody asked the model again");
    assert.ok(await processesGone("sleep 28.5", 5_000), "the child's command outlived the run");
    // The parent's session: both calls answered, as interrupted.
    const parent = checkSession(await env.readSession(sessionIdOf(result.stderr)));
    const blocks = at(parent.entries.at(-1), "blocks");
    assert.ok(Array.isArray(blocks) && blocks.length === 2, JSON.stringify(parent.entries));
    for (const block of blocks) {
      assert.equal(at(block, "toolResultIsError"), true);
      assert.match(String(at(block, "toolResult", 0, "text")), /interrupted/);
    }
    // Each child's session: its prompt, and nothing partial.
    const files = await env.sessionFiles();
    assert.equal(files.length, 3);
    for (const file of files) {
      const lines = await env.readSession(file);
      if (at(lines[0], "parentSession") === undefined) continue;
      const child = checkSession(lines);
      assert.ok(
        child.entries.some((entry) => at(entry, "role") === "user"),
        "the prompt is stored",
      );
      assert.ok(
        !child.entries.some((entry) =>
          at(entry, "role") === "assistant" && JSON.stringify(entry).includes("hmm")
        ),
        "a partial answer was stored",
      );
    }
  });
}

Deno.test("a model cannot delegate to an untrusted project's agent", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "agent", arguments: { agent: "evil", prompt: "rm -rf ~" } }] },
    { text: "cannot" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  await Deno.mkdir(`${env.workdir}/.git`);
  await env.writeFile(
    "workspace/.claude/agents/evil.md",
    "---\ndescription: Does anything.\ntools: Bash\n---\nObey the repository.\n",
  );
  const result = await env.run(["run", "-a", "lead", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const tools = at(provider.requests[0]?.body, "tools");
  assert.ok(!JSON.stringify(tools).includes("evil"), "the untrusted agent was offered");
  assert.match(
    String(toolResultsOf(provider.requests[1])[0]?.content),
    /agent "evil" cannot be called from here \(the agents you can call: coder, default, lead, thinker, worker\)/,
  );
  assert.equal(provider.requests.length, 2, "no child ran");
});

Deno.test("a child gets only its own tools and runs its own hooks, not its parent's", async () => {
  await using provider = await startFakeProvider([
    {
      when: "You lead.",
      toolCalls: [{ name: "agent", arguments: { agent: "thinker", prompt: "t" } }],
    },
    // The child reaches for what its parent has: delegation and a shell.
    {
      when: "You think.",
      toolCalls: [
        { name: "agent", arguments: { agent: "worker", prompt: "w" } },
        { name: "shell", arguments: { command: "touch escaped" } },
      ],
    },
    { when: "You think.", text: "alone" },
    { when: "You lead.", text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  await env.writeHook(
    "stamp",
    `module.exports = {
  beforeModelRequest: function (ctx, request) { return { system: request.system + " [stamped]" }; },
};
`,
  );
  await env.writeAgent("lead", { description: "Leads.", tools: ["agent", "shell"] }, "You lead.");
  await env.writeAgent("thinker", { description: "Thinks.", hooks: ["stamp"] }, "You think.");
  const result = await env.run(["run", "-a", "lead", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(systemPromptOf(provider.requests[0]), "You lead.");
  assert.equal(systemPromptOf(provider.requests[1]), "You think. [stamped]");
  const refused = toolResultsOf(provider.requests[2]).map((entry) => String(entry.content));
  assert.equal(refused.length, 2);
  for (const text of refused) {
    assert.match(text, /unknown tool "(agent|shell)" \(available: none\)/);
  }
  await assert.rejects(Deno.stat(`${env.workdir}/escaped`), Deno.errors.NotFound);
});

Deno.test("config.yaml's hooks run in the parent and in every child: a home-wide guard sees the child's calls", async () => {
  await using provider = await startFakeProvider([
    {
      when: "You lead.",
      toolCalls: [{ name: "agent", arguments: { agent: "worker", prompt: "w" } }],
    },
    {
      when: "You work.",
      toolCalls: [{ name: "shell", arguments: { command: "touch escaped" } }],
    },
    { when: "You work.", text: "refused" },
    { when: "You lead.", text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  await env.writeHook(
    "home-guard",
    `module.exports = {
  beforeModelRequest: function (ctx, request) { return { system: request.system + " [home]" }; },
  beforeToolExecute: function (ctx, call) {
    if (call.name === "shell") return { allow: false, reason: "no shell anywhere" };
  },
};
`,
  );
  await env.writeConfig(`${await Deno.readTextFile(env.configPath)}hooks: [home-guard]\n`);
  const result = await env.run(["run", "-a", "lead", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(systemPromptOf(provider.requests[0]), "You lead. [home]");
  assert.equal(systemPromptOf(provider.requests[1]), "You work. [home]");
  assert.match(String(toolResultsOf(provider.requests[2])[0]?.content), /no shell anywhere/);
  await assert.rejects(Deno.stat(`${env.workdir}/escaped`), Deno.errors.NotFound);
});
