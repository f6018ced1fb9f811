/**
 * A session started (or switched) with `-f FILE` records the file's absolute
 * path, so `-c` and `-s` find the agent again from anywhere (docs/sessions.md).
 */

import assert from "node:assert/strict";
import { checkSession, lastLine, sessionIdOf } from "./harness/assertions.ts";
import { agentText, createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { systemPromptOf } from "./harness/wire.ts";

Deno.test("-c after -f FILE continues with the same agent file", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/review.md", agentText({ description: "R." }, "From the file."));
  const first = await env.run(["run", "-f", "./review.md", "first"]);
  assert.equal(first.code, 0, first.stderr);
  const id = sessionIdOf(first.stderr);
  const header = (await env.readSession(id))[0];
  assert.equal(header?.agent, "review");
  assert.equal(header?.agentFile, `${env.workdir}/review.md`);
  const continued = await env.run(["run", "-c", "second"]);
  assert.equal(continued.code, 0, continued.stderr);
  const resumed = await env.run(["run", "-s", id, "third"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  for (const request of provider.requests) assert.equal(systemPromptOf(request), "From the file.");
  // No switch entries: the agent never changed.
  const { entries } = checkSession(await env.readSession(id));
  assert.deepEqual(entries.filter((entry) => entry.kind === "agent"), []);
});

Deno.test("-s -a ID after -f FILE switches back to the agent by id", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  const file = await env.writeFile("elsewhere/coder.md", agentText({ description: "F." }, "File."));
  const id = sessionIdOf((await env.run(["run", "-f", file, "first"])).stderr);
  const switched = await env.run(["run", "-s", id, "-a", "coder", "second"]);
  assert.equal(switched.code, 0, switched.stderr);
  const again = await env.run(["run", "-c", "third"]);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(provider.requests.map(systemPromptOf), [
    "File.",
    "You answer briefly.",
    "You answer briefly.",
  ]);
  const { entries } = checkSession(await env.readSession(id));
  assert.deepEqual(entries.filter((entry) => entry.kind === "agent"), [
    { kind: "agent", agent: "coder" },
  ]);
});

Deno.test("continuing after the agent file was removed says which file and suggests -f", async () => {
  await using provider = await startFakeProvider([{ text: "a" }]);
  await using env = await createTestEnv({ provider });
  const file = await env.writeFile("workspace/gone.md", agentText({ description: "G." }, "Gone."));
  const id = sessionIdOf((await env.run(["run", "-f", file, "first"])).stderr);
  await Deno.remove(file);
  const refused = await env.run(["run", "-c", "second"]);
  assert.equal(refused.code, 1);
  assert.equal(
    lastLine(refused.stderr),
    `rienda: session ${id} uses the agent file ${file}, which no longer exists: pass -a AGENT or -f FILE to continue it with another agent`,
  );
  assert.equal(provider.requests.length, 1);
});
