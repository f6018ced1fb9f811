/**
 * Subagents in the chat, on a real pseudo-terminal: a running child is a
 * live block (agent, elapsed time, its current tool), one line when done;
 * a child's `ctx.confirm` asks the person in the chat; Esc stops a child.
 */

import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { type PtySession, startPty } from "./harness/pty.ts";
import { toolResultsOf } from "./harness/wire.ts";
import { processesGone } from "./harness/processes.ts";

const IDLE = (screen: string) => screen.includes("Ask the agent something");

function chat(env: TestEnv, args: readonly string[]): Promise<PtySession> {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home });
}

async function quit(pty: PtySession): Promise<void> {
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
}

async function writeTeam(env: TestEnv): Promise<void> {
  await env.writeAgent("lead", { description: "Leads.", tools: ["agent"] }, "You lead.");
  await env.writeTool(
    "deploy",
    `module.exports = {
  description: "Deploys after asking.",
  parameters: { type: "object", properties: {} },
  execute: function (ctx) {
    return ctx.confirm({ title: "Deploy to production?", body: "the child asks" }) ? "deployed" : "not deployed";
  },
};
`,
  );
  await env.writeAgent(
    "deployer",
    { description: "Deploys.", tools: ["deploy", "shell"] },
    "You deploy.",
  );
}

Deno.test(
  "chat: a child is a live block, its ctx.confirm asks the person, and it ends as one line",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([
      {
        when: "You lead.",
        toolCalls: [{ name: "agent", arguments: { agent: "deployer", prompt: "ship" } }],
      },
      { when: "You deploy.", toolCalls: [{ name: "deploy", arguments: {} }] },
      { when: "You deploy.", text: "shipped" },
      { when: "You lead.", text: "all shipped" },
    ]);
    await using env = await createTestEnv({ provider });
    await writeTeam(env);
    await using pty = await chat(env, ["-a", "lead", "ship it"]);
    const asked = await pty.waitFor(
      (s) => s.includes("Deploy to production?"),
      "the child's question",
    );
    assert.match(asked, /agent {2}deployer · ship · \d+s · deployer: deploy/);
    // Keys count once typing has paused.
    await new Promise((resolve) => setTimeout(resolve, 450));
    await pty.type("y");
    const done = await pty.waitFor((s) => s.includes("all shipped") && IDLE(s), "the answer");
    assert.match(done, /✓ agent {2}deployer · ship · \d+s\n/);
    assert.ok(!done.includes("deployer: deploy"), "the finished block is one line");
    assert.match(String(toolResultsOf(provider.requests[2])[0]?.content), /^deployed$/);
    // Ctrl+O prints the child's activity whole.
    await pty.type("\x0f");
    await pty.waitFor(
      (s) => /deployer started \(session \S+\)[\s\S]*deployer: deploy[\s\S]*deployer done/.test(s),
      "the child's activity",
    );
    await quit(pty);
  },
);

Deno.test("chat: Esc while a child runs a command stops it and the turn", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    {
      when: "You lead.",
      toolCalls: [{ name: "agent", arguments: { agent: "deployer", prompt: "wait" } }],
    },
    {
      when: "You deploy.",
      toolCalls: [{ name: "shell", arguments: { command: "echo started; sleep 27.5" } }],
    },
    { when: "You lead.", text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  await using pty = await chat(env, ["-a", "lead", "wait"]);
  await pty.waitFor((s) => s.includes("deployer: shell echo started"), "the child's command");
  await pty.type("\x1b");
  await pty.waitFor((s) => s.includes("! interrupted") && IDLE(s), "the interrupt");
  assert.equal(provider.requests.length, 2);
  assert.ok(await processesGone("sleep 27.5", 5_000), "the child's command outlived the interrupt");
  await quit(pty);
});
