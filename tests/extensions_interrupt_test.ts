import assert from "node:assert/strict";
import { checkSession, lastLine, sessionIdOf, toolResultBlock } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";

const INTERRUPTED = "rienda: the run was interrupted";

const SPIN = `module.exports = {
  description: "Never returns.",
  parameters: { type: "object" },
  execute: function (ctx) {
    ctx.log("spinning");
    while (true) {}
  },
};
`;

const AUDIT = `module.exports = {
  afterRun: function (ctx, event) { ctx.file.write("reason.txt", event.reason); },
};
`;

Deno.test("SIGINT stops a while (true) {} tool: exit 130, stored error result, afterRun sees interrupted", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "spin", arguments: {} }] },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool("spin", SPIN);
  await env.writeHook("audit", AUDIT);
  await env.writeAgent("spinner", { description: "Spins.", tools: ["spin"], hooks: ["audit"] });
  await using process = await env.start(["run", "-a", "spinner", "spin"]);
  await process.waitForStderr("spinning\n");
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - signalled < 4_000, "the interrupt took too long");
  assert.equal(lastLine(result.stderr), INTERRUPTED);
  assert.equal(provider.requests.length, 1);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(
    at(session.entries[3], "blocks"),
    [toolResultBlock("call_1", "the run was interrupted while the tool ran", true)],
  );
  assert.equal(await Deno.readTextFile(`${env.workdir}/reason.txt`), "interrupted");
});

Deno.test("SIGINT stops a hook stuck in a loop, and a stuck afterRun is cut after its grace period", async () => {
  await using provider = await startFakeProvider([{ text: "never asked" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "stuck",
    `module.exports = {
  beforeRun: function (ctx) { ctx.log("stuck"); while (true) {} },
  afterRun: function (ctx) { while (true) {} },
};
`,
  );
  await env.writeAgent("stuck", { description: "Stuck.", hooks: ["stuck"] });
  await using process = await env.start(["run", "-a", "stuck", "go"]);
  await process.waitForStderr('hook "stuck": stuck\n');
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  const elapsed = performance.now() - signalled;
  assert.equal(result.code, 130, result.stderr);
  // docs/extensions.md: afterRun runs after an interrupt with a short grace period of its own (0.5 s).
  assert.ok(elapsed > 400 && elapsed < 4_000, `${elapsed} ms`);
  assert.ok(
    result.stderr.includes('hook "stuck": afterRun: stopped after the grace period of 0.5 s\n'),
    result.stderr,
  );
  assert.equal(lastLine(result.stderr), INTERRUPTED);
  assert.equal(provider.requests.length, 0);
});
