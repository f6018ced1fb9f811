/**
 * Command hooks (docs/extending.md, "Command hooks"): programs run per hook
 * point from an agent's `hooks:` or config.yaml's, with placeholders, JSON on
 * stdin and their exit read as a verdict; matchers, priorities, fail-closed,
 * and what a hostile model or a misbehaving hook cannot do.
 */

import assert from "node:assert/strict";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { toolResultsOf } from "./harness/wire.ts";
import { at, parseJsonLines } from "./harness/json.ts";

/** Orkeon's pre-tool hook, adapted: logs every call, refuses writes under generated/. */
const POLICY_MJS = `import { appendFileSync, readFileSync } from "node:fs";
const [tool, path] = process.argv.slice(2);
const event = JSON.parse(readFileSync(0, "utf8"));
appendFileSync("calls.log", \`\${event.point} \${tool} \${path} \${event.session.agentId}\\n\`);
if (path.startsWith("generated/")) {
  console.error("generated/ is rebuilt, not edited");
  process.exit(2);
}
`;

/** Writes `hooks/<name>` of the workspace and trusts the project: only then do its files run as hooks. */
async function writeScript(env: TestEnv, name: string, text: string): Promise<void> {
  await Deno.mkdir(`${env.workdir}/hooks`, { recursive: true });
  await Deno.writeTextFile(`${env.workdir}/hooks/${name}`, text, { mode: 0o755 });
  assert.equal((await env.run(["trust"])).code, 0);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("a node command hook with placeholders refuses a write with exit 2, naming itself", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "write", arguments: { path: "generated/x.ts", content: "no" } },
        { name: "write", arguments: { path: "src/y.ts", content: "yes" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeScript(env, "policy.mjs", POLICY_MJS);
  await env.writeAgent("careful", {
    description: "Careful.",
    tools: ["write"],
    hooks: [{ command: ["node", "hooks/policy.mjs", "{tool}", "{path}"], matcher: "write|edit" }],
  });
  const result = await env.run(["run", "-a", "careful", "write them"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    'hook "node hooks/policy.mjs" refused the call: generated/ is rebuilt, not edited',
    "created src/y.ts (1 line)",
  ]);
  assert.equal(await exists(`${env.workdir}/generated/x.ts`), false);
  assert.equal(
    await Deno.readTextFile(`${env.workdir}/calls.log`),
    "beforeToolExecute write generated/x.ts careful\nbeforeToolExecute write src/y.ts careful\n",
  );
});

Deno.test("config.yaml hooks run for every agent, before the agent's, in priority order", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo hi" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeScript(env, "mark.sh", '#!/bin/sh\necho "$1" >> order.log\n');
  await env.writeConfig(
    defaultConfig(provider.url) +
      [
        "hooks:",
        "  - command: [hooks/mark.sh, config-late]",
        "    priority: 5",
        "  - command: [hooks/mark.sh, config]",
        "",
      ].join("\n"),
  );
  await env.writeAgent("plain", {
    description: "Plain.",
    tools: ["shell"],
    hooks: [
      { command: ["hooks/mark.sh", "agent"] },
      { command: ["hooks/mark.sh", "agent-early"], priority: -1 },
    ],
  });
  const result = await env.run(["run", "-a", "plain", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    await Deno.readTextFile(`${env.workdir}/order.log`),
    "agent-early\nconfig\nagent\nconfig-late\n",
  );
});

Deno.test("a config.yaml python3 hook denies rm -rf for an agent that declares no hooks", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "rm -rf build" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeFile(
    "no_rm.py",
    [
      "import json, re, sys",
      "call = json.load(sys.stdin)['call']",
      "if re.search(r'\\brm\\s+-rf\\b', call['arguments'].get('command', '')):",
      "    print(json.dumps({'result': 'deny', 'reason': 'no rm -rf anywhere'}))",
    ].join("\n"),
  );
  await env.writeConfig(
    defaultConfig(provider.url) +
      `hooks:\n  - command: [python3, ${env.root}/no_rm.py]\n    matcher: shell\n`,
  );
  await Deno.mkdir(`${env.workdir}/build`);
  const result = await env.run(["run", "-a", "coder", "clean"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    `hook "python3 ${env.root}/no_rm.py" refused the call: no rm -rf anywhere`,
  ]);
  assert.equal(await exists(`${env.workdir}/build`), true);
});

Deno.test("a failing command hook is a notice, and refuses the call with fail_closed", async () => {
  for (const failClosed of [false, true]) {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "shell", arguments: { command: "echo ran" } }] },
      { text: "done" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeAgent("guarded", {
      description: "Guarded.",
      tools: ["shell"],
      hooks: [{
        command: ["sh", "-c", "echo policy service down >&2; exit 1"],
        fail_closed: failClosed,
      }],
    });
    const result = await env.run(["run", "-a", "guarded", "go"]);
    assert.equal(result.code, 0, result.stderr);
    const [content] = toolResultsOf(provider.requests[1]).map((item) => item.content);
    if (failClosed) {
      assert.equal(
        content,
        `hook "sh -c 'echo policy service down >&2; exit 1'" failed closed: exited 1: policy service down`,
      );
    } else {
      assert.equal(content, "ran");
      assert.ok(
        result.stderr.includes(
          `hook "sh -c 'echo policy service down >&2; exit 1'": beforeToolExecute: exited 1: policy service down\n`,
        ),
        result.stderr,
      );
    }
  }
});

Deno.test("a hostile path reaches a command hook as -, and a hook's afterToolExecute JSON rewrites the result", async () => {
  const hostile = "$(touch pwned)";
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "write", arguments: { path: hostile, content: "x" } },
        { name: "write", arguments: { path: "--help", content: "x" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeScript(
    env,
    "post.sh",
    `#!/bin/sh\nprintf '%s\\n' "$1" >> paths.log\nprintf '{"text": "checked %s"}' "$1"\n`,
  );
  await env.writeAgent("post", {
    description: "Post.",
    tools: ["write"],
    hooks: [{ command: ["hooks/post.sh", "{path}"], on: ["afterToolExecute"] }],
  });
  const result = await env.run(["run", "-a", "post", "-y", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await Deno.readTextFile(`${env.workdir}/paths.log`), "-\n-\n");
  assert.equal(await exists(`${env.workdir}/pwned`), false);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    "checked -",
    "checked -",
  ]);
});

Deno.test("a placeholder in a hook's program is refused: a made-up tool name never picks the script", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "write", arguments: { path: "evil.sh", content: "#!/bin/sh\ntouch pwned\n" } },
        { name: "../evil", arguments: {} },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeScript(env, "write.sh", "#!/bin/sh\nexit 0\n");
  const agentPath = await env.writeAgent("dispatch", {
    description: "Dispatch.",
    tools: ["write"],
    hooks: [{ command: ["hooks/{tool}.sh"], on: ["afterToolExecute"] }],
  });
  const result = await env.run(["run", "-a", "dispatch", "-y", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(`^rienda: ${agentPath}:\\d+: hooks\\[0\\]\\.command\\[0\\]: `),
  );
  assert.ok(
    result.stderr.endsWith(
      `: the program cannot hold {tool}: the model's call would choose what runs; pass it as an argument (such as [hooks/dispatch.sh, "{tool}"])\n`,
    ),
    result.stderr,
  );
  assert.equal(provider.requests.length, 0);
  assert.equal(await exists(`${env.workdir}/pwned`), false);
});

Deno.test("a hook that writes megabytes or hangs past its timeout is a notice, and the run goes on", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo ran" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await writeScript(env, "flood.sh", "#!/bin/sh\nhead -c 5000000 /dev/zero | tr '\\0' x\n");
  await env.writeAgent("noisy", {
    description: "Noisy.",
    tools: ["shell"],
    hooks: [
      { command: ["hooks/flood.sh"] },
      { command: ["sleep", "300"], timeout_ms: 300 },
    ],
  });
  const started = performance.now();
  const result = await env.run(["run", "-a", "noisy", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(performance.now() - started < 60_000);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), ["ran"]);
  assert.ok(
    result.stderr.includes(
      'hook "hooks/flood.sh": beforeToolExecute: wrote more than 1 MiB on stdout\n',
    ),
    result.stderr,
  );
  assert.ok(
    result.stderr.includes(
      'hook "sleep 300": beforeToolExecute: did not finish within 300 ms (timeout_ms)\n',
    ),
    result.stderr,
  );
});

Deno.test("hooks that answer megabytes: the model reads at most 256 KiB of a refusal or a rewritten result", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "echo blocked" } },
        { name: "write", arguments: { path: "a.txt", content: "x" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  // A window the two capped results fit in, so no compaction comes between.
  await env.writeConfig(
    defaultConfig(provider.url).replace(
      "        id: fake-model\n",
      "        id: fake-model\n        context_window: 2000000\n",
    ),
  );
  // A 900 kB line on stderr with exit 2 before shell; a 900 kB rewrite of write's result after it.
  await writeScript(
    env,
    "loud.py",
    `import json, sys
event = json.load(sys.stdin)
if event["point"] == "beforeToolExecute":
    if event["call"]["name"] == "shell":
        sys.stderr.write("no " * 300000)
        sys.exit(2)
    sys.exit(0)
print(json.dumps({"text": event["result"]["text"] + " and " + "more " * 180000}))
`,
  );
  await env.writeAgent("loud", {
    description: "Loud.",
    tools: ["shell", "write"],
    hooks: [{
      command: ["python3", "hooks/loud.py"],
      on: ["beforeToolExecute", "afterToolExecute"],
    }],
  });
  const result = await env.run(["run", "-a", "loud", "go"]);
  assert.equal(result.code, 0, result.stderr.slice(-2000));
  const results = toolResultsOf(provider.requests[1]).map((item) => String(item.content));
  assert.equal(results.length, 2);
  for (const text of results) {
    assert.ok(new TextEncoder().encode(text).length <= 256 * 1024 + 64, `${text.length}`);
    assert.ok(text.endsWith("\n[output truncated]"), text.slice(-100));
  }
  assert.match(results[0] ?? "", /^hook "python3 hooks\/loud\.py" refused the call: no no /);
  assert.match(results[1] ?? "", /^created a\.txt \(1 line\) and more more /);
});

Deno.test("Ctrl-C during a command hook stops the run at once and kills what the hook started", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo never" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("stuck", {
    description: "Stuck.",
    tools: ["shell"],
    hooks: [{
      command: ["sh", "-c", "sleep 300 & echo $! > child.pid; wait"],
      timeout_ms: 600000,
    }],
  });
  await using process = await env.start(["run", "-a", "stuck", "go"]);
  const pidFile = `${env.workdir}/child.pid`;
  const deadline = performance.now() + 30_000;
  while ((await Deno.readTextFile(pidFile).catch(() => "")).trim() === "") {
    if (performance.now() > deadline) throw new Error("the hook never started");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - signalled < 5000, `${performance.now() - signalled} ms`);
  const pid = Number(await Deno.readTextFile(pidFile));
  const gone = async () =>
    !(await Deno.readTextFile(`/proc/${pid}/status`).then(
      (s) => !/^State:\s+Z/m.test(s),
      () => false,
    ));
  const until = performance.now() + 10_000;
  while (!(await gone())) {
    if (performance.now() > until) throw new Error(`the hook's child ${pid} outlived the run`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(provider.requests.length, 1);
});

Deno.test("a malformed config.yaml hook entry is one error naming the file, line, entry and field, in runs and in doctor", async () => {
  await using provider = await startFakeProvider([]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url) +
      'hooks:\n  - command: "rm -rf / --no-preserve-root"\n  - claude: PreToolCall\n    command: x\n',
  );
  const expected = [
    `${env.configPath}: hooks[0].command: must be an argv list such as [node, hooks/x.mjs] (found "rm -rf / --no-preserve-root"); a command hook never runs through a shell`,
    `${env.configPath}: hooks[1].claude: unknown Claude Code event "PreToolCall" (rienda runs: PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SessionEnd)`,
  ];
  const run = await env.run(["run", "hi"]);
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stderr, `rienda: ${expected.join("\n")}\n`);
  assert.equal(provider.requests.length, 0);
  const doctor = await env.run(["doctor"]);
  assert.notEqual(doctor.code, 0);
  for (const line of expected) assert.ok(doctor.stdout.includes(line), doctor.stdout);
});

Deno.test("every hook call is a hook event in stream-json, json counts them per hook, and a denial is in the session", async () => {
  const script = () => [
    {
      toolCalls: [
        { name: "shell", arguments: { command: "rm -rf build" } },
        { name: "shell", arguments: { command: "echo ok" } },
      ],
    },
    { text: "done" },
  ];
  await using provider = await startFakeProvider([...script(), ...script()]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "audit",
    `module.exports = { afterToolExecute: function (ctx, call, result) { return { text: result.text + "!" }; } };`,
  );
  await env.writeAgent("watched", {
    description: "Watched.",
    tools: ["shell"],
    hooks: [
      { command: ["sh", "-c", 'grep -q "rm -rf" && { echo "no rm -rf" >&2; exit 2; }; exit 0'] },
      "audit",
    ],
  });
  const streamed = await env.run(["run", "-a", "watched", "--output", "stream-json", "go"]);
  assert.equal(streamed.code, 0, streamed.stderr);
  const events = parseJsonLines(streamed.stdout, "stdout").filter((event) =>
    at(event, "type") === "hook"
  );
  const label = `sh -c 'grep -q "rm -rf" && { echo "no rm -rf" >&2; exit 2; }; exit 0'`;
  assert.deepEqual(
    events.map((event) => {
      assert.equal(typeof at(event, "durationMs"), "number");
      const { durationMs: _, ...rest } = event as Record<string, unknown>;
      return rest;
    }),
    [
      {
        type: "hook",
        point: "beforeToolExecute",
        hook: label,
        outcome: "deny",
        reason: "no rm -rf",
        callId: "call_1",
      },
      {
        type: "hook",
        point: "afterToolExecute",
        hook: "audit",
        outcome: "modify",
        callId: "call_1",
      },
      { type: "hook", point: "beforeToolExecute", hook: label, outcome: "none", callId: "call_2" },
      {
        type: "hook",
        point: "afterToolExecute",
        hook: "audit",
        outcome: "modify",
        callId: "call_2",
      },
    ],
  );
  const sessionId = String(at(parseJsonLines(streamed.stdout, "stdout")[0], "sessionId"));
  const denials = (await env.readSession(sessionId)).filter((entry) =>
    entry.kind === "hook_denial"
  );
  assert.deepEqual(denials.map(({ id: _i, parentId: _p, createdAt: _c, ...rest }) => rest), [{
    kind: "hook_denial",
    point: "beforeToolExecute",
    hook: label,
    outcome: "deny",
    reason: "no rm -rf",
    callId: "call_1",
  }]);
  const shown = await env.run(["sessions", "show", sessionId]);
  assert.ok(
    shown.stdout.includes(`── hook "${label}" refused call call_1: no rm -rf ──`),
    shown.stdout,
  );

  const json = await env.run(["run", "-a", "watched", "--output", "json", "go"]);
  assert.equal(json.code, 0, json.stderr);
  const hooks = at(JSON.parse(json.stdout), "hooks") as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(hooks), [label, "audit"]);
  assert.deepEqual([hooks[label]?.calls, hooks[label]?.outcomes], [2, { deny: 1, none: 1 }]);
  assert.deepEqual([hooks.audit?.calls, hooks.audit?.outcomes], [2, { modify: 2 }]);
  assert.equal(typeof hooks.audit?.durationMs, "number");
});
