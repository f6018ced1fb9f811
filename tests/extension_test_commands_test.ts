/**
 * `rienda tools test` and `rienda hooks test` as an author's test runner
 * (docs/cli.md): arguments and payloads from a file or standard input,
 * `--agent` for an agent's frontmatter, config and policies, and `--expect`
 * with a diff and exit 1 when the result differs.
 */

import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";

const ECHO = `module.exports = {
  description: "Echoes the word with the agent's settings.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  execute: function (ctx, args) {
    var prefix = (ctx.agent.config.echo || {}).prefix || "";
    return prefix + args.word + " from " + ctx.agent.name + " on " + ctx.session.modelId;
  },
};
`;

const REDACT = `module.exports = {
  afterToolExecute: function (ctx, call, result) {
    return { text: result.text.replace(/\\d{4}/g, "####") };
  },
};
`;

Deno.test("tools test reads --args from a file or stdin and runs as --agent", async () => {
  await using env = await createTestEnv();
  await env.writeTool("echo", ECHO);
  await env.writeAgent("shouty", {
    description: "Shouts.",
    model: "fake/m",
    tools: ["echo"],
    config: { echo: { prefix: ">> " } },
  });
  const file = await env.writeFile("workspace/args.json", '{"word": "hello"}');
  const fromFile = await env.run(["tools", "test", "echo", "--args", "@args.json"]);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  assert.equal(fromFile.stdout, "hello from test on fake/m\n");
  const fromStdin = await env.run(["tools", "test", "echo", "--args", "-", "--agent", "shouty"], {
    stdin: '{"word": "hi"}',
  });
  assert.equal(fromStdin.code, 0, fromStdin.stderr);
  assert.equal(fromStdin.stdout, ">> hi from shouty on fake/m\n");
  const missing = await env.run(["tools", "test", "echo", "--args", "@nope.json"]);
  assert.equal(missing.code, 2);
  assert.ok(
    missing.stderr.startsWith(
      `rienda: --args @nope.json: no such file ${env.workdir}/nope.json`,
    ),
    missing.stderr,
  );
  await Deno.writeTextFile(file, "{word");
  const invalid = await env.run(["tools", "test", "echo", "--args", "@args.json"]);
  assert.equal(invalid.code, 2);
  assert.ok(invalid.stderr.startsWith("rienda: --args (@args.json) is not valid JSON: "));
  const unknown = await env.run(["tools", "test", "echo", "--agent", "ghost"]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /agent "ghost" not found/);
});

Deno.test("tools test --expect passes silently and fails with a diff", async () => {
  await using env = await createTestEnv();
  await env.writeTool("echo", ECHO);
  const args = ["tools", "test", "echo", "--args", '{"word": "a"}'];
  const pass = await env.run([...args, "--expect", '"a from test on fake/m"']);
  assert.equal(pass.code, 0, pass.stderr);
  assert.equal(pass.stderr, "");
  const whole = await env.run([
    ...args,
    "--expect",
    '{"isError": false, "text": "a from test on fake/m"}',
  ]);
  assert.equal(whole.code, 0, whole.stderr);
  const fail = await env.run([...args, "--expect", '"b from test on fake/m"']);
  assert.equal(fail.code, 1);
  assert.equal(fail.stdout, "a from test on fake/m\n");
  assert.equal(
    fail.stderr,
    [
      "rienda: the result differs from --expect:",
      "--- expected",
      "+++ actual",
      "@@ -1,1 +1,1 @@",
      '-"b from test on fake/m"',
      '+"a from test on fake/m"',
      "",
    ].join("\n"),
  );
  const refused = await env.run([
    "tools",
    "test",
    "echo",
    "--expect",
    '{"text": "the tool was not executed: \\"word\\" is required", "isError": true}',
  ]);
  assert.equal(refused.code, 0, refused.stderr);
  const twice = await env.run([...args.slice(0, 3), "--args", "-", "--expect", "-"]);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /only one of --args and --expect can be - \(standard input\)/);
});

Deno.test("hooks test reads --payload from a file, compares --expect, and applies --agent's policy", async () => {
  await using env = await createTestEnv();
  await env.writeHook("redact", REDACT);
  await env.writeHook(
    "slow",
    `module.exports = { beforeToolExecute: function () { while (true) {} } };`,
  );
  await env.writeAgent("careful", {
    description: "Careful.",
    hooks: [{ name: "slow", fail_closed: true, timeout_ms: 200 }],
  });
  await env.writeFile(
    "workspace/payload.json",
    JSON.stringify({ call: { name: "shell" }, result: { text: "pin 1234" } }),
  );
  const base = ["hooks", "test", "redact", "afterToolExecute", "--payload", "@payload.json"];
  const pass = await env.run([...base, "--expect", '{"text": "pin ####"}']);
  assert.equal(pass.code, 0, pass.stderr);
  assert.equal(pass.stdout, '{"text":"pin ####"}\n');
  const fail = await env.run([...base, "--expect", "null"]);
  assert.equal(fail.code, 1);
  assert.ok(fail.stderr.startsWith("rienda: the return differs from --expect:\n"), fail.stderr);
  assert.ok(fail.stderr.includes('\n-null\n+{\n+  "text": "pin ####"\n+}\n'), fail.stderr);
  const guarded = await env.run([
    "hooks",
    "test",
    "slow",
    "beforeToolExecute",
    "--payload",
    '{"name": "shell"}',
    "--agent",
    "careful",
  ]);
  assert.equal(guarded.code, 1, guarded.stderr);
  assert.equal(
    guarded.stderr,
    'rienda: hook "slow" failed closed: did not finish within 200 ms (timeout_ms)\n',
  );
});

Deno.test("hooks test --help shows how each point is called, afterToolExecute with (ctx, call, result)", async () => {
  await using env = await createTestEnv();
  const help = await env.run(["hooks", "test", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.ok(help.stdout.includes("afterToolExecute(ctx, call, result)"), help.stdout);
  assert.ok(help.stdout.includes("beforeToolExecute(ctx, call) "), help.stdout);
  assert.ok(help.stdout.includes("--expect <json>"), help.stdout);
});

Deno.test("tools test --agent applies the timeout_ms of that agent's tools: entry", async () => {
  await using env = await createTestEnv();
  await env.writeTool(
    "spin",
    `module.exports = { description: "Spins.", parameters: { type: "object" },
  execute: function () { while (true) {} } };`,
  );
  await env.writeAgent("hasty", {
    description: "Hasty.",
    tools: [{ name: "spin", timeout_ms: 200 }],
  });
  const result = await env.run(["tools", "test", "spin", "--agent", "hasty"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "the tool did not finish within 200 ms (timeout_ms)\n");
});
