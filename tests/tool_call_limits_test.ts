/**
 * What the model sends as tool calls is checked before anything sees it
 * (docs/cli.md, "Tool calls"): arguments over the payload limits are refused
 * (a guard can never fail open on them), and a call id used twice in one
 * answer gets a fresh id so the next request is valid.
 */

import assert from "node:assert/strict";
import { checkSession, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { arrayAt, at } from "./harness/json.ts";
import { chatMessages, toolResultsOf } from "./harness/wire.ts";

/** `levels` nested arrays as JSON text, written without recursion. */
function nestedJson(levels: number): string {
  return "[".repeat(levels) + "]".repeat(levels);
}

/** A tool that would deploy, and a guard that refuses prod and records what it saw. */
const DEPLOY = `module.exports = {
  description: "Deploys.",
  parameters: { type: "object" },
  execute: function (ctx, args) { ctx.file.write("deployed", String(args.target)); return "deployed"; },
};
`;
const GUARD = `module.exports = {
  beforeToolExecute: function (ctx, call) {
    ctx.file.write("guard-saw", JSON.stringify(call.arguments).slice(0, 200));
    if (call.arguments.target === "prod") return { allow: false, reason: "no deploys to prod" };
  },
  afterToolExecute: function (ctx, call, result) {
    ctx.file.write("after-saw", JSON.stringify({ arguments: call.arguments, result: result }), { append: true });
  },
};
`;

async function guardedEnv(provider: { url: string }) {
  const env = await createTestEnv({ provider });
  await env.writeTool("deploy", DEPLOY);
  await env.writeHook("guard", GUARD);
  await env.writeAgent("deployer", {
    description: "Deploys.",
    tools: ["deploy"],
    hooks: ["guard"],
  });
  return env;
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

for (
  const [what, pad, problem] of [
    ["nested 10,000 levels deep", nestedJson(10_000), "nested deeper than 64 levels"],
    ["of 2 MiB", JSON.stringify("x".repeat(2 * 1024 * 1024)), "larger than 1 MiB"],
  ] as const
) {
  Deno.test(`a guard never fails open on arguments ${what}: the call is refused before any hook`, async () => {
    await using provider = await startFakeProvider([
      {
        toolCalls: [{ name: "deploy", rawArguments: `{"target":"prod","pad":${pad}}` }],
      },
      { text: "ok" },
    ]);
    await using env = await guardedEnv(provider);
    const result = await env.run(["run", "-a", "deployer", "deploy to prod"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await exists(`${env.workdir}/deployed`), false, "the guarded tool ran");
    assert.equal(await exists(`${env.workdir}/guard-saw`), false, "beforeToolExecute saw the call");
    const refusal = `the tool was not executed: arguments ${problem}`;
    assert.deepEqual(toolResultsOf(provider.requests[1]), [{ id: "call_1", content: refusal }]);
    // afterToolExecute hooks see the refused call, with the arguments' stand-in.
    const placeholder = `[arguments ${problem}, not kept]`;
    assert.deepEqual(JSON.parse(await Deno.readTextFile(`${env.workdir}/after-saw`)), {
      arguments: placeholder,
      result: { text: refusal, isError: true },
    });
    assert.ok(result.stderr.includes(`tool: deploy "${placeholder}"\n`), result.stderr);
    const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
    assert.equal(at(session.entries[1], "blocks", 0, "toolCallRawArguments"), placeholder);
    assert.ok(JSON.stringify(session.entries).length < 10_000);
  });
}

Deno.test("arguments nested 64 levels reach the guard, which refuses prod", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "deploy", rawArguments: `{"target":"prod","pad":${nestedJson(63)}}` }] },
    { text: "ok" },
  ]);
  await using env = await guardedEnv(provider);
  const result = await env.run(["run", "-a", "deployer", "deploy to prod"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await exists(`${env.workdir}/deployed`), false);
  assert.ok((await Deno.readTextFile(`${env.workdir}/guard-saw`)).startsWith('{"target":"prod"'));
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: 'hook "guard" refused the call: no deploys to prod' },
  ]);
});

Deno.test("a guard that returns over-limit arguments refuses the call instead of passing them on", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "deploy", arguments: { target: "staging" } }] },
    { text: "ok" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool("deploy", DEPLOY);
  await env.writeHook(
    "deepen",
    `module.exports = {
  beforeToolExecute: function () { var v = []; for (var i = 0; i < 100; i++) v = [v]; return { arguments: { target: "staging", pad: v } }; },
};
`,
  );
  await env.writeAgent("deployer", {
    description: "Deploys.",
    tools: ["deploy"],
    hooks: ["deepen"],
  });
  const result = await env.run(["run", "-a", "deployer", "deploy"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await exists(`${env.workdir}/deployed`), false);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "the tool was not executed: arguments nested deeper than 64 levels" },
  ]);
});

for (const protocol of ["openai_chat_completions", "anthropic"] as const) {
  Deno.test(`a call id used twice in one answer gets a fresh one, and the replay is valid (${protocol})`, async () => {
    await using provider = await startFakeProvider([
      {
        toolCalls: [
          { id: "call_dup", name: "shell", arguments: { command: "echo one" } },
          { id: "call_dup", name: "shell", arguments: { command: "echo two" } },
        ],
      },
      { text: "done" },
    ]);
    await using env = await createTestEnv({ provider, protocol });
    const result = await env.run(["run", "-a", "coder", "twice"]);
    assert.equal(result.code, 0, result.stderr);
    const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
    const ids = arrayAt(session.entries[1], "blocks").map((block) =>
      String(at(block, "toolCallId"))
    );
    assert.equal(ids[0], "call_dup");
    assert.match(ids[1] ?? "", /^call_[0-9a-f]{24}$/);
    const results = session.entries.find((entry) =>
      entry.role === "user" && entry !== session.entries[0]
    );
    assert.deepEqual(
      arrayAt(results, "blocks").map((
        block,
      ) => [at(block, "toolResultCallId"), at(block, "toolResult", 0, "text")]),
      [[ids[0], "one"], [ids[1], "two"]],
    );
    // The replay carries each id once, each with its own result.
    const body = JSON.stringify(provider.requests[1]?.body);
    for (const id of ids) assert.equal(body.split(`"${id}"`).length - 1, 2, `${id} in ${body}`);
    if (protocol === "openai_chat_completions") {
      const calls = arrayAt(chatMessages(provider.requests[1])[2], "tool_calls");
      assert.deepEqual(calls.map((call) => at(call, "id")), ids);
    }
  });
}
