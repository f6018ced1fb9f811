/**
 * Sessions from other folders (docs/sessions.md): `-s` with a full id works
 * from any folder, the listing's short ids are accepted by `-s` and
 * `sessions show`, and `rienda sessions` in a subfolder of a project says
 * where the project's sessions are.
 */

import assert from "node:assert/strict";
import { checkSession, lastLine, linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { textContent, toolResultsOf } from "./harness/wire.ts";

async function started(env: TestEnv, prompt: string, cwd = env.workdir): Promise<string> {
  const result = await env.run(["run", "-a", "coder", prompt], { cwd });
  assert.equal(result.code, 0, result.stderr);
  return sessionIdOf(result.stderr);
}

Deno.test("run -s with a full id continues a session of another workspace, working there", async () => {
  await using provider = await startFakeProvider([
    { text: "first" },
    { toolCalls: [{ name: "shell", arguments: { command: "pwd" } }] },
    { text: "second" },
  ]);
  await using env = await createTestEnv({ provider });
  const id = await started(env, "start here");
  const elsewhere = await env.makeDir("elsewhere");
  const result = await env.run(["run", "-s", id, "go on"], { cwd: elsewhere });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "second\n");
  const lines = linesOf(result.stderr);
  assert.equal(lines[0], `session: ${id}`);
  assert.equal(
    lines[1],
    `session ${id} belongs to the workspace ${env.workdir}: the run works there`,
  );
  assert.equal(textContent(toolResultsOf(provider.requests[2])[0]?.content).trim(), env.workdir);
  // The same file grew; no session was started in the other folder.
  assert.equal((await env.sessionFiles()).length, 1);
  const { entries } = checkSession(await env.readSession(id));
  assert.equal(
    entries.filter((entry) => entry.kind === "message" && entry.role === "user").length,
    3,
  );
  // Showing it works from anywhere too.
  const shown = await env.run(["sessions", "show", id], { cwd: elsewhere });
  assert.equal(shown.code, 0, shown.stderr);
  assert.ok(shown.stdout.includes("start here"), shown.stdout);
});

Deno.test("a prefix or short id from another workspace names no session there", async () => {
  await using provider = await startFakeProvider([{ text: "first" }]);
  await using env = await createTestEnv({ provider });
  const id = await started(env, "start here");
  const elsewhere = await env.makeDir("elsewhere");
  for (const partial of [id.slice(0, 12), id.slice(-4)]) {
    const result = await env.run(["run", "-s", partial, "go on"], { cwd: elsewhere });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(
      lastLine(result.stderr),
      `rienda: no session "${partial}" in this workspace (rienda sessions lists them)`,
    );
  }
  assert.equal(provider.requests.length, 1);
});

Deno.test("the listing's short ids are accepted by run -s and sessions show", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  const first = await started(env, "first prompt");
  const second = await started(env, "second prompt");
  const listing = await env.run(["sessions"]);
  const shorts = linesOf(listing.stdout).map((line) => line.split(/\s{2,}/)[0] ?? "");
  assert.equal(shorts.length, 2);
  for (const short of shorts) assert.ok(short.length >= 4 && short.length < 26, short);
  assert.ok(second.endsWith(shorts[0] ?? "?") && first.endsWith(shorts[1] ?? "?"), shorts.join());
  const shown = await env.run(["sessions", "show", shorts[1] ?? ""]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.ok(shown.stdout.includes("first prompt"), shown.stdout);
  const resumed = await env.run(["run", "-s", shorts[1] ?? "", "again"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(sessionIdOf(resumed.stderr), first);
});

Deno.test("rienda sessions in a subfolder of a project says where the project's sessions are", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  await Deno.mkdir(`${env.workdir}/.git`);
  const sub = await env.makeDir("workspace/src");
  const deep = await env.makeDir("workspace/src/deep");
  await started(env, "one");
  await started(env, "two");
  await started(env, "three", sub);
  const result = await env.run(["sessions"], { cwd: deep });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "");
  assert.deepEqual(linesOf(result.stderr), [
    `no sessions in ${deep} (rienda run "PROMPT" starts one)`,
    `the project has 1 session in ${sub}: rienda sessions -C ${sub}`,
    `the project has 2 sessions in ${env.workdir}: rienda sessions -C ${env.workdir}`,
  ]);
  // Outside a git project (no .git above), only the first line.
  const outside = await env.makeDir("loose/inner");
  const loose = await env.run(["sessions"], { cwd: outside });
  assert.deepEqual(linesOf(loose.stderr), [
    `no sessions in ${outside} (rienda run "PROMPT" starts one)`,
  ]);
});

Deno.test("run -c in a subfolder of a project follows the rule of rienda sessions and says where the project's are", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  await Deno.mkdir(`${env.workdir}/.git`);
  const sub = await env.makeDir("workspace/src");
  await started(env, "one");
  await started(env, "two");
  const result = await env.run(["run", "-c", "go on"], { cwd: sub });
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    lastLine(result.stderr),
    `rienda: no session to continue in ${sub} (rienda run "PROMPT" starts one); ` +
      `the project has 2 sessions in ${env.workdir}: rienda run -C ${env.workdir} -c`,
  );
  assert.equal(provider.requests.length, 2);
  const listed = await env.run(["sessions"], { cwd: sub });
  assert.deepEqual(linesOf(listed.stderr), [
    `no sessions in ${sub} (rienda run "PROMPT" starts one)`,
    `the project has 2 sessions in ${env.workdir}: rienda sessions -C ${env.workdir}`,
  ]);
  // What the message says works.
  provider.push({ text: "continued" });
  const again = await env.run(["run", "-C", env.workdir, "-c", "go on"], { cwd: sub });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, "continued\n");
});
