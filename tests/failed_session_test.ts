import assert from "node:assert/strict";
import { checkSession, linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { chatMessages } from "./harness/wire.ts";

const MESSAGE = "the request was refused (status 400)";

Deno.test("a run that failed at the provider leaves its session marked failed until it is answered", async () => {
  await using provider = await startFakeProvider([
    { status: 400, errorMessage: "the request was refused" },
  ]);
  await using env = await createTestEnv({ provider });
  const failed = await env.run(["run", "-a", "coder", "fix the bug"]);
  assert.equal(failed.code, 1, failed.stderr);
  const id = sessionIdOf(failed.stderr);
  const { entries } = checkSession(await env.readSession(id));
  assert.deepEqual(entries.at(-1), { kind: "failure", error: MESSAGE });
  const listed = await env.run(["sessions"]);
  assert.match(listed.stdout, /^\S+ {2}coder {2}fake\/m {2}.+? {2}\(failed\) fix the bug$/m);
  const shown = await env.run(["sessions", "show", id]);
  assert.ok(shown.stdout.includes(`── the run failed: ${MESSAGE} ──`), shown.stdout);
  provider.push({ text: "fixed" });
  const again = await env.run(["run", "-c", "try again"]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(sessionIdOf(again.stderr), id);
  // The failure entry is no message: the conversation goes on as it was stored.
  const users = chatMessages(provider.requests.at(-1)).filter((message) => message.role === "user");
  assert.deepEqual(users.map((message) => String(message.content)), ["fix the bug", "try again"]);
  const relisted = await env.run(["sessions"]);
  assert.ok(!relisted.stdout.includes("(failed)"), relisted.stdout);
  assert.equal(linesOf(relisted.stdout).length, 1);
});
