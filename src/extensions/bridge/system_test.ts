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

  await t.step("exec() is killed with its whole group when the run is interrupted", async () => {
    const pidFile = join(sandbox.root, "child.pid");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const body = `ctx.system.exec("sleep 30 & echo $! > ${pidFile}; wait");`;
    const started = performance.now();
    const result = await runTool(host, context, body, { signal: controller.signal });
    assert.equal(result.kind === "stopped" && result.reason, "interrupted");
    assert.ok(performance.now() - started < 2000);
    const pid = Number((await Deno.readTextFile(pidFile)).trim());
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(await processAlive(pid), false);
  });

  await t.step("which() finds executables on PATH and returns null otherwise", async () => {
    const body = `return [ctx.system.which("sh"), ctx.system.which("no-such-tool-rienda")];`;
    const found = returned(await runTool(host, context, body));
    assert.ok(Array.isArray(found));
    assert.match(String(found[0]), /\/sh$/);
    assert.equal(found[1], null);
  });
});
