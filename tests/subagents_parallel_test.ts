/**
 * Subagents side by side through the real CLI: two children of one turn in
 * flight at once, `subagents.max_parallel`, the stream-json nesting and the
 * json totals.
 */

import assert from "node:assert/strict";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";
import { at, parseJsonLines } from "./harness/json.ts";
import { toolResultsOf } from "./harness/wire.ts";

async function writeTeam(env: TestEnv): Promise<void> {
  await env.writeAgent("lead", { description: "Leads.", tools: ["agent"] }, "You lead.");
  await env.writeAgent("reviewer", { description: "Reviews a change." }, "You review.");
  await env.writeAgent("tester", { description: "Runs the tests." }, "You test.");
}

const BOTH: Turn = {
  when: "You lead.",
  toolCalls: [
    { name: "agent", arguments: { agent: "reviewer", prompt: "review it" } },
    { name: "agent", arguments: { agent: "tester", prompt: "test it" } },
  ],
};

Deno.test("two agent calls of one turn are in flight at the same time", async () => {
  await using provider = await startFakeProvider([
    BOTH,
    // Each child's answer waits until both children have asked: one after the other would hang.
    { when: "You review.", holdUntilRequests: 3, text: "reviewed" },
    { when: "You test.", holdUntilRequests: 3, text: "tested" },
    { when: "You lead.", text: "both done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  const result = await env.run(["run", "-a", "lead", "--output", "json", "ship it"]);
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout);
  assert.equal(summary.text, "both done");
  assert.equal(summary.subagents, 2);
  // Usage sums the parent's two requests and one request of each child (10 + 5 each).
  assert.equal(summary.usage.inputTokens, 40);
  assert.equal(summary.usage.outputTokens, 20);
  const results = toolResultsOf(provider.requests[3]);
  assert.deepEqual(results.map((entry) => entry.id), ["call_1", "call_2"]);
  assert.match(String(results[0]?.content), /^reviewed\n/);
  assert.match(String(results[1]?.content), /^tested\n/);
});

Deno.test("subagents.max_parallel makes the next child wait for a running one", async () => {
  await using provider = await startFakeProvider([
    BOTH,
    { when: "You review.", text: "reviewed" },
    { when: "You test.", text: "tested" },
    { when: "You lead.", text: "both done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(`${defaultConfig(provider.url)}subagents:\n  max_parallel: 1\n`);
  await writeTeam(env);
  const result = await env.run(["run", "-a", "lead", "--output", "stream-json", "ship it"]);
  assert.equal(result.code, 0, result.stderr);
  const events = parseJsonLines(result.stdout, "stdout");
  const index = (type: string, parent: string) =>
    events.findIndex((event) => at(event, "type") === type && at(event, "parent") === parent);
  const waiting = events.findIndex((event) =>
    at(event, "type") === "notice" && at(event, "parent") === "call_2"
  );
  assert.ok(waiting >= 0, "the second child said it waits");
  assert.match(String(at(events[waiting], "text")), /subagents\.max_parallel/);
  assert.ok(index("run_end", "call_1") < index("run_start", "call_2"), "one after the other");
});

Deno.test("stream-json carries each child's events with the parent call id", async () => {
  await using provider = await startFakeProvider([
    {
      when: "You lead.",
      toolCalls: [{ name: "agent", arguments: { agent: "tester", prompt: "t" } }],
    },
    {
      when: "You test.",
      toolCalls: [{ name: "agent", arguments: { agent: "reviewer", prompt: "r" } }],
    },
    { when: "You review.", text: "reviewed" },
    { when: "You test.", text: "tested" },
    { when: "You lead.", text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeTeam(env);
  await env.writeAgent("tester", { description: "Runs the tests.", tools: ["agent"] }, "You test.");
  const result = await env.run(["run", "-a", "lead", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const events = parseJsonLines(result.stdout, "stdout");
  const starts = events.filter((event) => at(event, "type") === "run_start");
  assert.deepEqual(starts.map((event) => [at(event, "agent"), at(event, "parent")]), [
    ["lead", undefined],
    ["tester", "call_1"],
    ["reviewer", "call_2"],
  ]);
  const grandchildCall = events.find((event) =>
    at(event, "type") === "tool_call" && at(event, "id") === "call_2"
  );
  assert.equal(at(grandchildCall, "parent"), "call_1");
  const last = events.at(-1);
  assert.equal(at(last, "type"), "run_end");
  assert.equal(at(last, "parent"), undefined);
  assert.equal(at(last, "text"), "done");
});
