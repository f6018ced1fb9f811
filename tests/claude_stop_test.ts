/**
 * A Claude Code hook that answers `{"continue": false, "stopReason": …}`
 * ends the run, as Claude Code does: at PreToolUse, PostToolUse,
 * UserPromptSubmit and SessionStart, with real python3 and sh scripts, in a
 * parallel batch of agent calls, racing Ctrl-C, and with a reason that
 * carries terminal escapes and a key.
 */
import assert from "node:assert/strict";
import { exists, fileAppears, writeClaudeScript } from "./harness/claude_scripts.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at, parseJsonLines } from "./harness/json.ts";
import { processesGone } from "./harness/processes.ts";

/** A python3 hook that stops the run when the Bash command holds `STOP`, and says nothing else. */
const STOP_ON_MARK = `import json, sys
event = json.load(sys.stdin)
if "STOP" in event.get("tool_input", {}).get("command", ""):
    print(json.dumps({"continue": False, "stopReason": "budget spent"}))
`;
const PY_HOOK = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/stop.py"';

/** The entries of kind `kind` of the only session file. */
async function sessionEntries(env: TestEnv, kind: string): Promise<Record<string, unknown>[]> {
  const [file] = await env.sessionFiles();
  if (file === undefined) return [];
  return (await env.readSession(file)).filter((entry) => entry.kind === kind);
}

/** The text of every stored tool result, in order. */
async function storedResults(env: TestEnv): Promise<string[]> {
  const messages = await sessionEntries(env, "message");
  return messages.flatMap((message) => {
    const blocks = Array.isArray(message.blocks) ? message.blocks : [];
    return blocks.flatMap((block: unknown) =>
      at(block, "type") === "tool_result" ? [String(at(block, "toolResult", 0, "text"))] : []
    );
  });
}

Deno.test("claude PreToolUse continue: false ends the run: no call of the turn runs, no further request, exit 3", async () => {
  await using provider = await startFakeProvider([
    {
      text: "Let me look.",
      toolCalls: [
        { name: "shell", arguments: { command: "echo STOP > first.txt" } },
        { name: "shell", arguments: { command: "echo later > second.txt" } },
      ],
    },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(env, "stop.py", STOP_ON_MARK);
  await env.writeAgent("budgeted", {
    description: "Budgeted.",
    tools: ["shell"],
    hooks: [{ claude: "PreToolUse", matcher: "Bash", command: PY_HOOK }],
  });
  const result = await env.run(["run", "-a", "budgeted", "go"]);
  assert.equal(result.code, 3, result.stderr);
  assert.equal(
    result.stderr.trimEnd().split("\n").at(-1),
    `rienda: hook "${PY_HOOK}" stopped the run: budget spent`,
  );
  assert.equal(provider.requests.length, 1);
  assert.equal(await exists(`${env.workdir}/first.txt`), false);
  assert.equal(await exists(`${env.workdir}/second.txt`), false);
  // Every call has its result, then the stop is recorded; no failure mark.
  assert.deepEqual(await storedResults(env), [
    `hook "${PY_HOOK}" stopped the run: budget spent`,
    `the tool was not executed: hook "${PY_HOOK}" stopped the run`,
  ]);
  const [stop] = await sessionEntries(env, "hook_stop");
  assert.deepEqual(
    [stop?.point, stop?.hook, stop?.reason, typeof stop?.callId],
    ["beforeToolExecute", PY_HOOK, "budget spent", "string"],
  );
  assert.deepEqual(await sessionEntries(env, "failure"), []);
  const [header] = await env.readSession(String((await env.sessionFiles())[0]));
  const shown = await env.run(["sessions", "show", String(header?.id)]);
  assert.match(shown.stdout, /── hook ".*stop\.py"" stopped the run at call \S+: budget spent ──/);
  const listed = await env.run(["sessions"]);
  assert.match(listed.stdout, /^\S+ {2}budgeted {2}fake\/m {2}.+? {2}\(stopped\) go$/m);
});

Deno.test("claude PostToolUse continue: false: the call ran, the model never reads its output, json says hook_stop", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "echo secret-output > ran.txt; echo STOP" } },
        { name: "shell", arguments: { command: "echo later > second.txt" } },
      ],
    },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  // sh, no stopReason: the default reason says what it answered.
  await writeClaudeScript(env, "post.sh", `#!/bin/sh\necho '{"continue": false}'\n`);
  await env.writeAgent("audited", {
    description: "Audited.",
    tools: ["shell"],
    hooks: [{ claude: "PostToolUse", command: ".claude/hooks/post.sh" }],
  });
  const result = await env.run(["run", "-a", "audited", "--output", "json", "go"]);
  assert.equal(result.code, 3, result.stderr);
  const summary = JSON.parse(result.stdout);
  assert.equal(summary.reason, "hook_stop");
  assert.deepEqual(summary.stop, {
    point: "afterToolExecute",
    hook: ".claude/hooks/post.sh",
    reason: "continue: false (no stopReason)",
    callId: summary.stop.callId,
  });
  assert.equal(summary.error, undefined);
  assert.deepEqual(summary.hooks[".claude/hooks/post.sh"].outcomes, { stop: 1 });
  assert.equal(provider.requests.length, 1);
  assert.equal(await exists(`${env.workdir}/ran.txt`), true);
  assert.equal(await exists(`${env.workdir}/second.txt`), false);
  assert.deepEqual(await storedResults(env), [
    'the tool ran, then hook ".claude/hooks/post.sh" stopped the run: continue: false (no stopReason)',
    'the tool was not executed: hook ".claude/hooks/post.sh" stopped the run',
  ]);
});

Deno.test("claude UserPromptSubmit continue: false: nothing is sent or stored, stream-json shows the stop", async () => {
  await using provider = await startFakeProvider([{ text: "never asked" }]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(
    env,
    "prompt.py",
    `import json, sys\njson.load(sys.stdin)\nprint(json.dumps({"continue": False, "stopReason": "outside office hours"}))\n`,
  );
  const hook = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/prompt.py"';
  await env.writeAgent("gated", {
    description: "Gated.",
    hooks: [{ claude: "UserPromptSubmit", command: hook }],
  });
  const result = await env.run(["run", "-a", "gated", "--output", "stream-json", "hello"]);
  assert.equal(result.code, 3, result.stderr);
  assert.equal(provider.requests.length, 0);
  assert.deepEqual(await env.sessionFiles(), []);
  const events = parseJsonLines(result.stdout, "stdout");
  const hookEvent = events.find((event) => event.type === "hook");
  assert.deepEqual([hookEvent?.point, hookEvent?.outcome, hookEvent?.reason], [
    "beforePrompt",
    "stop",
    "outside office hours",
  ]);
  const end = events.at(-1);
  assert.equal(end?.type, "run_end");
  assert.equal(end?.reason, "hook_stop");
  assert.deepEqual(end?.stop, { point: "beforePrompt", hook, reason: "outside office hours" });
  assert.ok(!events.some((event) => event.type === "run_start"));
});

Deno.test("claude SessionStart continue: false: the prompt and the stop are stored, no request is made", async () => {
  await using provider = await startFakeProvider([{ text: "never asked" }]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(
    env,
    "start.sh",
    `#!/bin/sh\ncat > /dev/null\nprintf '{"continue": false, "stopReason": "maintenance window"}'\n`,
  );
  await env.writeAgent("maintained", {
    description: "Maintained.",
    hooks: [{ claude: "SessionStart", command: ".claude/hooks/start.sh" }],
  });
  const result = await env.run(["run", "-a", "maintained", "hello"]);
  assert.equal(result.code, 3, result.stderr);
  assert.match(
    result.stderr,
    /rienda: hook "\.claude\/hooks\/start\.sh" stopped the run: maintenance window\n$/,
  );
  assert.equal(provider.requests.length, 0);
  const [file] = await env.sessionFiles();
  const kinds = (await env.readSession(String(file))).map((entry) => entry.kind);
  assert.deepEqual(kinds.slice(-2), ["message", "hook_stop"]);
});

Deno.test("a stopReason's terminal escapes are written out and its key masked, on stderr and in the session", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo STOP" } }] },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  const key = "sk-proj-Jd5Kf8Lg2Mh6Nj9Pk3Ql7Rm1Sn4";
  await writeClaudeScript(
    env,
    "stop.py",
    `import json, sys\njson.load(sys.stdin)\nprint(json.dumps({"continue": False, "stopReason": "use ${key}\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m now\\nsecond line\\u0008"}))\n`,
  );
  await env.writeAgent("hostile", {
    description: "Hostile.",
    tools: ["shell"],
    hooks: [{ claude: "PreToolUse", command: PY_HOOK }],
  });
  const result = await env.run(["run", "-a", "hostile", "go"]);
  assert.equal(result.code, 3, result.stderr);
  const last = result.stderr.trimEnd().split("\n").at(-1) ?? "";
  assert.equal(
    last,
    `rienda: hook "${PY_HOOK}" stopped the run: use sk-… now second line\\x08`,
  );
  for (const control of ["\x1b", "\x07", "\x9b"]) assert.ok(!result.stderr.includes(control));
  assert.ok(!result.stderr.includes(key));
  const [file] = await env.sessionFiles();
  assert.ok(!(await Deno.readTextFile(String(file))).includes(key));
  const [stop] = await sessionEntries(env, "hook_stop");
  assert.equal(stop?.reason, "use sk-… now second line\b");
});

Deno.test("a stop in a parallel batch of agent calls starts no call after it; the run ends without asking again", async () => {
  await using provider = await startFakeProvider([
    {
      when: "You lead.",
      toolCalls: [
        { name: "agent", arguments: { agent: "reviewer", prompt: "review it" } },
        { name: "agent", arguments: { agent: "tester", prompt: "test it" } },
        { name: "agent", arguments: { agent: "reviewer", prompt: "review again" } },
      ],
    },
    { when: "You review.", text: "reviewed" },
    { when: "You review.", text: "reviewed again" },
    { when: "You test.", text: "tested" },
    { when: "You lead.", text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(
    env,
    "gate.py",
    `import json, sys
event = json.load(sys.stdin)
if event.get("tool_input", {}).get("prompt") == "test it":
    print(json.dumps({"continue": False, "stopReason": "no tests today"}))
`,
  );
  const hook = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/gate.py"';
  await env.writeAgent("lead", {
    description: "Leads.",
    tools: ["agent"],
    hooks: [{ claude: "PreToolUse", command: hook }],
  }, "You lead.");
  await env.writeAgent("reviewer", { description: "Reviews a change." }, "You review.");
  await env.writeAgent("tester", { description: "Runs the tests." }, "You test.");
  const result = await env.run(["run", "-a", "lead", "ship it"]);
  assert.equal(result.code, 3, result.stderr);
  const asked = provider.requests.map((request) =>
    ["You lead.", "You review.", "You test."].find((mark) =>
      JSON.stringify(request.body).includes(mark)
    )
  );
  // The lead asked once; the tester and the second reviewer never started.
  assert.equal(asked.filter((mark) => mark === "You lead.").length, 1);
  assert.equal(asked.filter((mark) => mark === "You test.").length, 0);
  assert.ok(asked.filter((mark) => mark === "You review.").length <= 1, String(asked));
  const [first, second, third] = (await storedResults(env)).slice(-3);
  // The first call was allowed: it ran (its child answered) or the stop came before it started.
  assert.ok(
    /^reviewed\n/.test(first ?? "") ||
      first === `the tool was not executed: hook "${hook}" stopped the run`,
    first,
  );
  assert.equal(second, `hook "${hook}" stopped the run: no tests today`);
  assert.equal(third, `the tool was not executed: hook "${hook}" stopped the run`);
});

Deno.test("Ctrl-C while a stopping hook runs wins: exit 130 within a second, every call answered", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "echo one" } },
        { name: "shell", arguments: { command: "echo two" } },
      ],
    },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(
    env,
    "slow-stop.sh",
    `#!/bin/sh\ncat > /dev/null\ntouch "$CLAUDE_PROJECT_DIR/hooked"\nsleep 2\necho '{"continue": false, "stopReason": "late"}'\n`,
  );
  await env.writeAgent("racing", {
    description: "Racing.",
    tools: ["shell"],
    hooks: [{ claude: "PreToolUse", command: ".claude/hooks/slow-stop.sh" }],
  });
  await using process = await env.start(["run", "-a", "racing", "go"]);
  await fileAppears(`${env.workdir}/hooked`, process);
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  // Within a second on an idle machine; the bound leaves room for a loaded one.
  assert.ok(performance.now() - signalled < 4_000, `${performance.now() - signalled} ms`);
  assert.ok(!result.stderr.includes("stopped the run"), result.stderr);
  assert.equal((await storedResults(env)).length, 2);
  assert.deepEqual(await sessionEntries(env, "hook_stop"), []);
});

Deno.test("Ctrl-C after a stop, while SessionEnd runs: exit 130 within the grace, the stop stays recorded", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo STOP > ran.txt" } }] },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(env, "stop.py", STOP_ON_MARK);
  const marker = `301.${Math.floor(Math.random() * 1e6)}`;
  await writeClaudeScript(
    env,
    "end.sh",
    `#!/bin/sh\ncat > /dev/null\ntouch "$CLAUDE_PROJECT_DIR/ending"\nsleep ${marker}\n`,
  );
  await env.writeAgent("ending", {
    description: "Ending.",
    tools: ["shell"],
    hooks: [
      { claude: "PreToolUse", command: PY_HOOK },
      { claude: "SessionEnd", command: ".claude/hooks/end.sh" },
    ],
  });
  await using process = await env.start(["run", "-a", "ending", "go"]);
  await fileAppears(`${env.workdir}/ending`, process);
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  // The 0.5 s grace of afterRun, with room for a loaded machine.
  assert.ok(performance.now() - signalled < 4_000, `${performance.now() - signalled} ms`);
  assert.ok(await processesGone(marker, 5_000), "the SessionEnd hook outlived rienda");
  assert.equal(await exists(`${env.workdir}/ran.txt`), false);
  assert.deepEqual(await storedResults(env), [`hook "${PY_HOOK}" stopped the run: budget spent`]);
  assert.equal((await sessionEntries(env, "hook_stop")).length, 1);
});

Deno.test("a child a hook stopped returns the hook's reason to its parent, which goes on", async () => {
  await using provider = await startFakeProvider([
    {
      when: "You lead.",
      toolCalls: [{ name: "agent", arguments: { agent: "worker", prompt: "run STOP now" } }],
    },
    {
      when: "You work.",
      toolCalls: [{ name: "shell", arguments: { command: "echo STOP" } }],
    },
    { when: "You lead.", text: "the worker was stopped" },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(env, "stop.py", STOP_ON_MARK);
  await env.writeAgent("lead", { description: "Leads.", tools: ["agent"] }, "You lead.");
  await env.writeAgent("worker", {
    description: "Works.",
    tools: ["shell"],
    hooks: [{ claude: "PreToolUse", matcher: "Bash", command: PY_HOOK }],
  }, "You work.");
  const result = await env.run(["run", "-a", "lead", "delegate"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "the worker was stopped");
  const last = provider.requests.at(-1);
  const toolMessage = (at(last?.body, "messages") as unknown[]).find((message) =>
    at(message, "role") === "tool"
  );
  assert.match(
    String(at(toolMessage, "content")),
    /^agent "worker" was stopped: hook ".*stop\.py"" stopped the run: budget spent/,
  );
});
