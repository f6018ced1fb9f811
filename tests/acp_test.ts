import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { agentText, initializeRequest, startAcpClient } from "./harness/acp_client.ts";
import { checkSession, userPromptEntry } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { processesRunning } from "./harness/processes.ts";
import { chatMessages, promptOf } from "./harness/wire.ts";

/** The SDK's client connected to `rienda acp` in `env`'s workspace. */
function editorFor(env: TestEnv, options: Partial<Parameters<typeof startAcpClient>[0]> = {}) {
  return startAcpClient({ cwd: env.workdir, home: env.userHome, riendaHome: env.home, ...options });
}

/** Every stdout line is one JSON-RPC 2.0 message. */
function assertOnlyJsonRpc(lines: readonly string[]): void {
  for (const line of lines) {
    const message: unknown = JSON.parse(line);
    assert.ok(
      typeof message === "object" && message !== null && "jsonrpc" in message &&
        message.jsonrpc === "2.0",
      `not a JSON-RPC line on stdout: ${line}`,
    );
  }
}

Deno.test("acp initializes, streams a prompt's answer as chunks and stores the session under the id it gave", async () => {
  const text = "The quick brown fox jumps over the lazy dog.";
  await using provider = await startFakeProvider([{ text, chunks: 5 }, { text: "Again." }]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env);
  const init = await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  assert.equal(init.protocolVersion, 1);
  assert.equal(init.agentInfo?.name, "rienda");
  assert.deepEqual(init.agentCapabilities?.promptCapabilities, {
    image: false,
    audio: false,
    embeddedContext: true,
  });
  assert.deepEqual(init.authMethods?.map((method) => method.id), [
    "environment",
    "rienda-auth-login",
  ]);
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const first = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "say it" }],
  });
  assert.equal(first.stopReason, "end_turn");
  const chunks = editor.updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk");
  assert.equal(chunks.length, 5);
  assert.equal(agentText(editor.updates, sessionId), text);
  assert.equal(promptOf(provider.requests[0]), "say it");
  // The second prompt continues the session: the model gets the first exchange.
  const second = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "again" }],
  });
  assert.equal(second.stopReason, "end_turn");
  assert.deepEqual(
    chatMessages(provider.requests[1]).map((message) => message.role),
    ["system", "user", "assistant", "user"],
  );
  const session = checkSession(await env.readSession(sessionId));
  assert.deepEqual(session.entries[0], userPromptEntry("say it"));
  assert.equal(await editor.close(), 0);
  assertOnlyJsonRpc(editor.stdoutLines());
});

Deno.test("acp passes an embedded file of the prompt as a resource block", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env);
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [
      { type: "text", text: "explain" },
      { type: "resource", resource: { uri: "file:///w/a.ts", text: "let a = 1;" } },
    ],
  });
  assert.equal(
    promptOf(provider.requests[0]),
    'explain\n\n<resource uri="file:///w/a.ts">\nlet a = 1;\n</resource>',
  );
});

Deno.test("acp reports a tool call with its kind, title and result, then the answer", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ id: "call_1", name: "shell", arguments: { command: "echo tool-out" } }] },
    { text: "Done." },
  ]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env);
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const response = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "run it" }],
  });
  assert.equal(response.stopReason, "end_turn");
  const tools = editor.updates.map((n) => n.update).filter((update) =>
    update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update"
  );
  assert.deepEqual(tools, [
    {
      sessionUpdate: "tool_call",
      toolCallId: "call_1",
      title: "shell echo tool-out",
      kind: "execute",
      status: "in_progress",
      locations: [],
      rawInput: { command: "echo tool-out" },
    },
    {
      sessionUpdate: "tool_call_update",
      toolCallId: "call_1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "tool-out" } }],
    },
  ]);
  assert.equal(agentText(editor.updates, sessionId), "Done.");
});

Deno.test("acp session/cancel during a stream answers cancelled at once, and the session takes another prompt", async () => {
  await using provider = await startFakeProvider([
    { text: "a slow answer that never ends ".repeat(4), chunks: 40, chunkDelayMs: 250 },
    { text: "Still here." },
  ]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env);
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const pending = editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "tell me slowly" }],
  });
  await editor.waitForUpdate((updates) => updates.length > 0);
  const cancelled = performance.now();
  await editor.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  assert.equal((await pending).stopReason, "cancelled");
  // Generous under load: the engine stops within a few hundred milliseconds.
  assert.ok(performance.now() - cancelled < 5_000, "the cancel took too long");
  const next = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "are you there?" }],
  });
  assert.equal(next.stopReason, "end_turn");
  assert.ok(agentText(editor.updates, sessionId).endsWith("Still here."));
  // The cancelled answer was not stored: the model sees the first prompt, then the second.
  assert.deepEqual(
    chatMessages(provider.requests[1]).map((message) => message.role),
    ["system", "user", "user"],
  );
});

Deno.test("acp answers malformed and unknown messages with JSON-RPC errors and keeps serving", async () => {
  await using provider = await startFakeProvider([{ text: "fine" }]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env);
  await editor.writeRaw("{this is not json\n");
  await editor.writeRaw("[1, 2]\n");
  const errors = () =>
    editor.stdoutLines().map((line): unknown => JSON.parse(line)).filter((message) =>
      typeof message === "object" && message !== null && "error" in message
    );
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  await editor.writeRaw('{"jsonrpc":"2.0","id":900,"method":"no/such_method","params":{}}\n');
  await editor.writeRaw('{"jsonrpc":"2.0","id":901,"method":"session/new","params":{"cwd":7}}\n');
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const response = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "still there?" }],
  });
  assert.equal(response.stopReason, "end_turn");
  const codes = errors().map((message) => JSON.stringify(message));
  assert.ok(codes.some((line) => line.includes('"code":-32700')), codes.join("\n"));
  assert.ok(
    codes.some((line) => line.includes('"id":900') && line.includes('"code":-32601')),
    codes.join("\n"),
  );
  assert.ok(codes.some((line) => line.includes('"code":-32600')), codes.join("\n"));
  assert.ok(
    codes.some((line) => line.includes('"id":901') && line.includes('"code":-32602')),
    codes.join("\n"),
  );
  await assert.rejects(
    editor.agent.request(acp.methods.agent.session.prompt, {
      sessionId: "no-such-session",
      prompt: [{ type: "text", text: "x" }],
    }),
    /no-such-session/,
  );
  await assert.rejects(
    editor.agent.request(acp.methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] }),
    /cwd must be an absolute path/,
  );
  assert.equal(await editor.close(), 0);
  assertOnlyJsonRpc(editor.stdoutLines());
});

Deno.test("acp whose editor goes away mid-turn stops the turn, kills its commands and exits", async () => {
  const marker = `acp-orphan-${crypto.randomUUID()}`;
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        name: "shell",
        arguments: { command: `echo started; sleep 29.5 # ${marker}` },
      }],
    },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env);
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const pending = editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "wait" }],
  }).catch(() => null);
  await editor.waitForUpdate((updates) =>
    updates.some(({ update }) => update.sessionUpdate === "tool_call")
  );
  while ((await processesRunning(marker)).length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const closed = performance.now();
  assert.equal(await editor.close(), 0);
  assert.ok(performance.now() - closed < 10_000, "rienda acp took too long to exit");
  await pending;
  assert.deepEqual(await processesRunning(marker), []);
  assert.equal(provider.requests.length, 1);
});

/** Opens a session in `env`'s workspace and runs one text prompt in it. */
async function promptOnce(
  editor: Awaited<ReturnType<typeof editorFor>>,
  env: TestEnv,
  text: string,
): Promise<{ sessionId: string; response: acp.PromptResponse }> {
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const response = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });
  return { sessionId, response };
}

Deno.test("acp stops with max_turn_requests at the agent's max_turns and with refusal on a content filter", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo again" } }] },
    { text: "I cannot help with that.", finishReason: "content_filter" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("short", { description: "d", tools: ["shell"], max_turns: 1 });
  await using limited = await editorFor(env, { args: ["-a", "short"] });
  assert.equal((await promptOnce(limited, env, "loop")).response.stopReason, "max_turn_requests");
  await using editor = await editorFor(env);
  assert.equal((await promptOnce(editor, env, "do it")).response.stopReason, "refusal");
});

Deno.test("acp reports a run that fails as a JSON-RPC error naming the failure", async () => {
  await using provider = await startFakeProvider([]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env, { args: ["-a", "nobody"] });
  await assert.rejects(promptOnce(editor, env, "hi"), /nobody/);
});

Deno.test("rienda acp --help prints its flags on stdout and exits 0", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["acp", "--help"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  for (const flag of ["--agent", "--agent-file", "--model", "--config", "--auto-approve"]) {
    assert.ok(result.stdout.includes(flag), result.stdout);
  }
});

Deno.test("rienda acp with stdin closed at once prints nothing and exits 0", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["acp"], { stdin: "" });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "");
});
