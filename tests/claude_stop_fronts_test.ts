/**
 * A Claude Code hook's `continue: false` as the chat and an editor (ACP)
 * show it: the turn ends with the hook's reason, and the conversation goes on.
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { agentText, initializeRequest, startAcpClient } from "./harness/acp_client.ts";
import { writeClaudeScript } from "./harness/claude_scripts.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { startPty } from "./harness/pty.ts";

/** A python3 PreToolUse hook that stops the run when the Bash command holds `STOP`. */
const STOP_ON_MARK = `import json, sys
event = json.load(sys.stdin)
if "STOP" in event.get("tool_input", {}).get("command", ""):
    print(json.dumps({"continue": False, "stopReason": "budget spent"}))
`;
const HOOK = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/stop.py"';

const PROMPT_READY = (screen: string) => screen.includes("Ask the agent something");

/** The screen with its line breaks and indents as single spaces: a notice may wrap anywhere. */
const flat = (screen: string) => screen.replace(/\s+/g, " ");

Deno.test(
  "chat: a turn a Claude Code hook stopped ends with its reason, and the chat takes the next message",
  {
    ignore: Deno.build.os !== "linux",
  },
  async () => {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "shell", arguments: { command: "echo STOP > ran.txt" } }] },
      { text: "second answer" },
    ]);
    await using env = await createTestEnv({ provider, trustedWorkspace: true });
    await writeClaudeScript(env, "stop.py", STOP_ON_MARK);
    await env.writeAgent("budgeted", {
      description: "Budgeted.",
      tools: ["shell"],
      hooks: [{ claude: "PreToolUse", matcher: "Bash", command: HOOK }],
    });
    await using pty = await startPty(["-a", "budgeted"], {
      cwd: env.workdir,
      home: env.userHome,
      riendaHome: env.home,
    });
    await pty.waitFor(PROMPT_READY, "the editor");
    await pty.type("go\r");
    const stopped = await pty.waitFor(
      (s) => flat(s).includes("stopped the run: budget spent") && PROMPT_READY(s),
      "the stop, then the editor",
    );
    assert.ok(flat(stopped).includes(`hook "${HOOK}" stopped the run: budget spent`), stopped);
    assert.equal(provider.requests.length, 1);
    assert.equal(await Deno.stat(`${env.workdir}/ran.txt`).then(() => true, () => false), false);
    // The chat stays open: the next message is a new turn of the same session.
    await pty.type("and now?\r");
    await pty.waitFor((s) => s.includes("second answer") && PROMPT_READY(s), "the next answer");
    assert.equal(provider.requests.length, 2);
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
    assert.equal((await env.sessionFiles()).length, 1);
  },
);

Deno.test("acp: a prompt a Claude Code hook stopped ends end_turn, saying why in the answer", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo STOP" } }] },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(env, "stop.py", STOP_ON_MARK);
  // config.yaml's hooks apply to the agent the editor's session runs.
  await env.writeConfig(
    `${defaultConfig(provider.url)}hooks:\n  - claude: PreToolUse\n    command: '${HOOK}'\n`,
  );
  await using editor = await startAcpClient({
    cwd: env.workdir,
    home: env.userHome,
    riendaHome: env.home,
  });
  await editor.agent.request(acp.methods.agent.initialize, initializeRequest());
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const answer = await editor.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "go" }],
  });
  assert.equal(answer.stopReason, "end_turn");
  assert.equal(
    agentText(editor.updates, sessionId).trim(),
    `hook "${HOOK}" stopped the run: budget spent`,
  );
  const failed = editor.updates.find((notification) =>
    notification.update.sessionUpdate === "tool_call_update" &&
    notification.update.status === "failed"
  );
  assert.ok(failed !== undefined, "the stopped call is a failed tool call");
  assert.equal(provider.requests.length, 1);
  assert.equal(await editor.close(), 0);
});
