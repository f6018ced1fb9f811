import assert from "node:assert/strict";
import { lastLine, linesOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";

const GUARD = `module.exports = {
  beforeToolExecute: function(ctx, call) {
    if (call.name === "shell" && /\\brm\\s+-rf\\b/.test(call.arguments.command || "")) {
      if (!ctx.confirm({ title: "Dangerous command", body: call.arguments.command })) {
        return { allow: false, reason: "refused by the user" };
      }
    }
  },
  afterRun: function(ctx, event) {
    ctx.log("finishing in " + ctx.workdir);
    ctx.file.write("reason.txt", event.reason);
    ctx.notify({ title: "rienda", body: "run finished: " + event.reason });
  },
};
`;

Deno.test("rienda hooks lists hooks with their points and reports broken ones on stderr with exit 1", async () => {
  await using env = await createTestEnv();
  const empty = await env.run(["hooks"]);
  assert.equal(empty.code, 0, empty.stderr);
  assert.equal(
    empty.stdout,
    "agent default runs no hooks (none in its hooks: or in config.yaml's)\n",
  );
  assert.equal(
    empty.stderr,
    `no hooks in ${env.home}/hooks (a hook is ${env.home}/hooks/<name>/index.js)\n`,
  );
  await env.writeHook("guard", GUARD);
  await env.writeHook("upper", `module.exports = { afterToolExecute: function () {} };`);
  await env.writeHook("empty", `module.exports = {};`);
  await env.writeHook(
    "typo",
    `module.exports = { beforeToolExecution: function () {}, afterRun: function () {} };`,
  );
  await env.writeTool("not-a-hook", `throw new Error("tools are not listed here");`);
  const result = await env.run(["hooks"]);
  assert.equal(result.code, 1, "a broken hook fails the listing");
  assert.deepEqual(linesOf(result.stdout), [
    "agent default runs no hooks (none in its hooks: or in config.yaml's)",
    "",
    `installed in ${env.home}/hooks:`,
    "guard  afterRun, beforeToolExecute",
    "  capabilities: full access",
    "typo   afterRun",
    "  capabilities: full access",
    "upper  afterToolExecute",
    "  capabilities: full access",
  ]);
  assert.deepEqual(linesOf(result.stderr), [
    'hook "empty": exports no hook point (expected at least one of: beforeRun, beforePrompt, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute, afterToolExecute)',
    'hook "typo": unknown point "beforeToolExecution" ignored (known: beforeRun, beforePrompt, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute, afterToolExecute)',
  ]);
  await Deno.remove(`${env.home}/hooks/empty`, { recursive: true });
  const fixed = await env.run(["hooks"]);
  assert.equal(fixed.code, 0, "an unknown point is only a warning");
  assert.equal(fixed.stdout, result.stdout);
});

Deno.test("rienda hooks test prints the validated return as JSON: a refusal, or null with -y", async () => {
  await using env = await createTestEnv();
  await env.writeHook("guard", GUARD);
  const payload = JSON.stringify({ name: "shell", arguments: { command: "rm -rf build" } });
  const refused = await env.run([
    "hooks",
    "test",
    "guard",
    "beforeToolExecute",
    "--payload",
    payload,
  ]);
  assert.equal(refused.code, 0, refused.stderr);
  assert.equal(refused.stdout, '{"allow":false,"reason":"refused by the user"}\n');
  const approved = await env.run([
    "hooks",
    "test",
    "guard",
    "beforeToolExecute",
    "--payload",
    payload,
    "-y",
  ]);
  assert.equal(approved.code, 0, approved.stderr);
  assert.equal(approved.stdout, "null\n");
});

Deno.test("rienda hooks test runs in the -C workspace and shows notices and ctx.notify on stderr", async () => {
  await using env = await createTestEnv();
  await env.writeHook("guard", GUARD);
  const other = await env.makeDir("other");
  const result = await env.run([
    "hooks",
    "test",
    "guard",
    "afterRun",
    "--payload",
    '{"reason":"interrupted"}',
    "-C",
    other,
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "null\n");
  assert.deepEqual(linesOf(result.stderr), [
    `hook "guard": finishing in ${other}`,
    "notify: rienda: run finished: interrupted",
  ]);
  assert.equal(await Deno.readTextFile(`${other}/reason.txt`), "interrupted");
});

Deno.test("rienda hooks test keeps only the point's fields of the right type, with notices", async () => {
  await using env = await createTestEnv();
  await env.writeHook(
    "rewriter",
    `module.exports = {
  afterToolExecute: function (ctx, call, result) {
    return { text: result.text.toUpperCase() + " from " + call.name, isError: "no", extra: 1 };
  },
  beforeModelRequest: function () { return [1]; },
  afterModelResponse: function () { throw new TypeError("nope"); },
};
`,
  );
  const after = await env.run([
    "hooks",
    "test",
    "rewriter",
    "afterToolExecute",
    "--payload",
    '{"call":{"name":"shell","arguments":{}},"result":{"text":"hello"}}',
  ]);
  assert.equal(after.code, 0, after.stderr);
  assert.equal(after.stdout, '{"text":"HELLO from shell"}\n');
  assert.equal(
    after.stderr,
    'hook "rewriter": afterToolExecute: "isError" must be a boolean (found a string), ignored\n',
  );
  const before = await env.run(["hooks", "test", "rewriter", "beforeModelRequest"]);
  assert.deepEqual([before.code, before.stdout], [0, "null\n"]);
  assert.equal(
    before.stderr,
    'hook "rewriter": beforeModelRequest: must return an object or nothing (returned an array)\n',
  );
  const threw = await env.run([
    "hooks",
    "test",
    "rewriter",
    "afterModelResponse",
    "--payload",
    '{"text":"hi"}',
  ]);
  assert.deepEqual([threw.code, threw.stdout], [0, "null\n"]);
  assert.equal(threw.stderr, 'hook "rewriter": afterModelResponse: TypeError: nope (index.js:6)\n');
});

Deno.test("rienda hooks test says what is wrong with points, payloads and names", async (t) => {
  await using env = await createTestEnv();
  await env.writeHook("guard", GUARD);
  await env.writeHook("broken", `module.exports = { afterRun: 3 };`);
  const cases = [
    [
      ["guard", "beforeTool"],
      2,
      /^rienda: unknown hook point "beforeTool" \(expected one of: beforeRun, beforePrompt, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute, afterToolExecute\)/,
    ],
    [["guard", "afterRun", "--payload", "{oops"], 2, /^rienda: --payload is not valid JSON: /],
    [
      ["guard", "afterRun", "--payload", '{"reason":"bored"}'],
      2,
      /^rienda: invalid afterRun payload: reason must be one of end_turn, interrupted, error/,
    ],
    [
      ["guard", "beforeToolExecute"],
      2,
      /^rienda: invalid beforeToolExecute payload: name must be a string/,
    ],
    [
      ["guard", "beforeRun"],
      1,
      /^rienda: hook "guard" does not implement beforeRun \(it implements: afterRun, beforeToolExecute\)$/,
    ],
    [["nope", "afterRun"], 1, /^rienda: unknown hook "nope" \(available: broken, guard\)$/],
    [
      ["broken", "afterRun"],
      1,
      /^rienda: hook "broken": "afterRun" must be a function \(found a number\)$/,
    ],
    [["guard"], 2, /^rienda: missing POINT \(after the hook's name guard\)/],
  ] as const;
  for (const [args, code, message] of cases) {
    await t.step(args.join(" "), async () => {
      const result = await env.run(["hooks", "test", ...args]);
      assert.equal(result.code, code, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(lastLine(result.stderr), message);
    });
  }
});

Deno.test("rienda hooks --help and hooks test --help show examples on stdout", async () => {
  await using env = await createTestEnv();
  for (const args of [["hooks", "--help"], ["hooks", "test", "--help"]]) {
    const result = await env.run(args);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /Examples:\n {2}rienda hooks/);
  }
});
