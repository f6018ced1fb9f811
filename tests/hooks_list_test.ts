/**
 * `rienda hooks [list]` (docs/cli.md): the hook entries a run of an agent
 * runs, config.yaml's and the agent's, numbered in run order with their
 * points, matcher, priority, policy and source; then the installed hooks.
 */

import assert from "node:assert/strict";
import { linesOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";

const GUARD = `module.exports = {
  failClosed: true,
  beforeToolExecute: function () {},
  afterRun: function () {},
};
`;

Deno.test("rienda hooks lists the entries of the agent's runs in run order, then the installed hooks", async () => {
  await using env = await createTestEnv();
  await env.writeHook("guard", GUARD);
  await env.writeHook("audit", `module.exports = { afterToolExecute: function () {} };`);
  await env.writeConfig(
    defaultConfig("http://127.0.0.1:1/v1") +
      [
        "hooks:",
        "  - command: [hooks/late.sh]",
        "    priority: 5",
        "  - name: guard",
        "    matcher: shell",
        "  - command: [node, hooks/policy.mjs, '{tool}', '{path}', two words]",
        "    on: [beforeToolExecute, afterToolExecute]",
        "    matcher: write|edit",
        "    fail_closed: true",
        "    timeout_ms: 5000",
        "",
      ].join("\n"),
  );
  const agentFile = await env.writeAgent("careful", {
    description: "Careful.",
    hooks: [
      { name: "audit", timeout_ms: 700, fail_closed: true },
      { name: "guard", fail_closed: false },
      { claude: "PreToolUse", matcher: "Bash", command: "python3 ~/.claude/hooks/check.py" },
      { command: ["sh", "hooks/first.sh"], priority: -1 },
    ],
  });
  const result = await env.run(["hooks", "-a", "careful"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const config = env.configPath;
  assert.deepEqual(linesOf(result.stdout), [
    "hooks of agent careful, in run order:",
    "1  sh hooks/first.sh",
    "   beforeToolExecute; priority -1; timeout 10000 ms",
    `   ${agentFile}: hooks[3]`,
    // config.yaml's guard runs once, with config.yaml's settings: the agent's entry cannot weaken it.
    "2  guard",
    '   afterRun, beforeToolExecute; matcher "shell"; fail-closed',
    `   ${config}: hooks[1]`,
    "3  node hooks/policy.mjs {tool} {path} 'two words'",
    '   beforeToolExecute, afterToolExecute; matcher "write|edit"; fail-closed; timeout 5000 ms',
    `   ${config}: hooks[2]`,
    "4  audit",
    "   afterToolExecute; fail-closed; timeout 700 ms",
    `   ${agentFile}: hooks[0]`,
    "5  python3 ~/.claude/hooks/check.py",
    '   claude PreToolUse (beforeToolExecute); matcher "Bash"; timeout 600000 ms',
    `   ${agentFile}: hooks[2]`,
    "6  hooks/late.sh",
    "   beforeToolExecute; priority 5; timeout 10000 ms",
    `   ${config}: hooks[0]`,
    "",
    `installed in ${env.home}/hooks:`,
    "audit  afterToolExecute             agent careful: fail-closed, timeout 700 ms",
    "  capabilities: full access",
    "guard  afterRun, beforeToolExecute  fail-closed; agent careful: fail-open",
    "  capabilities: full access",
  ]);
  // The list word, and the default agent (config.yaml's default_agent) without -a.
  const listed = await env.run(["hooks", "list", "--agent", "careful"]);
  assert.equal(listed.stdout, result.stdout);
  await env.writeConfig(
    `default_agent: careful\n${await Deno.readTextFile(config)}`,
  );
  const byDefault = await env.run(["hooks"]);
  assert.equal(byDefault.code, 0, byDefault.stderr);
  assert.equal(linesOf(byDefault.stdout)[0], "hooks of agent careful, in run order:");
  assert.equal(linesOf(byDefault.stdout)[1], "1  sh hooks/first.sh");
});

Deno.test("rienda hooks says when the agent runs none, and fails naming an entry whose hook is not installed", async () => {
  await using env = await createTestEnv();
  const none = await env.run(["hooks"]);
  assert.equal(none.code, 0, none.stderr);
  assert.equal(
    none.stdout,
    "agent default runs no hooks (none in its hooks: or in config.yaml's)\n",
  );
  const agentFile = await env.writeAgent("careful", {
    description: "Careful.",
    hooks: ["gaurd"],
  });
  const missing = await env.run(["hooks", "-a", "careful"]);
  assert.equal(missing.code, 1);
  assert.deepEqual(linesOf(missing.stdout), [
    "hooks of agent careful, in run order:",
    "1  gaurd",
    "   not installed",
    `   ${agentFile}: hooks[0]`,
  ]);
  assert.equal(
    missing.stderr,
    `${agentFile}: hooks[0]: hook "gaurd" is not installed (a hook is ${env.home}/hooks/gaurd/index.js)\n`,
  );
  const unknown = await env.run(["hooks", "-a", "nobody"]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^rienda: .*nobody/);
});

Deno.test("rienda hooks writes out the controls of a hostile command, even to a pipe", async () => {
  await using env = await createTestEnv();
  // A title-setting OSC, a bell and a newline that would forge an entry of the listing; a C1 CSI.
  const agentFile = await env.writeAgent(
    "careful",
    [
      "description: Careful.",
      "hooks:",
      '  - command: [sh, "-c", "printf \\e]0;owned\\a\\n2  rm -rf ~"]',
      '  - { claude: Stop, command: "echo \\x9b31m" }',
    ].join("\n"),
  );
  const result = await env.run(["hooks", "-a", "careful"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(linesOf(result.stdout), [
    "hooks of agent careful, in run order:",
    "1  sh -c 'printf \\x1b]0;owned\\x07\\n2  rm -rf ~'",
    "   beforeToolExecute; timeout 10000 ms",
    `   ${agentFile}: hooks[0]`,
    "2  echo \\x9b31m",
    "   claude Stop (afterRun); timeout 600000 ms",
    `   ${agentFile}: hooks[1]`,
  ]);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(result.stdout, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
});

Deno.test("rienda hooks -C lists a project agent's run: its command hooks are left out, with the warning", async () => {
  await using env = await createTestEnv();
  const project = await env.makeDir("project");
  await Deno.mkdir(`${project}/.rienda/agents`, { recursive: true });
  await Deno.writeTextFile(
    `${project}/.rienda/agents/local.md`,
    '---\ndescription: Local.\nhooks:\n  - command: [sh, "-c", "echo \\e[2J"]\n---\nHi.\n',
  );
  const result = await env.run(["hooks", "-a", "local", "-C", project]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    "agent local runs no hooks (none in its hooks: or in config.yaml's)\n",
  );
  assert.match(result.stderr, /left out: a project agent cannot add command hooks/);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(result.stderr, /\x1b/);
});

Deno.test("rienda hooks names the home agent's file for the hooks a trusted project agent inherits from it", async () => {
  await using env = await createTestEnv();
  await env.writeHook("guard", GUARD);
  await env.writeHook("audit", `module.exports = { afterToolExecute: function () {} };`);
  const homeFile = await env.writeAgent("coder", {
    description: "Home coder.",
    hooks: [{ command: ["sh", "hooks/policy.sh"] }, "guard"],
  });
  const projectFile = await env.writeFile(
    "workspace/.rienda/agents/coder.md",
    "---\ndescription: Project coder.\nhooks:\n  - guard\n  - audit\n---\nHi.\n",
  );
  const trust = await env.run(["trust"]);
  assert.equal(trust.code, 0, trust.stderr);
  const result = await env.run(["hooks", "-a", "coder"]);
  assert.equal(result.code, 0, result.stderr);
  const sources = linesOf(result.stdout).filter((line) => line.includes(": hooks["));
  assert.deepEqual(sources.slice(0, 3), [
    `   ${homeFile}: hooks[0]`,
    `   ${homeFile}: hooks[1]`,
    `   ${projectFile}: hooks[1]`,
  ]);
});

Deno.test("rienda hooks marks, in a clone you have not trusted, each entry that would run one of its files", async () => {
  await using env = await createTestEnv();
  const { workdir } = env;
  // What a cloned repository holds: scripts named as your hooks name theirs.
  await Deno.mkdir(`${workdir}/.git`);
  await env.writeFile("workspace/hooks/guard.mjs", "process.exit(0);\n");
  await env.writeFile("workspace/.claude/hooks/start.sh", "#!/bin/sh\n");
  await env.writeConfig(
    defaultConfig("http://127.0.0.1:1/v1") +
      [
        "hooks:",
        "  - command: [node, hooks/guard.mjs, '{tool}']",
        "  - claude: SessionStart",
        "    command: '\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/start.sh'",
        "",
      ].join("\n"),
  );
  const agentFile = await env.writeAgent("careful", {
    description: "Careful.",
    // Files of yours, or none of the clone's: these run there.
    hooks: [{ command: ["sh", `${env.home}/policy.sh`] }, { command: ["sh", "hooks/absent.sh"] }],
  });
  const config = env.configPath;
  const root = await Deno.realPath(workdir);
  const refuses = (file: string) =>
    `   refuses every call here: it would run ${
      JSON.stringify(file)
    } of ${root}, a project you have not trusted (rienda trust)`;
  const untrusted = await env.run(["hooks", "-a", "careful"]);
  assert.equal(untrusted.code, 0, untrusted.stderr);
  const listing = [
    "hooks of agent careful, in run order:",
    "1  node hooks/guard.mjs {tool}",
    "   beforeToolExecute; timeout 10000 ms",
    `   ${config}: hooks[0]`,
    refuses("hooks/guard.mjs"),
    `2  "$CLAUDE_PROJECT_DIR"/.claude/hooks/start.sh`,
    "   claude SessionStart (beforeRun); timeout 600000 ms",
    `   ${config}: hooks[1]`,
    refuses("./.claude/hooks/start.sh"),
    `3  sh ${env.home}/policy.sh`,
    "   beforeToolExecute; timeout 10000 ms",
    `   ${agentFile}: hooks[0]`,
    "4  sh hooks/absent.sh",
    "   beforeToolExecute; timeout 10000 ms",
    `   ${agentFile}: hooks[1]`,
  ];
  assert.deepEqual(linesOf(untrusted.stdout), listing);
  assert.equal((await env.run(["trust"])).code, 0);
  const trusted = await env.run(["hooks", "-a", "careful"]);
  assert.deepEqual(
    linesOf(trusted.stdout),
    listing.filter((line) => !line.includes("refuses every call")),
  );
});
