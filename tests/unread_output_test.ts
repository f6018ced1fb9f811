import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { childEnv, riendaDenoArgs } from "./harness/rienda.ts";

// A script that pipes rienda's stderr (or stdout) and never reads it must not make rienda
// unstoppable: the pipe fills, yet SIGINT still ends the run with 130.
for (const unread of ["stderr", "stdout"] as const) {
  Deno.test(`SIGINT ends a run whose ${unread} is a pipe nobody reads`, async () => {
    await using provider = await startFakeProvider([
      {
        toolCalls: [{
          name: "shell",
          arguments: { command: "yes | head -c 300000; echo filled > ./go; sleep 1000" },
        }],
      },
      { text: "never reached" },
    ]);
    await using env = await createTestEnv({ provider });
    await new Deno.Command("mkfifo", { args: [`${env.workdir}/go`] }).output();
    // The stream goes to a fifo that rienda's own shell keeps open and nobody reads.
    const fifo = `${env.root}/unread`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const fd = unread === "stdout" ? 1 : 2;
    const child = new Deno.Command("sh", {
      args: [
        "-c",
        `exec 3<>"$0"; exec "$@" ${fd}>"$0"`,
        fifo,
        Deno.execPath(),
        ...riendaDenoArgs([
          "run",
          "-a",
          "coder",
          "--output",
          // Live tool output goes to stderr in text, to stdout in stream-json.
          unread === "stdout" ? "stream-json" : "text",
          "go",
        ]),
      ],
      cwd: env.workdir,
      clearEnv: true,
      env: await childEnv({ cwd: env.workdir, home: env.userHome, riendaHome: env.home }),
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const status = child.status;
    try {
      // 300 KB of output is more than the fifo and the command's pipe hold: with blocking
      // writes the command never gets past it.
      const filled = await Deno.readTextFile(`${env.workdir}/go`, {
        signal: AbortSignal.timeout(10_000),
      }).catch(() => "");
      assert.equal(filled, "filled\n", "the command stayed blocked behind the unread pipe");
      child.kill("SIGINT");
      const stopped = await Promise.race([
        status,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
      ]);
      assert.ok(stopped !== null, "rienda did not stop within 10 s of SIGINT");
      assert.equal(stopped.code, 130);
    } finally {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await status;
    }
  });
}
