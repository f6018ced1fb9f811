import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { initializeRequest, startAcpClient } from "./harness/acp_client.ts";
import { assertNothingSent, checkSession, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { chatMessages, toolResultsOf } from "./harness/wire.ts";

/** A beforePrompt hook: refuses prompts naming a ticket, tags the rest, says what day it is. */
const GATE = `module.exports = {
  beforePrompt: function (ctx, prompt) {
    if (/PROJ-\\d+/.test(prompt.text)) return { allow: false, reason: "ticket numbers stay out" };
    return { text: prompt.text.trim() + " (via gate)", context: "Today is Monday." };
  },
};
`;

Deno.test("rienda run: a refused prompt is neither sent nor stored, and exits 1 with the reason", async () => {
  await using provider = await startFakeProvider([]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("gate", GATE);
  await env.writeAgent("gated", { description: "Gated.", hooks: ["gate"] });
  const result = await env.run(["run", "-a", "gated", "fix PROJ-12 \u001b[31mnow"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    'rienda: hook "gate" refused the prompt: ticket numbers stay out\n',
  );
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("a refused prompt in a continued session leaves the session as it was", async () => {
  await using provider = await startFakeProvider([{ text: "hello" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("gate", GATE);
  await env.writeAgent("gated", { description: "Gated.", hooks: ["gate"] });
  const first = await env.run(["run", "-a", "gated", "hi"]);
  assert.equal(first.code, 0, first.stderr);
  const id = sessionIdOf(first.stderr);
  const before = await env.readSession(id);
  const refused = await env.run(["run", "-a", "gated", "-s", id, "now PROJ-7"]);
  assert.equal(refused.code, 1, refused.stderr);
  assert.ok(refused.stderr.endsWith("refused the prompt: ticket numbers stay out\n"));
  assert.deepEqual(await env.readSession(id), before);
  assert.equal(provider.requests.length, 1);
});

Deno.test("beforePrompt's rewrite is stored and sent, its context read with it", async () => {
  await using provider = await startFakeProvider([{ text: "noted" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("gate", GATE);
  await env.writeAgent("gated", { description: "Gated.", hooks: ["gate"] });
  const result = await env.run(["run", "-a", "gated", "  plan the week  "]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(chatMessages(provider.requests[0]).slice(1), [
    { role: "user", content: "plan the week (via gate)\n\nToday is Monday." },
  ]);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(session.entries[0], {
    kind: "message",
    role: "user",
    blocks: [
      { type: "text", text: "plan the week (via gate)" },
      { type: "text", text: "Today is Monday." },
    ],
  });
});

Deno.test("rienda hooks test runs beforePrompt on a payload; rienda types knows it", async () => {
  await using env = await createTestEnv();
  await env.writeHook("gate", GATE);
  const refused = await env.run([
    "hooks",
    "test",
    "gate",
    "beforePrompt",
    "--payload",
    '{"text": "see PROJ-1"}',
  ]);
  assert.equal(refused.code, 0, refused.stderr);
  assert.equal(refused.stdout, '{"allow":false,"reason":"ticket numbers stay out"}\n');
  const missing = await env.run(["hooks", "test", "gate", "beforePrompt", "--payload", "{}"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /invalid beforePrompt payload: text must be a string/);
  const listed = await env.run(["hooks"]);
  assert.match(listed.stdout, /^gate {2}beforePrompt$/m);
  const types = await env.run(["types"]);
  assert.match(types.stdout, /beforePrompt\?: BeforePrompt;/);
});

Deno.test("rienda acp: a refused prompt is an error naming the hook, and the session starts later", async () => {
  await using provider = await startFakeProvider([{ text: "noted" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("gate", GATE);
  await env.writeAgent("gated", { description: "Gated.", hooks: ["gate"] });
  await using editor = await startAcpClient({
    cwd: env.workdir,
    home: env.userHome,
    riendaHome: env.home,
    args: ["-a", "gated"],
  });
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const prompt = (text: string) =>
    editor.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
  await assert.rejects(prompt("see PROJ-3"), /hook "gate" refused the prompt: ticket numbers/);
  assert.deepEqual(await env.sessionFiles(), []);
  assert.equal((await prompt("plan")).stopReason, "end_turn");
  const session = checkSession(await env.readSession(sessionId));
  assert.equal(session.entries.length, 2);
  assert.equal(await editor.close(), 0);
});

Deno.test("a subagent's task its beforePrompt hook refused fails the call, naming no session", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "agent", arguments: { agent: "gated", prompt: "close PROJ-9" } }] },
    { text: "the child would not" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("gate", GATE);
  await env.writeAgent("lead", { description: "Leads.", tools: ["agent"], agents: ["gated"] });
  await env.writeAgent("gated", { description: "Gated.", hooks: ["gate"] });
  const result = await env.run(["run", "-a", "lead", "delegate"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    'agent "gated" failed: hook "gate" refused the prompt: ticket numbers stay out',
  ]);
  assert.equal((await env.sessionFiles()).length, 1);
});
