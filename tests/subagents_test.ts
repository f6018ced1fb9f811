/**
 * Subagents through the real CLI: the `agent` tool, its choices, the child's
 * fresh context and own agent file, the link between the sessions, the
 * depth cap, a guard refusing a delegation, and Claude Code's `Task`.
 */

import assert from "node:assert/strict";
import { sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { chatMessages, systemPromptOf, toolNamesOf, toolResultsOf } from "./harness/wire.ts";

/** A lead that may delegate to the reviewer only, and the reviewer and tester. */
async function writeTeam(env: TestEnv): Promise<void> {
  await env.writeAgent("lead", {
    description: "Leads.",
    tools: ["agent"],
    agents: ["reviewer"],
  }, "You lead.");
  await env.writeAgent(
    "reviewer",
    { description: "Reviews a change.", tools: ["read"] },
    "You review.",
  );
  await env.writeAgent("tester", { description: "Runs the tests.", tools: ["shell"] }, "You test.");
}

/** The lead delegates a review of a.ts; the reviewer answers. */
const REVIEW: Turn[] = [
  {
    toolCalls: [{
      name: "agent",
      arguments: { agent: "reviewer", prompt: "review a.ts", description: "review a.ts" },
    }],
  },
  { text: "a.ts looks good" },
];

function toolDescription(body: unknown, name: string): string {
  const tools = at(body, "tools");
  assert.ok(Array.isArray(tools));
  const tool = tools.find((entry) => at(entry, "function", "name") === name);
  return String(at(tool, "function", "description"));
}

Deno.test("a delegation runs the child's own agent in a fresh context and returns its answer", async () => {
  await using provider = await startFakeProvider([
    ...REVIEW,
    { text: "the reviewer approves" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  const result = await env.run(["run", "-a", "lead", "get a.ts reviewed"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "the reviewer approves\n");
  const [lead, child, after] = provider.requests;
  // The tool lists whom it can call: agents: narrows it to the reviewer.
  const description = toolDescription(lead?.body, "agent");
  assert.match(description, /- reviewer: Reviews a change\./);
  assert.ok(!description.includes("tester"), description);
  // The child: its own prompt and tools, and nothing of the parent's conversation.
  assert.equal(systemPromptOf(child), "You review.");
  assert.deepEqual(toolNamesOf(child), ["read"]);
  assert.deepEqual(
    chatMessages(child).map((message) => [message.role, message.content]),
    [["system", "You review."], ["user", "review a.ts"]],
  );
  const parentId = sessionIdOf(result.stderr);
  const [answer] = toolResultsOf(after);
  const childId = /session (\S+)\)\]$/.exec(String(answer?.content))?.[1];
  assert.ok(childId !== undefined, String(answer?.content));
  assert.match(String(answer?.content), /^a\.ts looks good\n\n\[agent reviewer answered/);
  // The child's session names the parent's session and call.
  const header = (await env.readSession(childId))[0];
  assert.equal(at(header, "agent"), "reviewer");
  assert.equal(at(header, "parentSession"), parentId);
  assert.equal(at(header, "parentCall"), "call_1");
  assert.equal(at(header, "model"), "fake/m");
  // stderr: the child starts and ends on lines of its own.
  assert.match(result.stderr, new RegExp(`\\[reviewer\\] started \\(session ${childId}\\)`));
  assert.match(result.stderr, /\[reviewer\] done in \d+\.\ds/);
});

Deno.test("an agent the lead may not call is an error result naming the choices", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "agent", arguments: { agent: "tester", prompt: "run the tests" } }] },
    { toolCalls: [{ name: "agent", arguments: { agent: "../../etc/passwd", prompt: "x" } }] },
    { text: "I cannot" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  const result = await env.run(["run", "-a", "lead", "test it"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(provider.requests.length, 3, "no child ran");
  for (const request of provider.requests.slice(1)) {
    const [refused] = toolResultsOf(request).slice(-1);
    assert.match(
      String(refused?.content),
      /cannot be called from here \(the agents you can call: reviewer\)/,
    );
  }
});

Deno.test("an agent that delegates to itself stops at the depth limit", async () => {
  const self = { name: "agent", arguments: { agent: "echo", prompt: "go deeper" } };
  await using provider = await startFakeProvider([
    { toolCalls: [self] },
    { toolCalls: [self] },
    { toolCalls: [self] },
    { text: "bottom" },
    { text: "middle" },
    { text: "top" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("echo", { description: "Delegates to itself.", tools: ["agent"] }, "Echo.");
  const result = await env.run(["run", "-a", "echo", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "top\n");
  assert.equal(provider.requests.length, 6);
  const [refused] = toolResultsOf(provider.requests[3]);
  assert.match(String(refused?.content), /the depth limit was reached.*subagents\.max_depth/);
  assert.match(String(toolResultsOf(provider.requests[4])[0]?.content), /^bottom\n/);
  assert.match(String(toolResultsOf(provider.requests[5])[0]?.content), /^middle\n/);
  // Three sessions: the main one and two children, each naming its parent.
  const files = await env.sessionFiles();
  assert.equal(files.length, 3);
});

Deno.test("a guard hook of the parent refuses a delegation before any child starts", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "agent", arguments: { agent: "reviewer", prompt: "review" } }] },
    { text: "refused" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  await env.writeHook(
    "no-delegation",
    `module.exports = {
  beforeToolExecute: function (ctx, call) {
    if (call.name === "agent") return { allow: false, reason: "no delegation to " + call.arguments.agent };
  },
};
`,
  );
  await env.writeAgent("lead", {
    description: "Leads.",
    tools: ["agent"],
    hooks: ["no-delegation"],
  }, "You lead.");
  const result = await env.run(["run", "-a", "lead", "review"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(provider.requests.length, 2);
  assert.match(
    String(toolResultsOf(provider.requests[1])[0]?.content),
    /no delegation to reviewer/,
  );
  assert.equal((await env.sessionFiles()).length, 1);
});

Deno.test("a Claude Code agent file's Agent(…) is the agent tool narrowed to those agents, subagent_type its agent", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        name: "agent",
        arguments: { subagent_type: "reviewer", prompt: "review", description: "Review" },
      }],
    },
    { text: "fine" },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  await env.writeAgentFile(
    "planner",
    "---\nname: planner\ndescription: Plans work.\ntools: Agent(reviewer, typo), Read\nmodel: inherit\n---\nYou plan.\n",
  );
  const listed = await env.run(["agents"]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.ok(!`${listed.stdout}${listed.stderr}`.includes("rienda lacks"), listed.stdout);
  const result = await env.run(["run", "-a", "planner", "plan"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["agent", "read"]);
  // Agent(reviewer, …) narrows whom it may call, as agents: does; an unknown id is a warning.
  const description = toolDescription(provider.requests[0]?.body, "agent");
  assert.match(description, /- reviewer: Reviews a change\./);
  assert.ok(!description.includes("tester"), description);
  assert.match(result.stderr, /agents: typo is not an agent this workspace can call/);
  assert.equal(systemPromptOf(provider.requests[1]), "You review.");
  assert.match(String(toolResultsOf(provider.requests[2])[0]?.content), /^fine\n/);
});

Deno.test("rienda sessions lists a child under its parent; show links both ways; -s continues the child", async () => {
  await using provider = await startFakeProvider([
    ...REVIEW,
    { text: "approved" },
    { text: "still good" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  const result = await env.run(["run", "-a", "lead", "get a.ts reviewed"]);
  assert.equal(result.code, 0, result.stderr);
  const parentId = sessionIdOf(result.stderr);
  const childId = /\[reviewer\] started \(session (\S+)\)/.exec(result.stderr)?.[1] ?? "";
  const listed = await env.run(["sessions"]);
  assert.equal(listed.code, 0, listed.stderr);
  const rows = listed.stdout.trimEnd().split("\n");
  assert.equal(rows.length, 2, listed.stdout);
  assert.match(rows[0] ?? "", /^\S+\s+lead\s.*get a\.ts reviewed$/);
  assert.match(rows[1] ?? "", /^\S+\s+reviewer\s.*↳ review a\.ts$/);
  const parent = await env.run(["sessions", "show", parentId]);
  assert.match(
    parent.stdout,
    new RegExp(
      `── subagents \\(rienda sessions show ID\\) ──\\n${childId}  reviewer  call_1  review a\\.ts\\n$`,
    ),
  );
  const child = await env.run(["sessions", "show", childId]);
  assert.ok(
    child.stdout.startsWith(`subagent of session ${parentId} (call call_1)\nsession ${childId}\n`),
    child.stdout,
  );
  const more = await env.run(["run", "-s", childId, "and b.ts?"]);
  assert.equal(more.code, 0, more.stderr);
  assert.equal(more.stdout, "still good\n");
  assert.equal(systemPromptOf(provider.requests[3]), "You review.");
  assert.equal(chatMessages(provider.requests[3]).length, 4, "the child's history came along");
});
