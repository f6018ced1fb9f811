import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { agentText, initializeRequest, startAcpClient } from "./harness/acp_client.ts";
import { checkSession, sessionIdOf, userPromptEntry } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { processesRunning } from "./harness/processes.ts";
import { chatMessages, modelOf, promptOf, toolNamesOf } from "./harness/wire.ts";
import { at } from "./harness/json.ts";
import { everythingEntry } from "./harness/mcp_servers.ts";

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
  assert.deepEqual(toolUpdates(editor.updates), [
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

/** The tool updates of `updates` but live output (the updates without a status), in order. */
function toolUpdates(updates: readonly acp.SessionNotification[]): acp.SessionUpdate[] {
  return updates.map((n) => n.update).filter((update) =>
    update.sessionUpdate === "tool_call" ||
    (update.sessionUpdate === "tool_call_update" && update.status !== undefined)
  );
}

/** An agent with the file tools. */
const FILES_AGENT = { description: "d", tools: ["read", "write", "edit", "shell"] };

Deno.test("acp shows an edit and a new file's write as diffs on their updates", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        {
          id: "e1",
          name: "edit",
          arguments: { path: "notes.txt", old_string: "old line", new_string: "new line" },
        },
        { id: "w1", name: "write", arguments: { path: "fresh.txt", content: "hello\n" } },
        { id: "e2", name: "edit", arguments: { path: "notes.txt", old_string: "absent" } },
      ],
    },
    { text: "Edited." },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("files", FILES_AGENT);
  await Deno.writeTextFile(`${env.workdir}/notes.txt`, "first\nold line\n");
  await using editor = await editorFor(env, { args: ["-a", "files"] });
  const { response } = await promptOnce(editor, env, "edit it");
  assert.equal(response.stopReason, "end_turn");
  const [editCall, editDone, writeCall, writeDone, badCall, badDone] = toolUpdates(editor.updates);
  assert.deepEqual(editCall, {
    sessionUpdate: "tool_call",
    toolCallId: "e1",
    title: "edit notes.txt",
    kind: "edit",
    status: "in_progress",
    locations: [{ path: `${env.workdir}/notes.txt` }],
    rawInput: { path: "notes.txt", old_string: "old line", new_string: "new line" },
  });
  assert.ok(editDone?.sessionUpdate === "tool_call_update");
  assert.equal(editDone.status, "completed");
  assert.deepEqual(editDone.content?.[1], {
    type: "diff",
    path: `${env.workdir}/notes.txt`,
    oldText: "first\nold line\n",
    newText: "first\nnew line\n",
  });
  assert.equal(writeCall?.sessionUpdate === "tool_call" && writeCall.kind, "edit");
  assert.ok(writeDone?.sessionUpdate === "tool_call_update");
  assert.deepEqual(writeDone.content?.[1], {
    type: "diff",
    path: `${env.workdir}/fresh.txt`,
    oldText: null,
    newText: "hello\n",
  });
  // A failed edit (its arguments are incomplete) has no diff.
  assert.equal(badCall?.sessionUpdate, "tool_call");
  assert.ok(badDone?.sessionUpdate === "tool_call_update");
  assert.equal(badDone.status, "failed");
  assert.equal(badDone.content?.length, 1);
});

for (const answer of ["allow", "reject"] as const) {
  Deno.test(`acp asks the editor before a write outside the workspace, and ${answer} decides it`, async () => {
    await using provider = await startFakeProvider([
      {
        toolCalls: [{
          id: "w1",
          name: "write",
          arguments: { path: "../outside.txt", content: "x" },
        }],
      },
      { text: "Done." },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeAgent("files", FILES_AGENT);
    await using editor = await editorFor(env, {
      args: ["-a", "files"],
      permission: () => ({ outcome: { outcome: "selected", optionId: answer } }),
    });
    const { response } = await promptOnce(editor, env, "write outside");
    assert.equal(response.stopReason, "end_turn");
    const [request] = editor.permissionRequests;
    assert.equal(request?.toolCall.toolCallId, "w1");
    assert.deepEqual(request?.options.map((option) => option.kind), [
      "allow_once",
      "allow_always",
      "reject_once",
    ]);
    assert.ok(JSON.stringify(request?.toolCall.content).includes("outside the workspace"));
    const written = await Deno.readTextFile(`${env.root}/outside.txt`).catch(() => null);
    assert.equal(written, answer === "allow" ? "x" : null);
    const done = toolUpdates(editor.updates).at(-1);
    assert.ok(done?.sessionUpdate === "tool_call_update");
    assert.equal(done.status, answer === "allow" ? "completed" : "failed");
  });
}

Deno.test("acp remembers Always allow for the same question in the session, and -y asks nothing", async () => {
  const outside = { name: "write", arguments: { path: "../outside.txt", content: "x" } };
  await using provider = await startFakeProvider([
    { toolCalls: [outside] },
    { toolCalls: [outside] },
    { text: "Done." },
    { toolCalls: [outside] },
    { text: "Done again." },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("files", FILES_AGENT);
  await using editor = await editorFor(env, {
    args: ["-a", "files"],
    permission: () => ({ outcome: { outcome: "selected", optionId: "allow_always" } }),
  });
  assert.equal((await promptOnce(editor, env, "twice")).response.stopReason, "end_turn");
  assert.equal(editor.permissionRequests.length, 1);
  await using approved = await editorFor(env, { args: ["-a", "files", "-y"] });
  assert.equal((await promptOnce(approved, env, "again")).response.stopReason, "end_turn");
  assert.equal(approved.permissionRequests.length, 0);
  assert.equal(await Deno.readTextFile(`${env.root}/outside.txt`), "x");
});

Deno.test("acp session/cancel while a command runs kills it, answers cancelled, and the next prompt runs", async () => {
  const marker = `acp-cancel-${crypto.randomUUID()}`;
  await using provider = await startFakeProvider([
    { toolCalls: [{ id: "s1", name: "shell", arguments: { command: `sleep 29.5 # ${marker}` } }] },
    { text: "Next." },
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
  });
  while ((await processesRunning(marker)).length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await editor.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  assert.equal((await pending).stopReason, "cancelled");
  assert.deepEqual(await processesRunning(marker), []);
  const done = toolUpdates(editor.updates).at(-1);
  assert.ok(done?.sessionUpdate === "tool_call_update");
  assert.equal(done.status, "failed");
  const next = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "go on" }],
  });
  assert.equal(next.stopReason, "end_turn");
});

Deno.test("acp session/cancel while the editor is asked withdraws the question and answers cancelled", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "write", arguments: { path: "../outside.txt", content: "x" } }] },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("files", FILES_AGENT);
  // The editor never answers on its own: only the cancel ends the question.
  await using editor = await editorFor(env, {
    args: ["-a", "files"],
    permission: () => new Promise(() => {}),
  });
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const pending = editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "write outside" }],
  });
  await editor.waitForUpdate(() => editor.permissionRequests.length > 0);
  await editor.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  assert.equal((await pending).stopReason, "cancelled");
  assert.equal(await Deno.readTextFile(`${env.root}/outside.txt`).catch(() => null), null);
  assert.equal(provider.requests.length, 1);
});

Deno.test("acp asks a hook's ctx.confirm on a tool call of its own, with no Always allow", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "asker",
    `module.exports = {
  beforeRun: function (ctx) {
    ctx.log("confirmed=" + ctx.confirm({ title: "Deploy?", body: "to production" }));
  },
};
`,
  );
  await env.writeAgent("asking", { description: "d", hooks: ["asker"] });
  await using editor = await editorFor(env, {
    args: ["-a", "asking"],
    permission: () => ({ outcome: { outcome: "selected", optionId: "allow" } }),
  });
  assert.equal((await promptOnce(editor, env, "go")).response.stopReason, "end_turn");
  const [request] = editor.permissionRequests;
  assert.deepEqual(request?.options.map((option) => option.kind), ["allow_once", "reject_once"]);
  assert.deepEqual(toolUpdates(editor.updates), [
    {
      sessionUpdate: "tool_call",
      toolCallId: "rienda-confirm-1",
      title: "Deploy?",
      kind: "other",
      status: "pending",
      content: [{ type: "content", content: { type: "text", text: "Deploy?\n\nto production" } }],
    },
    { sessionUpdate: "tool_call_update", toolCallId: "rienda-confirm-1", status: "completed" },
  ]);
  assert.equal(await editor.close(), 0);
  assert.ok(editor.stderrText().includes("confirmed=true"), editor.stderrText());
});

Deno.test("acp session/load replays a session begun by rienda run, continues it, and rienda run continues it again", async () => {
  await using provider = await startFakeProvider([
    {
      thinking: "let me see",
      text: "Looking.",
      toolCalls: [{ id: "r1", name: "shell", arguments: { command: "echo from-run" } }],
    },
    { text: "It said from-run." },
    { text: "Continued in the editor." },
    { text: "Back in the terminal." },
  ]);
  await using env = await createTestEnv({ provider });
  const run = await env.run(["run", "-a", "coder", "what does it say?"]);
  assert.equal(run.code, 0, run.stderr);
  const sessionId = sessionIdOf(run.stderr);
  await using editor = await editorFor(env);
  const init = await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  assert.equal(init.agentCapabilities?.loadSession, true);
  await editor.agent.request(acp.methods.agent.session.load, {
    sessionId,
    cwd: env.workdir,
    mcpServers: [],
  });
  assert.deepEqual(editor.updates.map((n) => n.sessionId), editor.updates.map(() => sessionId));
  assert.deepEqual(editor.updates.map((n) => n.update), [
    { sessionUpdate: "user_message_chunk", content: { type: "text", text: "what does it say?" } },
    { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "let me see" } },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Looking." } },
    {
      sessionUpdate: "tool_call",
      toolCallId: "r1",
      title: "shell echo from-run",
      kind: "execute",
      status: "in_progress",
      locations: [],
      rawInput: { command: "echo from-run" },
    },
    {
      sessionUpdate: "tool_call_update",
      toolCallId: "r1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "from-run" } }],
    },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "It said from-run." } },
  ]);
  const response = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "and now?" }],
  });
  assert.equal(response.stopReason, "end_turn");
  const continued = chatMessages(provider.requests[2]);
  assert.deepEqual(continued.at(-1), { role: "user", content: "and now?" });
  assert.equal(continued.length, 6);
  const back = await env.run(["run", "-s", sessionId, "and back?"]);
  assert.equal(back.code, 0, back.stderr);
  assert.equal(back.stdout, "Back in the terminal.\n");
  assert.equal(chatMessages(provider.requests[3]).length, 8);
});

Deno.test("acp session/load of an unknown session is an error naming it, and the process goes on", async () => {
  await using env = await createTestEnv();
  await using editor = await editorFor(env);
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  await assert.rejects(
    editor.agent.request(acp.methods.agent.session.load, {
      sessionId: "01jzzzzzzzzzzzzzzzzzzzzzzz",
      cwd: env.workdir,
      mcpServers: [],
    }),
    /01jzzzzzzzzzzzzzzzzzzzzzzz/,
  );
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  assert.ok(sessionId.length > 0);
});

Deno.test("acp starts an editor's MCP server for the session and offers its tools next to the agent's", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        id: "m1",
        name: "Everything__echo",
        arguments: { message: "from the editor" },
      }],
    },
    { text: "Echoed." },
  ]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env);
  const init = await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: true });
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [{
      name: "Everything",
      command: "node",
      args: [await everythingEntry(), "stdio"],
      env: [],
    }],
  });
  const response = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "echo" }],
  });
  assert.equal(response.stopReason, "end_turn");
  const names = toolNamesOf(provider.requests[0]);
  // The default agent's tools first, then the editor's server's.
  assert.equal(names[0], "read");
  assert.ok(names.indexOf("Everything__echo") > names.indexOf("shell"), names.join(", "));
  const done = toolUpdates(editor.updates).at(-1);
  assert.ok(done?.sessionUpdate === "tool_call_update");
  assert.equal(done.status, "completed");
  assert.deepEqual(done.content?.[0], {
    type: "content",
    content: { type: "text", text: "Echo: from the editor" },
  });
});

Deno.test("acp --sandbox read-only confines the session's commands", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ id: "s1", name: "shell", arguments: { command: "echo x > inside.txt" } }] },
    { text: "Tried." },
  ]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env, { args: ["--sandbox", "read-only"] });
  assert.equal((await promptOnce(editor, env, "write")).response.stopReason, "end_turn");
  const done = toolUpdates(editor.updates).at(-1);
  assert.ok(done?.sessionUpdate === "tool_call_update");
  assert.match(JSON.stringify(done.content), /sandbox/);
  assert.equal(await Deno.lstat(`${env.workdir}/inside.txt`).then(() => true, () => false), false);
});

Deno.test("acp offers the model and the reasoning level as config options, and the next prompt uses a choice", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "two" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url).replace(
      "        id: fake-model\n",
      "        id: fake-model\n      big:\n        id: big-model\n",
    ),
  );
  await using editor = await editorFor(env);
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const created = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const [model, thinking] = created.configOptions ?? [];
  assert.ok(model?.type === "select" && thinking?.type === "select");
  assert.deepEqual([model.id, model.category, model.currentValue], ["model", "model", "fake/m"]);
  const values = model.options.flatMap((option) => "value" in option ? [option.value] : []);
  assert.deepEqual(values.slice(0, 2), ["fake/m", "fake/big"]);
  assert.deepEqual([thinking.id, thinking.category, thinking.currentValue], [
    "thinking",
    "thought_level",
    "off",
  ]);
  const { sessionId } = created;
  const prompt = (text: string) =>
    editor.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
  await prompt("first");
  const set = await editor.agent.request(acp.methods.agent.session.setConfigOption, {
    sessionId,
    configId: "model",
    value: "fake/big",
  });
  assert.equal(set.configOptions[0]?.currentValue, "fake/big");
  await editor.agent.request(acp.methods.agent.session.setConfigOption, {
    sessionId,
    configId: "thinking",
    value: "high",
  });
  await prompt("second");
  assert.deepEqual(provider.requests.map((request) => modelOf(request)), [
    "fake-model",
    "big-model",
  ]);
  assert.equal(at(provider.requests[1]?.body, "reasoning_effort"), "high");
  await assert.rejects(
    editor.agent.request(acp.methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: "nowhere/nothing",
    }),
    /"nowhere\/nothing" is not one of its values/,
  );
  // The switches are stored: the session continues with them from the terminal.
  const lines = await env.readSession(sessionId);
  assert.ok(lines.some((line) => line.kind === "model" && line.model === "fake/big"));
});

Deno.test("acp reads and edits the editor's buffers when it offers fs, and never asks it for a path outside the workspace", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { id: "r1", name: "read", arguments: { path: "notes.txt" } },
        {
          id: "e1",
          name: "edit",
          arguments: { path: "notes.txt", old_string: "old line", new_string: "new line" },
        },
        { id: "o1", name: "read", arguments: { path: "../outside.txt" } },
        { id: "o2", name: "write", arguments: { path: "../outside.txt", content: "disk" } },
      ],
    },
    { text: "Done." },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("files", FILES_AGENT);
  const notes = `${env.workdir}/notes.txt`;
  await Deno.writeTextFile(notes, "saved\nold line\n");
  await Deno.writeTextFile(`${env.root}/outside.txt`, "outside\n");
  const buffers = new Map([[notes, "unsaved\nold line\n"]]);
  await using editor = await editorFor(env, { args: ["-a", "files", "-y"], buffers });
  await editor.agent.request(
    acp.methods.agent.initialize,
    initializeRequest({ fs: { readTextFile: true, writeTextFile: true } }),
  );
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const response = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "edit the buffer" }],
  });
  assert.equal(response.stopReason, "end_turn");
  // The model read and changed the unsaved buffer; the disk is as it was.
  const results = toolUpdates(editor.updates).filter((update) =>
    update.sessionUpdate === "tool_call_update"
  );
  assert.match(JSON.stringify(results[0]), /unsaved/);
  assert.equal(buffers.get(notes), "unsaved\nnew line\n");
  assert.equal(await Deno.readTextFile(notes), "saved\nold line\n");
  assert.deepEqual(results[1]?.content?.[1], {
    type: "diff",
    path: notes,
    oldText: "unsaved\nold line\n",
    newText: "unsaved\nnew line\n",
  });
  assert.deepEqual([...new Set(editor.fsRequests.map((request) => request.method))], [
    "read",
    "write",
  ]);
  // A path outside the workspace is the disk's, never the editor's.
  assert.ok(
    editor.fsRequests.every((request) => request.path === notes),
    JSON.stringify(editor.fsRequests),
  );
  assert.match(JSON.stringify(results[2]), /outside/);
  assert.equal(await Deno.readTextFile(`${env.root}/outside.txt`), "disk");
});

Deno.test("acp shows a running command's output as it comes, then its result", async () => {
  const marker = `acp-live-${crypto.randomUUID()}`;
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        id: "s1",
        name: "shell",
        arguments: {
          command: `echo first; while [ ! -e ${marker} ]; do sleep 0.05; done; echo second`,
        },
      }],
    },
    { text: "Done." },
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
    prompt: [{ type: "text", text: "run" }],
  });
  // The command waits for the test: its first line must show while it still runs.
  await editor.waitForUpdate((updates) =>
    updates.some(({ update }) =>
      update.sessionUpdate === "tool_call_update" && update.status === undefined &&
      JSON.stringify(update.content).includes("first")
    )
  );
  await Deno.writeTextFile(`${env.workdir}/${marker}`, "");
  assert.equal((await pending).stopReason, "end_turn");
  const done = toolUpdates(editor.updates).at(-1);
  assert.ok(done?.sessionUpdate === "tool_call_update");
  assert.deepEqual(done.content?.[0], {
    type: "content",
    content: { type: "text", text: "first\nsecond" },
  });
});

Deno.test("acp keeps stdout protocol-only and keys masked whatever a command prints", async () => {
  const key = "sk-proj-Jd5Kf8Lg2Mh6Nj9Pk3Ql7Rm1Sn4";
  const fake = '{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}';
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        id: "s1",
        name: "shell",
        arguments: { command: `echo '${fake}'; echo "key=$OPENAI_API_KEY"; echo oops >&2` },
      }],
    },
    { text: `The key is ${key}.` },
  ]);
  await using env = await createTestEnv({ provider });
  await using editor = await editorFor(env, { env: { OPENAI_API_KEY: key } });
  assert.equal((await promptOnce(editor, env, "leak it")).response.stopReason, "end_turn");
  assert.equal(await editor.close(), 0);
  assertOnlyJsonRpc(editor.stdoutLines());
  const stdout = editor.stdoutLines().join("\n");
  assert.ok(!stdout.includes(key), "the key reached stdout");
  assert.ok(!editor.stderrText().includes(key), "the key reached stderr");
  const done = toolUpdates(editor.updates).at(-1);
  assert.ok(done?.sessionUpdate === "tool_call_update");
  assert.match(JSON.stringify(done.content), /key=\S/);
});
