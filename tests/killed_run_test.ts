/**
 * A run killed outright (`kill -9`) leaves calls without results; continuing
 * the session records each truthfully (docs/sessions.md): a call whose tool
 * had started "may have had effects", one whose tool never started "ended
 * before the tool ran".
 */

import assert from "node:assert/strict";
import { checkSession, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { descendantRunning, processesGone } from "./harness/processes.ts";
import { RIENDA_ENTRY } from "./harness/rienda.ts";
import { toolResultsOf } from "./harness/wire.ts";

Deno.test("a run killed with SIGKILL mid-tool is continued with 'the run ended while the tool ran'", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "echo started; sleep 27.75" } },
        { name: "shell", arguments: { command: "touch second-ran" } },
      ],
    },
    { text: "recovered" },
  ]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "work"]);
  await process.waitForStderr("started\n");
  const rienda = await descendantRunning(process.pid, RIENDA_ENTRY);
  assert.ok(rienda !== null, "no rienda process");
  Deno.kill(rienda, "SIGKILL");
  const killed = await process.wait();
  assert.ok(await processesGone("sleep 27.75", 5_000), "the command outlived rienda");
  const id = sessionIdOf(killed.stderr);
  // The file holds the answer and the start of the first tool, and no results.
  const before = checkSession(await env.readSession(id));
  assert.deepEqual(before.entries.map((entry) => entry.kind), ["message", "message", "tool_start"]);

  const next = await env.run(["run", "-s", id, "go on"]);
  assert.equal(next.code, 0, next.stderr);
  assert.equal(next.stdout, "recovered\n");
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "the run ended while the tool ran; it may have had effects" },
    { id: "call_2", content: "the run ended before the tool ran" },
  ]);
  await assert.rejects(Deno.stat(`${env.workdir}/second-ran`), Deno.errors.NotFound);
  const after = checkSession(await env.readSession(id));
  assert.deepEqual(after.entries.map((entry) => entry.kind), [
    "message",
    "message",
    "tool_start",
    "message",
    "message",
    "message",
  ]);
});
