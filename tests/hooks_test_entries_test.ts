/**
 * `rienda hooks test --command JSON` and `--entry N` (docs/cli.md): a
 * command hook, a Claude Code hook or any entry of `rienda hooks` run on a
 * payload as a run calls it (placeholders, stdin JSON, exit 2, Nous's
 * answers, matcher, fail_closed, timeout_ms), printing the validated answer.
 */

import assert from "node:assert/strict";
import { lastLine, linesOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";

/** Refuses writes under generated/ (exit 2), else moves the path under safe/ (Nous's "modify"). */
const POLICY_MJS = `import { appendFileSync, readFileSync } from "node:fs";
const [tool, path] = process.argv.slice(2);
const event = JSON.parse(readFileSync(0, "utf8"));
appendFileSync("seen.log", JSON.stringify({ argv: [tool, path], ...event }) + "\\n");
if (path.startsWith("generated/")) {
  console.error(\`generated/ is rebuilt, not edited (\${tool} by \${event.session.agentId})\`);
  process.exit(2);
}
console.log(JSON.stringify({
  result: "modify",
  changes: { arguments: { ...event.call.arguments, path: "safe/" + path }, extra: 1 },
}));
`;

/** Redacts digits from a result; the point comes from argv. */
const REDACT_PY = `import json, re, sys
event = json.load(sys.stdin)
print(json.dumps({"text": re.sub(r"[0-9]", "#", event["result"]["text"]), "isError": "no"}))
`;

const WRITE = JSON.stringify({ id: "c1", name: "write", arguments: { path: "generated/x.ts" } });

/** Writes `hooks/<name>` of the workspace and trusts the project: only then do its files run as hooks. */
async function writeScript(env: TestEnv, name: string, text: string): Promise<void> {
  await Deno.mkdir(`${env.workdir}/hooks`, { recursive: true });
  await Deno.writeTextFile(`${env.workdir}/hooks/${name}`, text, { mode: 0o755 });
  assert.equal((await env.run(["trust"])).code, 0);
}

Deno.test("hooks test --command runs a node command hook as a run does: placeholders, stdin, exit 2, Nous's modify", async () => {
  await using env = await createTestEnv();
  await writeScript(env, "policy.mjs", POLICY_MJS);
  const command = '["node", "hooks/policy.mjs", "{tool}", "{path}"]';
  const refused = await env.run([
    "hooks",
    "test",
    "--command",
    command,
    "beforeToolExecute",
    "--payload",
    WRITE,
  ]);
  assert.equal(refused.code, 0, refused.stderr);
  assert.equal(
    refused.stdout,
    '{"allow":false,"reason":"generated/ is rebuilt, not edited (write by test)"}\n',
  );
  const [seen] = linesOf(await Deno.readTextFile(`${env.workdir}/seen.log`)).map((line) =>
    JSON.parse(line)
  );
  assert.deepEqual(seen.argv, ["write", "generated/x.ts"]);
  assert.equal(seen.point, "beforeToolExecute");
  assert.deepEqual(seen.call, { id: "c1", name: "write", arguments: { path: "generated/x.ts" } });
  assert.equal(seen.session.workdir, env.workdir);
  // The point may be left out: the hook runs at beforeToolExecute only. --expect holds the answer.
  const modified = await env.run([
    "hooks",
    "test",
    "--command",
    command,
    "--payload",
    '{"name": "edit", "arguments": {"path": "src/a.ts", "old": "x"}}',
    "--expect",
    '{"arguments": {"old": "x", "path": "safe/src/a.ts"}}',
  ]);
  assert.equal(modified.code, 0, modified.stderr);
  assert.equal(modified.stdout, '{"arguments":{"path":"safe/src/a.ts","old":"x"}}\n');
  const differs = await env.run([
    "hooks",
    "test",
    "--command",
    command,
    "--payload",
    '{"name": "edit", "arguments": {"path": "src/a.ts"}}',
    "--expect",
    "null",
  ]);
  assert.equal(differs.code, 1);
  assert.match(differs.stderr, /^rienda: the return differs from --expect:\n--- expected/m);
});

Deno.test("hooks test --command takes a whole entry: fail_closed and timeout_ms apply, a failure is a notice without", async () => {
  await using env = await createTestEnv();
  const slow = '["sh", "-c", "sleep 30"]';
  const closed = await env.run([
    "hooks",
    "test",
    "--command",
    `{"command": ${slow}, "timeout_ms": 300, "fail_closed": true}`,
    "beforeToolExecute",
    "--payload",
    '{"name": "shell"}',
  ]);
  assert.equal(closed.code, 1);
  assert.equal(closed.stdout, "");
  assert.equal(
    lastLine(closed.stderr),
    `rienda: hook "sh -c 'sleep 30'" failed closed: did not finish within 300 ms (timeout_ms)`,
  );
  const open = await env.run([
    "hooks",
    "test",
    "--command",
    '["sh", "-c", "echo nope >&2; exit 1"]',
    "beforeToolExecute",
    "--payload",
    '{"name": "shell"}',
  ]);
  assert.equal(open.code, 0, open.stderr);
  assert.equal(open.stdout, "null\n");
  assert.equal(
    open.stderr,
    `hook "sh -c 'echo nope >&2; exit 1'": beforeToolExecute: exited 1: nope\n`,
  );
  // An afterToolExecute answer is checked like a JavaScript hook's: the wrong type is dropped.
  await writeScript(env, "redact.py", REDACT_PY);
  const redacted = await env.run([
    "hooks",
    "test",
    "--command",
    '{"command": ["python3", "hooks/redact.py"], "on": ["afterToolExecute"]}',
    "--payload",
    '{"call": {"name": "shell"}, "result": {"text": "card 4111 1111"}}',
  ]);
  assert.equal(redacted.code, 0, redacted.stderr);
  assert.equal(redacted.stdout, '{"text":"card #### ####"}\n');
  assert.match(redacted.stderr, /"isError" must be a boolean \(found a string\), ignored/);
});

Deno.test("hooks test --entry N runs entry N of rienda hooks with its matcher; a claude: entry too", async () => {
  await using env = await createTestEnv();
  await writeScript(env, "policy.mjs", POLICY_MJS);
  await writeScript(
    env,
    "bash_guard.py",
    `import json, sys
event = json.load(sys.stdin)
command = event["tool_input"]["command"]
if event["hook_event_name"] == "PreToolUse" and "rm -rf" in command:
    print("rm -rf is not allowed: " + command, file=sys.stderr)
    sys.exit(2)
`,
  );
  await env.writeConfig(
    defaultConfig("http://127.0.0.1:1/v1") +
      [
        "hooks:",
        "  - command: [node, hooks/policy.mjs, '{tool}', '{path}']",
        "    matcher: write|edit",
        "  - claude: PreToolUse",
        "    matcher: Bash",
        '    command: "python3 \\"$CLAUDE_PROJECT_DIR\\"/hooks/bash_guard.py"',
        "",
      ].join("\n"),
  );
  await env.writeAgent("careful", {
    description: "Careful.",
    hooks: [{ command: ["sh", "-c", "echo agent hook >&2; exit 2"], priority: -1 }],
  });
  const listed = await env.run(["hooks", "-a", "careful"]);
  assert.match(listed.stdout, /^1 {2}sh -c 'echo agent hook >&2; exit 2'$/m);
  assert.match(listed.stdout, /^3 {2}python3 /m);
  const policy = await env.run(["hooks", "test", "--entry", "1", "--payload", WRITE]);
  assert.equal(policy.code, 0, policy.stderr);
  assert.equal(
    policy.stdout,
    '{"allow":false,"reason":"generated/ is rebuilt, not edited (write by default)"}\n',
  );
  const notMatched = await env.run([
    "hooks",
    "test",
    "--entry",
    "1",
    "--payload",
    '{"name": "shell", "arguments": {"command": "ls"}}',
  ]);
  assert.equal(notMatched.code, 0, notMatched.stderr);
  assert.equal(notMatched.stdout, "null\n");
  assert.equal(
    notMatched.stderr,
    'hook "node hooks/policy.mjs": beforeToolExecute: not called for tool "shell" (matcher "write|edit")\n',
  );
  const rm = '{"name": "shell", "arguments": {"command": "rm -rf /"}}';
  const claude = await env.run(["hooks", "test", "--entry", "2", "--payload", rm]);
  assert.equal(claude.code, 0, claude.stderr);
  assert.equal(claude.stdout, '{"allow":false,"reason":"rm -rf is not allowed: rm -rf /"}\n');
  const allowed = await env.run([
    "hooks",
    "test",
    "--entry",
    "2",
    "beforeToolExecute",
    "--payload",
    '{"name": "shell", "arguments": {"command": "ls"}}',
  ]);
  assert.deepEqual([allowed.code, allowed.stdout], [0, "null\n"]);
  // With -a the numbers are that agent's run: its priority -1 entry comes first.
  const agent = await env.run(["hooks", "test", "-a", "careful", "--entry", "1", "--payload", rm]);
  assert.equal(agent.code, 0, agent.stderr);
  assert.equal(agent.stdout, '{"allow":false,"reason":"agent hook"}\n');
  const past = await env.run(["hooks", "test", "--entry", "4", "--payload", rm]);
  assert.equal(past.code, 2);
  assert.match(
    past.stderr,
    /^rienda: --entry 4: a run of agent default has 2 hook entries \(rienda hooks -a default lists them\)/,
  );
});

Deno.test("hooks test NAME takes config.yaml's settings for the hook, as a run does", async () => {
  await using env = await createTestEnv();
  await env.writeHook(
    "guard",
    `module.exports = { beforeToolExecute: function () { throw new Error("boom"); } };`,
  );
  const open = await env.run(["hooks", "test", "guard", "beforeToolExecute", "--payload", WRITE]);
  assert.deepEqual([open.code, open.stdout], [0, "null\n"]);
  await env.writeConfig(
    defaultConfig("http://127.0.0.1:1/v1") + "hooks:\n  - { name: guard, fail_closed: true }\n",
  );
  const closed = await env.run(["hooks", "test", "guard", "beforeToolExecute", "--payload", WRITE]);
  assert.equal(closed.code, 1, closed.stderr);
  assert.match(lastLine(closed.stderr), /^rienda: hook "guard" failed closed: .*boom/);
});

Deno.test("hooks test --command and --entry say what is wrong with one usage error", async (t) => {
  await using env = await createTestEnv();
  const cases = [
    [
      ["--command", '"node hooks/x.mjs"'],
      /^rienda: --command: must be an argv list such as \["node", "hooks\/x.mjs"\] \(found "node hooks\/x.mjs"\); a command hook never runs through a shell/,
    ],
    [["--command", '["node", 3]'], /^rienda: --command\[1\]: /],
    [["--command", '{"command": ["x"], "on": ["beforeTool"]}'], /^rienda: --command\.on/],
    [["--command", '["x"]', "--entry", "1"], /^rienda: --entry and --command choose the hook/],
    [["--entry", "0"], /^rienda: --entry must be the number of an entry of rienda hooks/],
    [["--entry", "1", "guard", "afterRun"], /^rienda: with --entry give only the POINT/],
    [["--command", '["x"]', "afterRun"], /^rienda: hook "x" does not implement afterRun/],
    [
      ["--command", '{"command": ["x"], "on": ["beforeRun", "afterRun"]}'],
      /^rienda: missing POINT: hook "x" runs at beforeRun, afterRun/,
    ],
  ] as const;
  for (const [args, message] of cases) {
    await t.step(args.join(" "), async () => {
      const result = await env.run(["hooks", "test", ...args]);
      assert.notEqual(result.code, 0);
      assert.equal(result.stdout, "");
      assert.match(lastLine(result.stderr), message);
    });
  }
});

Deno.test("hooks test --command runs a claude: entry as Claude Code would; its continue: false is a stop (exit 3)", async () => {
  await using env = await createTestEnv();
  await writeScript(
    env,
    "stop.py",
    `import json, sys
data = json.load(sys.stdin)
if data["tool_input"]["command"].startswith("deploy"):
    print(json.dumps({"continue": False, "stopReason": "deploys wait for review"}))
`,
  );
  const entry = JSON.stringify({
    claude: "PreToolUse",
    matcher: "Bash",
    command: 'python3 "$CLAUDE_PROJECT_DIR/hooks/stop.py"',
  });
  const stopped = await env.run([
    "hooks",
    "test",
    "--command",
    entry,
    "--payload",
    '{"name": "shell", "arguments": {"command": "deploy prod"}}',
  ]);
  assert.equal(stopped.code, 3, stopped.stderr);
  assert.equal(stopped.stdout, "");
  assert.equal(
    lastLine(stopped.stderr),
    'rienda: hook "python3 "$CLAUDE_PROJECT_DIR/hooks/stop.py"" stopped the run: deploys wait for review',
  );
  const other = await env.run([
    "hooks",
    "test",
    "--command",
    entry,
    "--payload",
    '{"name": "shell", "arguments": {"command": "ls"}}',
  ]);
  assert.deepEqual([other.code, other.stdout], [0, "null\n"]);
});
