import assert from "node:assert/strict";
import { join } from "node:path";
import { ExtensionHost } from "../host.ts";
import {
  makeContext,
  makeSandbox,
  returned,
  runTool,
  thrown,
} from "../../../tests/_testing/extension_fixtures.ts";

const sandbox = await makeSandbox();
const context = makeContext(sandbox);

/** Whether `pid` runs (a zombie left for a non-reaping init counts as dead). */
async function processAlive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/** The first non-null value of `probe`, polled every 10 ms; fails after 10 s. */
async function until<T>(probe: () => Promise<T | null>): Promise<T> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("ctx.system", async (t) => {
  using host = new ExtensionHost();

  await t.step("exec() returns code, stdout and stderr and streams output live", async () => {
    const output: string[] = [];
    const body = `return ctx.system.exec("echo out; echo err >&2; exit 3");`;
    const result = returned(
      await runTool(host, context, body, { output: (text) => output.push(text) }),
    );
    assert.deepEqual(result, { code: 3, stdout: "out\n", stderr: "err\n" });
    assert.deepEqual(output.join("").split("\n").sort(), ["", "err", "out"]);
  });

  await t.step("exec() runs in the workspace, or in cwd, with env added", async () => {
    await Deno.mkdir(join(sandbox.workdir, "sub"), { recursive: true });
    const body =
      `return [ctx.system.exec("pwd").stdout.trim(), ctx.system.exec("pwd", { cwd: "sub" }).stdout.trim(),
      ctx.system.exec("echo $RIENDA_X-$HOME", { env: { RIENDA_X: "added" } }).stdout.trim()];`;
    assert.deepEqual(returned(await runTool(host, context, body)), [
      sandbox.workdir,
      join(sandbox.workdir, "sub"),
      `added-${Deno.env.get("HOME")}`,
    ]);
    const missing = thrown(
      await runTool(host, context, `ctx.system.exec("true", { cwd: "nope" });`),
    );
    assert.equal(missing.message, "ctx.system.exec: cwd is not a directory: nope");
  });

  await t.step("exec() kills the process group on timeout_ms and returns code -1", async () => {
    const started = performance.now();
    const body = `return ctx.system.exec("echo start; sleep 10; echo never", { timeout_ms: 200 });`;
    const result = returned(await runTool(host, context, body));
    assert.deepEqual(result, { code: -1, stdout: "start\n", stderr: "" });
    assert.ok(performance.now() - started < 3000);
  });

  await t.step({
    name: "exec() is killed with its whole group when the run is interrupted",
    // Whether the child lives is read from /proc.
    ignore: Deno.build.os !== "linux",
    fn: async () => {
      const pidFile = join(sandbox.root, "child.pid");
      const controller = new AbortController();
      const body = `ctx.system.exec("sleep 30 & echo $! > ${pidFile}; wait");`;
      const started = performance.now();
      const running = runTool(host, context, body, { signal: controller.signal });
      // Interrupted once the child runs (its pid is written), not after a guessed delay.
      const pid = await until(async () =>
        Number((await Deno.readTextFile(pidFile)).trim()) || null
      );
      controller.abort();
      const result = await running;
      assert.equal(result.kind === "stopped" && result.reason, "interrupted");
      assert.ok(performance.now() - started < 10_000);
      assert.equal(await until(async () => (await processAlive(pid)) ? null : true), true);
    },
  });

  await t.step("which() finds executables on PATH and returns null otherwise", async () => {
    const body = `return [ctx.system.which("sh"), ctx.system.which("no-such-tool-rienda")];`;
    const found = returned(await runTool(host, context, body));
    assert.ok(Array.isArray(found));
    assert.match(String(found[0]), /\/sh$/);
    assert.equal(found[1], null);
  });
});
