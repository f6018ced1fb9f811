/**
 * Writes that run code later need approval even inside the workspace
 * (docs/security.md, "Writes that run code later"): into `.git/` (a
 * `core.fsmonitor` in `.git/config` or a `.git/hooks/` script runs at the
 * user's next git command) and into `$RIENDA_HOME` (its tools, hooks, agents
 * and trust.json) when the workspace contains it.
 */

import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { runToolCalls } from "./harness/tool_run.ts";

const CONFIG = "[core]\n\trepositoryformatversion = 0\n";

Deno.test("write and edit into .git need approval, however the path is spelled", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/.git/config", CONFIG);
  await env.writeFile("workspace/.git/hooks/pre-commit.sample", "#!/bin/sh\n");
  await env.writeFile("workspace/vendor/lib/.git", "gitdir: ../../.git/modules/lib\n");
  await Deno.symlink(".git", `${env.workdir}/innocent`);
  const evil = "[core]\n\tfsmonitor = touch pwned\n";
  const refused = await runToolCalls(env, [
    { name: "write", arguments: { path: ".git/config", content: evil } },
    { name: "edit", arguments: { path: ".git/config", old_string: "0", new_string: "1" } },
    { name: "write", arguments: { path: ".git/hooks/pre-commit", content: "#!/bin/sh\nx\n" } },
    { name: "write", arguments: { path: "innocent/hooks/post-checkout", content: "x\n" } },
    { name: "write", arguments: { path: `${env.workdir}/.GIT/config`, content: evil } },
    { name: "write", arguments: { path: "vendor/lib/.git", content: "gitdir: /tmp/x\n" } },
    { name: "write", arguments: { path: "src/../.git/info/attributes", content: "x\n" } },
  ]);
  for (const result of refused) {
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /^refused to write \/.*: it is inside a \.git folder/, result.text);
    assert.match(result.text, /run rienda with -y \(--auto-approve\) to allow them/);
  }
  assert.equal(await Deno.readTextFile(`${env.workdir}/.git/config`), CONFIG);
  await assert.rejects(Deno.stat(`${env.workdir}/.git/hooks/pre-commit`), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(`${env.workdir}/.GIT`), Deno.errors.NotFound);
  // Files whose names only look like it are written freely.
  const free = await runToolCalls(env, [
    { name: "write", arguments: { path: ".gitignore", content: "dist/\n" } },
    { name: "write", arguments: { path: "docs/.git-notes.md", content: "x\n" } },
  ]);
  assert.deepEqual(free.map((result) => result.isError), [false, false]);
  const approved = await runToolCalls(env, [
    { name: "edit", arguments: { path: ".git/config", old_string: "= 0", new_string: "= 1" } },
  ], { flags: ["-y"] });
  assert.equal(approved[0]?.isError, false, approved[0]?.text);
});

Deno.test("writes into the rienda home need approval when the workspace contains it", async () => {
  await using env = await createTestEnv();
  const refused = await runToolCalls(env, [
    { name: "write", arguments: { path: "rienda-home/tools/evil/index.js", content: "x\n" } },
    { name: "write", arguments: { path: "rienda-home/trust.json", content: "{}\n" } },
    {
      name: "edit",
      arguments: {
        path: "rienda-home/agents/coder.md",
        old_string: "Answers briefly.",
        new_string: "Obeys.",
      },
    },
  ], { flags: ["-C", env.root] });
  for (const result of refused) {
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /^refused to write \/.*: it is inside rienda's home /, result.text);
  }
  await assert.rejects(Deno.stat(`${env.home}/tools/evil`), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(`${env.home}/trust.json`), Deno.errors.NotFound);
  assert.match(await Deno.readTextFile(`${env.home}/agents/coder.md`), /Answers briefly/);
});

Deno.test("a run whose workspace is the home directory says so once", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "hi"], { env: { HOME: env.workdir } });
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stderr.split("\n").filter((line) => line.includes("home directory"));
  assert.deepEqual(lines, [
    `the workspace is your home directory ${env.workdir}: the file tools may change any file in it ` +
    "(writes into .git and into rienda's home still ask); start rienda in a project folder, or pass -C DIR",
  ]);
});
