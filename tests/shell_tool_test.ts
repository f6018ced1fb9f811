import assert from "node:assert/strict";
import {
  assistantEntry,
  checkSession,
  linesOf,
  sessionIdOf,
  toolCallBlock,
  toolResultBlock,
  toolResultsEntry,
  toolStartEntry,
  userPromptEntry,
} from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { chatMessages, toolResultsOf, wireToolCall } from "./harness/wire.ts";

Deno.test("a shell call runs, streams its output to stderr and returns it to the model", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo hi" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "greet"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "done\n");
  const id = sessionIdOf(result.stderr);
  assert.deepEqual(linesOf(result.stderr), [
    `session: ${id}`,
    'tool: shell {"command":"echo hi"}',
    "hi",
    "tool done: exit 0 · 1 line",
  ]);
  assert.equal(provider.requests.length, 2);
  assert.deepEqual(chatMessages(provider.requests[1]).slice(1), [
    { role: "user", content: "greet" },
    {
      role: "assistant",
      content: "",
      tool_calls: [wireToolCall("call_1", "shell", '{"command":"echo hi"}')],
    },
    { role: "tool", content: "hi", tool_call_id: "call_1" },
  ]);
});

Deno.test("a shell round trip is stored as tool_call and tool_result blocks", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo hi" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "greet"]);
  assert.equal(result.code, 0, result.stderr);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(session.entries, [
    userPromptEntry("greet"),
    assistantEntry([toolCallBlock("call_1", "shell", { command: "echo hi" })], "tool_use"),
    toolStartEntry("call_1"),
    toolResultsEntry(toolResultBlock("call_1", "hi", false)),
    assistantEntry([{ type: "text", text: "done" }], "end_turn"),
  ]);
});

Deno.test("fragmented tool-call arguments are reassembled and the model's call id is kept", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        id: "call_Xy9",
        name: "shell",
        arguments: { command: "echo 'fragments joined'" },
        fragments: 7,
      }],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(result.stderr.includes(`tool: shell {"command":"echo 'fragments joined'"}\n`));
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_Xy9", content: "fragments joined" },
  ]);
});

Deno.test("two calls in one turn run in order and their results travel together", async () => {
  await using provider = await startFakeProvider([
    {
      text: "Two things.",
      toolCalls: [
        { name: "shell", arguments: { command: "echo one" } },
        { name: "shell", arguments: { command: "echo two" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Two things.\n\ndone\n");
  assert.deepEqual(linesOf(result.stderr).slice(1), [
    'tool: shell {"command":"echo one"}',
    "one",
    "tool done: exit 0 · 1 line",
    'tool: shell {"command":"echo two"}',
    "two",
    "tool done: exit 0 · 1 line",
  ]);
  assert.deepEqual(chatMessages(provider.requests[1]).slice(2), [
    {
      role: "assistant",
      content: "Two things.",
      tool_calls: [
        wireToolCall("call_1", "shell", '{"command":"echo one"}'),
        wireToolCall("call_2", "shell", '{"command":"echo two"}'),
      ],
    },
    { role: "tool", content: "one", tool_call_id: "call_1" },
    { role: "tool", content: "two", tool_call_id: "call_2" },
  ]);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(session.entries.slice(1, 5), [
    assistantEntry([
      { type: "text", text: "Two things." },
      toolCallBlock("call_1", "shell", { command: "echo one" }),
      toolCallBlock("call_2", "shell", { command: "echo two" }),
    ], "tool_use"),
    toolStartEntry("call_1"),
    toolStartEntry("call_2"),
    toolResultsEntry(
      toolResultBlock("call_1", "one", false),
      toolResultBlock("call_2", "two", false),
    ),
  ]);
});

Deno.test("shell runs in the workspace, and in a sub-directory given by workdir", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "pwd" } },
        { name: "shell", arguments: { command: "pwd", workdir: "sub" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await Deno.mkdir(`${env.workdir}/sub`);
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: env.workdir },
    { id: "call_2", content: `${env.workdir}/sub` },
  ]);
});

Deno.test("a shell result holds stdout, then a stderr: section, without their final newlines", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo out; echo err >&2" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "out\nstderr:\nerr" },
  ]);
  const lines = linesOf(result.stderr);
  assert.ok(lines.includes("out") && lines.includes("err"), result.stderr);
  assert.ok(!result.stderr.includes("tool failed"));
});

Deno.test("a successful command without output returns (no output)", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "true" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [{ id: "call_1", content: "(no output)" }]);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(
    session.entries.slice(2),
    [
      toolStartEntry("call_1"),
      toolResultsEntry(toolResultBlock("call_1", "(no output)", false)),
      assistantEntry([{ type: "text", text: "done" }], "end_turn"),
    ],
  );
});

Deno.test("a tool result is capped at 256 KiB while the live output is not", async () => {
  const command = "head -c 300000 /dev/zero | tr '\\0' a";
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const content = String(toolResultsOf(provider.requests[1])[0]?.content);
  assert.ok(content.endsWith("[output truncated]"), content.slice(-100));
  const bytes = new TextEncoder().encode(content).length;
  assert.ok(bytes <= 256 * 1024 + "\n[output truncated]".length, `${bytes} bytes`);
  const kept = content.slice(0, content.lastIndexOf("[output truncated]")).trimEnd();
  assert.match(kept, /^a+$/);
  assert.ok(kept.length > 250_000, `only ${kept.length} bytes were kept`);
  assert.ok(result.stderr.includes("a".repeat(300_000)), "the live output was cut");
});
