import assert from "node:assert/strict";
import {
  checkSession,
  linesOf,
  sessionIdOf,
  toolResultBlock,
  toolResultsEntry,
} from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { type ScriptedToolCall, startFakeProvider } from "./harness/fake_provider.ts";
import { toolNamesOf, toolResultsOf } from "./harness/wire.ts";

/** Runs one turn with `call`, then a closing answer; returns what the model read back. */
async function callOnce(call: ScriptedToolCall, agentTools?: string[]) {
  await using provider = await startFakeProvider([{ toolCalls: [call] }, { text: "ok" }]);
  await using env = await createTestEnv({ provider });
  let agent = "coder";
  if (agentTools !== undefined) {
    agent = "custom";
    await env.writeAgent(agent, { description: "Custom tools.", tools: agentTools });
  }
  const started = performance.now();
  const result = await env.run(["run", "-a", agent, "go"]);
  const elapsedMs = performance.now() - started;
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "ok\n");
  assert.equal(provider.requests.length, 2);
  const [sent] = toolResultsOf(provider.requests[1]);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  return {
    content: String(sent?.content),
    lines: linesOf(result.stderr),
    stored: session.entries.filter((entry) => entry.kind === "message")[2],
    // tool_start entries: one when the tool started, none when it was not executed.
    toolStarts: session.entries.filter((entry) => entry.kind === "tool_start").length,
    elapsedMs,
    firstRequest: provider.requests[0],
  };
}

Deno.test("a failing command is an error result the run continues after", async () => {
  const { content, lines, stored } = await callOnce({
    name: "shell",
    arguments: { command: "exit 3" },
  });
  assert.equal(content, "command exited with code 3");
  assert.deepEqual(lines.slice(1), [
    'tool: shell {"command":"exit 3"}',
    "tool failed: command exited with code 3",
  ]);
  assert.deepEqual(
    stored,
    toolResultsEntry(toolResultBlock("call_1", "command exited with code 3", true)),
  );
});

Deno.test("a failing command's result holds its stdout, its stderr and the exit code", async () => {
  const { content } = await callOnce({
    name: "shell",
    arguments: { command: "echo out; echo err >&2; exit 7" },
  });
  assert.equal(content, "out\nstderr:\nerr\ncommand exited with code 7");
});

Deno.test("a command past its timeout_ms is killed and reported in milliseconds", async () => {
  const { content, lines, stored, elapsedMs } = await callOnce({
    name: "shell",
    arguments: { command: "echo started; sleep 20", timeout_ms: 200 },
  });
  assert.equal(content, "started\ncommand timed out after 200ms");
  // the output was already streamed live, so the failure line carries the status alone
  assert.deepEqual(lines.slice(2), ["started", "tool failed: command timed out after 200ms"]);
  assert.deepEqual(
    stored,
    toolResultsEntry(toolResultBlock("call_1", "started\ncommand timed out after 200ms", true)),
  );
  assert.ok(elapsedMs < 15_000, `the run took ${elapsedMs}ms: the sleep was not killed`);
});

Deno.test("a timeout of a second or more is reported in seconds", async () => {
  const { content } = await callOnce({
    name: "shell",
    arguments: { command: "sleep 20", timeout_ms: 1500 },
  });
  assert.equal(content, "command timed out after 1.5s");
});

Deno.test("a call to a tool that does not exist returns unknown tool to the model", async () => {
  const { content, lines, stored } = await callOnce({ name: "ghost", arguments: {} });
  assert.match(content, /^unknown tool "ghost"( \(available: shell\))?$/);
  assert.equal(lines[1], "tool: ghost {}");
  assert.equal(lines[2], `tool failed: ${content}`);
  assert.deepEqual(stored, toolResultsEntry(toolResultBlock("call_1", content, true)));
});

Deno.test("a call to a built-in tool the agent does not list is an unknown tool", async () => {
  const { content, firstRequest } = await callOnce({
    name: "shell",
    arguments: { command: "echo should-not-run" },
  }, []);
  assert.match(content, /^unknown tool "shell"/);
  assert.deepEqual(toolNamesOf(firstRequest), []);
});

Deno.test("arguments that are not valid JSON are not executed", async () => {
  const { content, stored, toolStarts } = await callOnce({
    name: "shell",
    rawArguments: '{"command": "echo hi',
    fragments: 3,
  });
  assert.match(content, /^the tool was not executed: /);
  assert.equal(toolStarts, 0);
  assert.deepEqual(stored, toolResultsEntry(toolResultBlock("call_1", content, true)));
});

Deno.test("arguments that are not a JSON object are not executed", async () => {
  const { content } = await callOnce({ name: "shell", rawArguments: "[1, 2]" });
  assert.match(content, /^the tool was not executed: /);
});

Deno.test("arguments missing a required property name the property", async () => {
  const { content } = await callOnce({ name: "shell", arguments: { cmd: "ls" } });
  assert.match(content, /^the tool was not executed: /);
  assert.ok(content.includes("command"), content);
});

Deno.test("arguments of the wrong type name the property", async () => {
  const { content } = await callOnce({
    name: "shell",
    arguments: { command: "echo x", timeout_ms: "fast" },
  });
  assert.match(content, /^the tool was not executed: /);
  assert.ok(content.includes("timeout_ms"), content);
});
