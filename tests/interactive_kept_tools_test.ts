import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { configWithMcp, everythingEntry } from "./harness/mcp_servers.ts";
import { type PtySession, startPty } from "./harness/pty.ts";

function chat(env: TestEnv, args: readonly string[]): Promise<PtySession> {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home });
}

const IDLE = (screen: string) => screen.includes("Ask the agent something");

async function send(pty: PtySession, text: string, answer: string): Promise<void> {
  await pty.waitFor(IDLE, "the prompt");
  await pty.type(`${text}\r`);
  await pty.waitFor((s) => s.includes(answer) && IDLE(s), answer);
}

/** Whether process `pid` still runs. */
async function running(pid: string): Promise<boolean> {
  const probe = await new Deno.Command("kill", { args: ["-0", pid], stderr: "null" }).output();
  return probe.success;
}

const TOGGLE = "everything__toggle-simulated-logging";

Deno.test(
  "interactive: an MCP server runs for the whole chat, so a stateful one keeps its state between messages; it stops with the chat",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: TOGGLE, arguments: {} }] },
      { text: "logging on" },
      { toolCalls: [{ name: TOGGLE, arguments: {} }] },
      { text: "logging off" },
    ]);
    await using env = await createTestEnv({ provider });
    // Each start of the server appends its pid.
    const starts = `${env.workdir}/starts`;
    const entry = await everythingEntry();
    await env.writeConfig(configWithMcp(provider.url, {
      everything: {
        command: "sh",
        args: ["-c", `echo $$ >> '${starts}'; exec node '${entry}' stdio`],
      },
    }));
    await using pty = await chat(env, []);
    await send(pty, "turn it on", "logging on");
    await send(pty, "turn it off", "logging off");
    const result = (index: number) => JSON.stringify(provider.requests[index]?.body);
    // server-everything remembers which clients log: the second call stops what the first started.
    assert.match(result(1), /Started simulated, random-leveled logging/);
    assert.match(result(3), /Stopped simulated logging/);
    const pids = (await Deno.readTextFile(starts)).trim().split("\n");
    assert.equal(pids.length, 1, `the server started ${pids.length} times`);
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
    // The chat stops its servers before it exits.
    assert.equal(await running(pids[0]!), false, "the server outlived the chat");
  },
);
