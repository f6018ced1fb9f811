import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
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

Deno.test("interactive: the status line shows the agent's own reasoning level before the first message, and /thinking off turns it off", async () => {
  await using provider = await startFakeProvider([{ text: "answer 1" }, { text: "answer 2" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("thinker", { description: "Thinks.", tools: [], thinking: "high" });
  await using pty = await chat(env, ["-a", "thinker"]);
  await pty.waitFor(
    (s) => IDLE(s) && s.includes("thinker · fake/m · thinking high"),
    "the agent's level before the first message",
  );
  await send(pty, "one", "answer 1");
  await pty.type("/thinking off\r");
  await pty.waitFor((s) => IDLE(s) && s.includes("thinker · fake/m · thinking off"), "off");
  await send(pty, "two", "answer 2");
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
  const efforts = provider.requests.map((request) => at(request.body, "reasoning_effort"));
  assert.deepEqual(efforts, ["high", undefined]);
});
