import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { peakProcessResidentBytes } from "./harness/process_memory.ts";
import { childEnv, riendaDenoArgs } from "./harness/rienda.ts";

/** Bytes per second the terminal of these tests reads (a slow one: a remote session, a pager). */
const SLOW_BYTES_PER_SECOND = 2_000_000;

/** A CLI process whose stderr is read slowly, as a slow terminal would. */
interface SlowProcess extends AsyncDisposable {
  readonly pid: number;
  kill(signal: Deno.Signal): void;
  /** Resolves once this many bytes of stderr were read. */
  readBytes(count: number): Promise<void>;
  /** Resolves with the exit code and the last 2,000 characters of stderr. */
  readonly finished: Promise<{ code: number; stderrTail: string; exitedAt: number }>;
}

async function startWithSlowStderr(env: TestEnv, args: readonly string[]): Promise<SlowProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: riendaDenoArgs(args),
    cwd: env.workdir,
    clearEnv: true,
    env: await childEnv({ cwd: env.workdir, home: env.userHome, riendaHome: env.home }),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let read = 0;
  let tail = "";
  const waiters: { count: number; resolve: () => void }[] = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    const reader = child.stderr.getReader({ mode: "byob" });
    let buffer = new Uint8Array(4096);
    for (;;) {
      const { done, value } = await reader.read(buffer);
      if (done || value === undefined) break;
      read += value.byteLength;
      tail = (tail + decoder.decode(value, { stream: true })).slice(-2000);
      for (const waiter of waiters.filter((w) => read >= w.count)) waiter.resolve();
      buffer = new Uint8Array(value.buffer);
      await new Promise((resolve) =>
        setTimeout(resolve, (value.byteLength / SLOW_BYTES_PER_SECOND) * 1000)
      );
    }
  })();
  const exited = child.status.then((status) => ({
    code: status.code,
    exitedAt: performance.now(),
  }));
  return {
    pid: child.pid,
    kill: (signal) => child.kill(signal),
    readBytes: (count) => new Promise((resolve) => waiters.push({ count, resolve })),
    finished: Promise.all([exited, reading]).then(([status]) => ({ ...status, stderrTail: tail })),
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await Promise.all([child.status, reading]).catch(() => {});
    },
  };
}

/** Sends SIGINT and returns how long the process took to exit, with its code and stderr tail. */
async function interrupt(process: SlowProcess) {
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.finished;
  return { ...result, stopMs: result.exitedAt - signalled };
}

Deno.test("ctx.log into a slow terminal slows the tool, not memory, and SIGINT still stops the run at once", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "chatty", arguments: {} }] },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "chatty",
    `module.exports = {
  description: "Logs without end.",
  parameters: { type: "object" },
  execute: function (ctx) {
    var line = "progress ".repeat(100);
    for (;;) ctx.log(line);
  },
};
`,
  );
  await env.writeAgent("chatty", { description: "Chats.", tools: ["chatty"] });
  await using process = await startWithSlowStderr(env, ["run", "-a", "chatty", "go"]);
  const peak = peakProcessResidentBytes(process.pid, process.finished);
  // Before the window, 3 s of this grew the process past 250 MiB of queued messages.
  await process.readBytes(6_000_000);
  const { code, stderrTail, stopMs } = await interrupt(process);
  assert.equal(code, 130, stderrTail);
  assert.match(stderrTail, /rienda: the run was interrupted\n$/);
  assert.ok(stopMs < 3_000, `stopped ${Math.round(stopMs)} ms after SIGINT (it took 36 s before)`);
  const peakMiB = Math.round((await peak) / (1024 * 1024));
  assert.ok(peakMiB < 200, `the process peaked at ${peakMiB} MiB`);
});

Deno.test("command output into a slow terminal never delays SIGINT: the shell tool and ctx.system.exec", async () => {
  await using env = await createTestEnv();
  const command = "yes progress-line-progress-line | head -c 100000000";
  await env.writeTool(
    "exec",
    `module.exports = {
  description: "Runs a chatty command.",
  parameters: { type: "object" },
  execute: function (ctx) { return "code " + ctx.system.exec(${JSON.stringify(command)}).code; },
};
`,
  );
  for (
    const args of [
      ["tools", "test", "shell", "--args", JSON.stringify({ command })],
      ["tools", "test", "exec", "--args", "{}"],
    ]
  ) {
    await using process = await startWithSlowStderr(env, args);
    await process.readBytes(4_000_000);
    const { code, stderrTail, stopMs } = await interrupt(process);
    assert.equal(code, 130, `${args[2]}: ${stderrTail}`);
    assert.match(stderrTail, /rienda: the tool was interrupted\n$/);
    // Before, the 100 MB went to the terminal first: 22 s (shell) and over 57 s (exec).
    assert.ok(stopMs < 3_000, `${args[2]}: stopped ${Math.round(stopMs)} ms after SIGINT`);
  }
});
