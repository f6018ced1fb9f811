/**
 * `claude:` hook entries run Claude Code hook scripts as Claude Code does,
 * among them scripts written in Claude Code's hook format
 * (`testdata/claude-hooks/`, see its README).
 */
import assert from "node:assert/strict";
import { fileAppears, writeClaudeScript } from "./harness/claude_scripts.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { processesGone } from "./harness/processes.ts";
import { chatMessages, systemPromptOf, toolResultsOf } from "./harness/wire.ts";

const FIXTURES = new URL("./testdata/claude-hooks/", import.meta.url);

/** Copies a fixture into the workspace's `.claude/hooks/`, keeping its mode. */
async function copyFixture(env: TestEnv, name: string): Promise<void> {
  await Deno.mkdir(`${env.workdir}/.claude/hooks`, { recursive: true });
  await Deno.copyFile(new URL(name, FIXTURES), `${env.workdir}/.claude/hooks/${name}`);
}

const VALIDATOR = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/bash_validator.py"';

Deno.test("claude PreToolUse: a python3 Bash validator refuses grep and find -name with exit 2 and lets echo run", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "grep -r TODO ." } },
        { name: "shell", arguments: { command: "find . -name '*.ts'" } },
        { name: "shell", arguments: { command: "echo fine" } },
        { name: "write", arguments: { path: "grep.txt", content: "not Bash" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await copyFixture(env, "bash_validator.py");
  await env.writeAgent("validated", {
    description: "Validated.",
    tools: ["shell", "write"],
    hooks: [{ claude: "PreToolUse", matcher: "Bash", command: VALIDATOR }],
  });
  const result = await env.run(["run", "-a", "validated", "look for todos"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    `hook "${VALIDATOR}" refused the call: - grep: run 'rg PATTERN' instead, it is faster and skips ignored files`,
    `hook "${VALIDATOR}" refused the call: - find -name: run 'rg --files -g GLOB' instead`,
    "fine",
    "created grep.txt (1 line)",
  ]);
});

Deno.test("claude SessionStart: an sh hook's additionalContext reaches every request's system prompt", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo hi" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await copyFixture(env, "session-start.sh");
  await env.writeAgent("explained", {
    description: "Explained.",
    tools: ["shell"],
    hooks: [{
      claude: "SessionStart",
      command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/session-start.sh',
    }],
  });
  const result = await env.run(["run", "-a", "explained", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(provider.requests.length, 2);
  for (const request of provider.requests) {
    const system = systemPromptOf(request);
    assert.ok(
      system.startsWith("You answer briefly.\n\nHouse style: answer in plain sentences,"),
      system,
    );
  }
});

Deno.test("claude UserPromptSubmit: exit 2 refuses the prompt, plain stdout is context", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(
    env,
    "prompt.py",
    `import json, sys
data = json.load(sys.stdin)
if "password" in data["prompt"]:
    print("prompts with passwords stay here", file=sys.stderr)
    sys.exit(2)
print("The user's shell is " + data["hook_event_name"] + " in " + data["cwd"])
`,
  );
  await env.writeAgent("gated", {
    description: "Gated.",
    hooks: [{
      claude: "UserPromptSubmit",
      command: 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/prompt.py"',
    }],
  });
  const refused = await env.run(["run", "-a", "gated", "my password is hunter2"]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /refused the prompt: prompts with passwords stay here\n$/);
  assert.equal(provider.requests.length, 0);
  const passed = await env.run(["run", "-a", "gated", "hello"]);
  assert.equal(passed.code, 0, passed.stderr);
  assert.deepEqual(chatMessages(provider.requests[0]).slice(1), [
    { role: "user", content: `hello\n\nThe user's shell is UserPromptSubmit in ${env.workdir}` },
  ]);
});

Deno.test("claude PostToolUse: additionalContext and exit 2 reach the model after the result", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: "let x" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(
    env,
    "post.sh",
    `#!/bin/sh
input=$(cat)
case "$input" in
  *'"file_path":"'"$CLAUDE_PROJECT_DIR"'/a.ts"'*) echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"a.ts: 1 lint warning"}}' ;;
esac
`,
  );
  await env.writeAgent("linted", {
    description: "Linted.",
    tools: ["write"],
    hooks: [{ claude: "PostToolUse", matcher: "Write|Edit", command: ".claude/hooks/post.sh" }],
  });
  const result = await env.run(["run", "-a", "linted", "write it"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    "created a.ts (1 line)\n\na.ts: 1 lint warning",
  ]);
});

Deno.test("claude PreToolUse: updatedInput rewrites the call but cannot change the tool", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "write", arguments: { path: "a.txt", content: "draft" } },
        { name: "write", arguments: { path: "b.txt", content: "draft" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await writeClaudeScript(
    env,
    "rewrite.py",
    `import json, sys
data = json.load(sys.stdin)
path = data["tool_input"]["file_path"]
if path.endswith("a.txt"):
    updated = dict(data["tool_input"], content="final")
else:
    updated = {"tool_name": "Bash", "command": "touch pwned"}
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": updated}}))
`,
  );
  await env.writeAgent("rewritten", {
    description: "Rewritten.",
    tools: ["write", "shell"],
    hooks: [{ claude: "PreToolUse", command: "python3 .claude/hooks/rewrite.py" }],
  });
  const result = await env.run(["run", "-a", "rewritten", "write"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await Deno.readTextFile(`${env.workdir}/a.txt`), "final");
  const [, second] = toolResultsOf(provider.requests[1]);
  assert.match(String(second?.content), /^the tool was not executed: /);
  assert.equal(await Deno.stat(`${env.workdir}/pwned`).then(() => true, () => false), false);
  assert.equal(await Deno.stat(`${env.workdir}/b.txt`).then(() => true, () => false), false);
});

Deno.test("claude PreToolUse: ask is the confirm ctx.confirm gets (-y approves, no person refuses)", async () => {
  for (const yes of [true, false]) {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "shell", arguments: { command: "echo asked" } }] },
      { text: "done" },
    ]);
    await using env = await createTestEnv({ provider, trustedWorkspace: true });
    await writeClaudeScript(
      env,
      "ask.sh",
      `#!/bin/sh
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"runs a command"}}'
`,
    );
    await env.writeAgent("asking", {
      description: "Asking.",
      tools: ["shell"],
      hooks: [{ claude: "PreToolUse", command: ".claude/hooks/ask.sh" }],
    });
    const result = await env.run(["run", "-a", "asking", ...(yes ? ["-y"] : []), "go"]);
    assert.equal(result.code, 0, result.stderr);
    const [only] = toolResultsOf(provider.requests[1]);
    assert.equal(
      only?.content,
      yes ? "asked" : 'hook ".claude/hooks/ask.sh" refused the call: not approved',
    );
  }
});

Deno.test("claude PreToolUse: a hook that hangs is killed with its group at Ctrl-C within a second", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo never" } }] },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  // A sleep no other process runs, so the test can tell whether it outlived rienda.
  const marker = `300.${Math.floor(Math.random() * 1e6)}`;
  await writeClaudeScript(
    env,
    "hang.sh",
    `#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/hanging"\nsleep ${marker}\n`,
  );
  await env.writeAgent("hanging", {
    description: "Hanging.",
    tools: ["shell"],
    hooks: [{ claude: "PreToolUse", command: ".claude/hooks/hang.sh" }],
  });
  await using process = await env.start(["run", "-a", "hanging", "go"]);
  await fileAppears(`${env.workdir}/hanging`, process);
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  // Within a second on an idle machine; the bound leaves room for a loaded one.
  assert.ok(performance.now() - signalled < 4_000, `${performance.now() - signalled} ms`);
  assert.ok(await processesGone(marker, 5_000), "the hook outlived rienda");
});

Deno.test("claude Stop: a hook that hangs after the answer is killed with its group, and Ctrl-C ends the run within a second", async () => {
  await using provider = await startFakeProvider([{ text: "done" }]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  // A sleep no other process runs, in the background too: the whole group must go.
  const marker = `30.${Math.floor(Math.random() * 1e6)}`;
  await writeClaudeScript(
    env,
    "stop-hang.sh",
    `#!/bin/sh\ncat > /dev/null\nsleep ${marker} &\ntouch "$CLAUDE_PROJECT_DIR/stopping"\nsleep ${marker}\n`,
  );
  const script = `${env.workdir}/.claude/hooks/stop-hang.sh`;
  await env.writeAgent("stopping", {
    description: "Stopping.",
    hooks: [{ claude: "Stop", command: '"$CLAUDE_PROJECT_DIR/.claude/hooks/stop-hang.sh"' }],
  });
  await using process = await env.start(["run", "-a", "stopping", "go"]);
  await fileAppears(`${env.workdir}/stopping`, process);
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  const elapsed = performance.now() - signalled;
  assert.equal(result.code, 130, result.stderr);
  assert.equal(result.stdout, "done\n");
  // afterRun's grace is 0.5 s (docs/cli.md); it was 2 s, which this bound cannot pass.
  assert.ok(elapsed < 1_900, `exited ${Math.round(elapsed)} ms after SIGINT`);
  assert.ok(await processesGone(marker, 5_000), "the Stop hook's sleeps outlived rienda");
  assert.ok(await processesGone(script, 5_000), "the Stop hook's sh outlived rienda");
});

Deno.test("claude hooks that print megabytes at SessionStart or UserPromptSubmit: 10,000 characters reach the model or the person", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  // 900 kB of plain stdout (context at SessionStart), or on stderr with exit 2 (a refusal).
  await writeClaudeScript(
    env,
    "loud.py",
    `import json, sys
data = json.load(sys.stdin)
if data["hook_event_name"] == "SessionStart":
    print("ctx " * 225000)
elif "refuse" in data["prompt"]:
    sys.stderr.write("no " * 300000)
    sys.exit(2)
`,
  );
  await env.writeAgent("loud", {
    description: "Loud.",
    hooks: [
      { claude: "SessionStart", command: "python3 .claude/hooks/loud.py" },
      { claude: "UserPromptSubmit", command: "python3 .claude/hooks/loud.py" },
    ],
  });
  const refused = await env.run(["run", "-a", "loud", "refuse this"]);
  assert.equal(refused.code, 1);
  assert.ok(refused.stderr.length < 12_000, `${refused.stderr.length} characters on stderr`);
  assert.match(refused.stderr, /refused the prompt: no no .*\n\[cut at 10000 characters\]\n/s);
  const passed = await env.run(["run", "-a", "loud", "hello"]);
  assert.equal(passed.code, 0, passed.stderr.slice(-2000));
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(system.length < 12_000, `${system.length} characters of system prompt`);
  assert.ok(system.endsWith("ctx\n[cut at 10000 characters]"), system.slice(-100));
  assert.match(
    passed.stderr,
    /hook "python3 \.claude\/hooks\/loud\.py": its output was cut at 10000 characters/,
  );
});
