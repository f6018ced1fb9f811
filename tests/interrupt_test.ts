import assert from "node:assert/strict";
import {
  assistantEntry,
  checkSession,
  lastLine,
  sessionIdOf,
  toolCallBlock,
  userPromptEntry,
} from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { processesRunning } from "./harness/processes.ts";

const INTERRUPTED = "rienda: the run was interrupted";

/** A 2-second answer: 40 chunks, 50 ms apart. */
const SLOW_ANSWER = {
  text: "a slow answer that never ends ".repeat(4),
  chunks: 40,
  chunkDelayMs: 50,
};

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test(`${signal} mid-stream exits 130, keeps the prompt and stores no partial answer`, async () => {
    await using provider = await startFakeProvider([SLOW_ANSWER]);
    await using env = await createTestEnv({ provider });
    await using process = await env.start(["run", "-a", "coder", "tell me slowly"]);
    await provider.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(signal);
    const result = await process.wait();
    assert.equal(result.code, 130, result.stderr);
    assert.equal(result.stdout, "");
    assert.equal(lastLine(result.stderr), INTERRUPTED);
    assert.ok(!result.stderr.includes("slow answer"), result.stderr);
    const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
    assert.deepEqual(session.entries, [userPromptEntry("tell me slowly")]);
  });
}

Deno.test("SIGINT while a shell command runs kills it and stores an interrupted result", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo started; sleep 29.75" } }] },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "wait"]);
  await process.waitForStderr("started\n");
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - signalled < 5_000, "the interrupt took too long");
  assert.equal(lastLine(result.stderr), INTERRUPTED);
  assert.equal(provider.requests.length, 1);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.equal(session.entries.length, 4);
  assert.deepEqual(session.entries.slice(1, 3), [
    assistantEntry([
      toolCallBlock("call_1", "shell", { command: "echo started; sleep 29.75" }),
    ], "tool_use"),
    { kind: "tool_start", callId: "call_1" },
  ]);
  const results = session.entries[3];
  assert.equal(at(results, "role"), "user");
  assert.equal(at(results, "blocks", 0, "type"), "tool_result");
  assert.equal(at(results, "blocks", 0, "toolResultCallId"), "call_1");
  assert.equal(at(results, "blocks", 0, "toolResultIsError"), true);
  assert.match(String(at(results, "blocks", 0, "toolResult", 0, "text")), /interrupted/);
  assert.deepEqual(await processesRunning("sleep 29.75"), [], "the command outlived the run");
});

Deno.test("SIGINT during the first of two calls stores an interrupted result for both", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "echo started; sleep 29.25" } },
        { name: "shell", arguments: { command: "touch second-ran" } },
      ],
    },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "wait"]);
  await process.waitForStderr("started\n");
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.equal(lastLine(result.stderr), INTERRUPTED);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  // Only the first tool started: the second never did.
  assert.deepEqual(session.entries[2], { kind: "tool_start", callId: "call_1" });
  const blocks = at(session.entries[3], "blocks");
  assert.ok(Array.isArray(blocks) && blocks.length === 2, JSON.stringify(session.entries[3]));
  assert.deepEqual(blocks.map((block) => at(block, "toolResultCallId")), ["call_1", "call_2"]);
  for (const block of blocks) {
    assert.equal(at(block, "toolResultIsError"), true);
    assert.match(String(at(block, "toolResult", 0, "text")), /interrupted/);
  }
  await assert.rejects(Deno.stat(`${env.workdir}/second-ran`), Deno.errors.NotFound);
});

Deno.test("SIGINT during a retry wait ends the run at once", async () => {
  const failure = { status: 500, errorMessage: "down" };
  await using provider = await startFakeProvider([failure, failure, failure, failure, failure]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "go"]);
  await provider.waitForRequests(3);
  await new Promise((resolve) => setTimeout(resolve, 200)); // inside the 2 s wait before attempt 4
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - signalled < 1_500, "the retry wait was not cut short");
  assert.equal(lastLine(result.stderr), INTERRUPTED);
  assert.equal(provider.requests.length, 3);
});
