/**
 * `deno task install` (docs/cli.md, Agent files as commands): a `rienda`
 * launcher that runs this checkout with the binary's permission set in the
 * caller's folder, so shebang agents work from source.
 */

import assert from "node:assert/strict";
import { sessionIdOf } from "./harness/assertions.ts";
import { agentText, createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { DENO_CONFIG } from "./harness/rienda.ts";

function install(env: TestEnv, args: readonly string[], PATH = "/usr/bin:/bin") {
  return env.exec(Deno.execPath(), ["task", "-q", "--config", DENO_CONFIG, "install", ...args], {
    env: { PATH },
  });
}

Deno.test("deno task install writes a launcher into ~/.local/bin and says it is not on PATH", async () => {
  await using env = await createTestEnv();
  const result = await install(env, []);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const bin = `${env.userHome}/.local/bin`;
  assert.deepEqual(result.stdout.split("\n"), [
    `installed ${bin}/rienda: it runs rienda from ${
      DENO_CONFIG.replace(/\/deno\.json$/, "")
    } with the permission set "rienda" of deno.json`,
    `${bin} is not on your PATH: add it (e.g. export PATH="${bin}:$PATH" in your shell profile)`,
    "",
  ]);
  const launcher = await Deno.readTextFile(`${bin}/rienda`);
  assert.match(launcher, /^#!\/bin\/sh\n/);
  assert.ok(launcher.includes("-P=rienda") && launcher.includes("--no-prompt"), launcher);
  assert.ok(!/-A\b|--allow-|RIENDA_DEV_CWD/.test(launcher), launcher);
  assert.ok(((await Deno.stat(`${bin}/rienda`)).mode ?? 0) & 0o100, "not executable");
});

Deno.test("the launcher runs a shebang agent from source in the caller's folder", async () => {
  await using provider = await startFakeProvider([{ text: "reviewed" }]);
  await using env = await createTestEnv({ provider });
  const bin = `${env.root}/bin`;
  const PATH = `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
  const installed = await install(env, ["--dir", bin], PATH);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /is on your PATH: run rienda --help\n$/);
  const sub = await env.makeDir("workspace/sub");
  await env.writeFile(
    "workspace/sub/review.md",
    `#!/usr/bin/env -S rienda run -f\n${agentText({ description: "Reviews." }, "You review.")}`,
    0o755,
  );
  const result = await env.exec("./review.md", ["check"], { cwd: sub, env: { PATH } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "reviewed\n");
  const header = (await env.readSession(sessionIdOf(result.stderr)))[0];
  assert.equal(header?.workdir, sub);
  const version = await env.exec(`${bin}/rienda`, ["--version"], { cwd: sub });
  assert.match(version.stdout, /^rienda 0\.1\.0 \([0-9a-f]{7}\)\n$/);
  assert.equal(version.stderr, "");
});

Deno.test("deno task install never replaces a file that is not its launcher", async () => {
  await using env = await createTestEnv();
  const path = await env.writeFile("bin/rienda", "#!/bin/sh\necho the real binary\n", 0o755);
  const result = await install(env, ["--dir", `${env.root}/bin`]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `install: ${path} exists and is not a rienda launcher: remove it, or pass another folder with --dir DIR\n`,
  );
  assert.equal(await Deno.readTextFile(path), "#!/bin/sh\necho the real binary\n");
  // Its own launcher is replaced (an install from another checkout, a new deno).
  await Deno.remove(path);
  assert.equal((await install(env, ["--dir", `${env.root}/bin`])).code, 0);
  assert.equal((await install(env, ["--dir", `${env.root}/bin`])).code, 0);
});
