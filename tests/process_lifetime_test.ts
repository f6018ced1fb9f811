/**
 * A command never outlives rienda: SIGHUP (a closed terminal) ends the run
 * like SIGTERM, and a rienda killed with SIGKILL takes its command's process
 * group with it (docs/cli.md, Interrupts and "Commands die with rienda").
 */

import assert from "node:assert/strict";
import { checkSession, lastLine, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { descendantRunning, processesGone } from "./harness/processes.ts";
import { RIENDA_ENTRY } from "./harness/rienda.ts";

/** The stored result text of the first tool call of a session's third message. */
function firstResultText(entries: readonly Record<string, unknown>[]): string {
  const results = entries.filter((entry) => entry.kind === "message")[2];
  return String(at(results, "blocks", 0, "toolResult", 0, "text"));
}

/** The pid of the rienda process itself (below `deno task`, or below `script`). */
async function riendaPid(ancestor: number): Promise<number> {
  const pid = await descendantRunning(ancestor, RIENDA_ENTRY);
  assert.ok(pid !== null, `no rienda process below pid ${ancestor}`);
  return pid;
}

Deno.test("SIGHUP while a shell command runs exits 130, kills the group and keeps the session", async () => {
  const command = "echo started; sleep 28.5; touch late";
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command } }] },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "wait"]);
  await process.waitForStderr("started\n");
  process.kill("SIGHUP");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.match(firstResultText(session.entries), /interrupted/);
  assert.ok(await processesGone("sleep 28.5", 2_000), "the command outlived the run");
});

Deno.test("closing the terminal mid-command ends the run like SIGHUP", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const command = "echo started; sleep 28.25; touch late";
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command } }] },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await using terminal = await env.startInTerminal(["run", "-a", "coder", "wait"]);
  await terminal.waitForStdout("started");
  // The run waits for the command; the terminal emulator goes away.
  const rienda = await riendaPid(terminal.pid);
  terminal.kill("SIGKILL");
  await terminal.wait().catch(() => {});
  assert.ok(await processesGone("sleep 28.25", 3_000), "the command outlived the terminal");
  assert.ok(await pidGone(rienda, 3_000), "rienda outlived its terminal");
  const [file] = await env.sessionFiles();
  assert.ok(file !== undefined, "no session was stored");
  const session = checkSession(await env.readSession(file));
  assert.match(firstResultText(session.entries), /interrupted/);
});

Deno.test("a rienda killed with SIGKILL mid-command takes the command's process group with it", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const command = "echo started; sleep 1.75; touch side-effect";
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: `(${command}) & wait` } }] },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "wait"]);
  await process.waitForStderr("started\n");
  const rienda = await riendaPid(process.pid);
  Deno.kill(rienda, "SIGKILL");
  await process.wait();
  // Alive, the command would touch the file 1.75 s after it started.
  assert.ok(await processesGone("sleep 1.75", 5_000), "the command is still running");
  await assert.rejects(Deno.stat(`${env.workdir}/side-effect`), Deno.errors.NotFound);
});

/** Resolves true once process `pid` is gone, false after `timeoutMs`. */
async function pidGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (await Deno.stat(`/proc/${pid}`).then(() => true, () => false)) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
