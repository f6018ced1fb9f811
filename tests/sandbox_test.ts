/**
 * The command sandbox (docs/sandbox.md) from outside: the real CLI runs one
 * `shell` call under bubblewrap and the test looks at the result the model
 * read and at the disk. Needs `bwrap` (the CI installs bubblewrap).
 */

import assert from "node:assert/strict";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { type FakeProvider, startFakeProvider } from "./harness/fake_provider.ts";
import { toolResultsOf } from "./harness/wire.ts";
import { configWithMcp, filesystemStdio } from "./harness/mcp_servers.ts";
import { descendantRunning, processesGone } from "./harness/processes.ts";
import { RIENDA_ENTRY } from "./harness/rienda.ts";

/** Runs one shell call of agent `box` (frontmatter `agent`) and returns what the model read. */
async function shellCall(
  command: string,
  setup: {
    config?: string;
    agent?: Record<string, unknown>;
    args?: string[];
    env?: (env: TestEnv) => Record<string, string>;
    prepare?: (env: TestEnv) => Promise<void>;
  } = {},
): Promise<{ content: string; stderr: string; env: TestEnv; provider: FakeProvider }> {
  const provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command } }] },
    { text: "done" },
  ]);
  const env = await createTestEnv({ provider });
  await env.writeConfig(`${defaultConfig(provider.url)}${setup.config ?? ""}`);
  await env.writeAgent("box", { description: "d", tools: ["shell"], ...setup.agent });
  await setup.prepare?.(env);
  const result = await env.run(["run", "-a", "box", ...(setup.args ?? []), "go"], {
    ...(setup.env === undefined ? {} : { env: setup.env(env) }),
  });
  assert.equal(result.code, 0, result.stderr);
  const content = toolResultsOf(provider.requests[1])[0]?.content;
  assert.equal(typeof content, "string");
  return { content: content as string, stderr: result.stderr, env, provider };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function dispose(run: { env: TestEnv; provider: FakeProvider }): Promise<void> {
  await run.env[Symbol.asyncDispose]();
  await run.provider[Symbol.asyncDispose]();
}

Deno.test("workspace-write: a write inside the workspace lands, one outside fails and says the sandbox blocked it", async () => {
  const run = await shellCall("echo in > inside.txt && echo out > ../outside/out.txt", {
    config: "sandbox: workspace-write\n",
    prepare: async (env) => {
      await Deno.mkdir(`${env.root}/outside`);
    },
  });
  try {
    assert.equal(await Deno.readTextFile(`${run.env.workdir}/inside.txt`), "in\n");
    assert.equal(await exists(`${run.env.root}/outside/out.txt`), false);
    const lines = run.content.split("\n");
    assert.match(run.content, /Read-only file system/);
    assert.equal(lines.at(-2), "command exited with code 2");
    assert.match(
      lines.at(-1) ?? "",
      /^sandbox: the write was blocked by rienda's sandbox \(workspace-write:/,
    );
    assert.match(
      lines.at(-1) ?? "",
      /add the folder to writable: in the sandbox: setting of config\.yaml, or run with --sandbox off$/,
    );
  } finally {
    await dispose(run);
  }
});

Deno.test("read-only: nothing in the workspace is writable, TMPDIR is, and it is private and removed after", async () => {
  const run = await shellCall(
    'echo "$TMPDIR"; echo t > "$TMPDIR/t" && cat "$TMPDIR/t"; echo x > /tmp/rienda-shared-probe; echo w > w.txt',
    { agent: { sandbox: "read-only" } },
  );
  try {
    const [tmpdir, written] = run.content.split("\n");
    assert.match(tmpdir ?? "", /^\/tmp\/rienda-sandbox-/);
    assert.equal(written, "t");
    assert.equal(await exists(tmpdir ?? ""), false, "the private temp folder outlived the call");
    assert.equal(await exists("/tmp/rienda-shared-probe"), false);
    assert.equal(await exists(`${run.env.workdir}/w.txt`), false);
    assert.match(run.content, /only TMPDIR is writable/);
    assert.match(run.content, /run with --sandbox workspace-write for the workspace/);
  } finally {
    await dispose(run);
  }
});

Deno.test("the network is off in the sandbox: a server on 127.0.0.1 cannot be reached; network: true reaches it", async () => {
  await using server = await startFakeProvider([{ text: "reached" }, { text: "reached" }]);
  const fetchIt =
    `curl -sS --max-time 5 -o /dev/null -w '%{http_code}' ${server.url}/chat/completions -d '{}'`;
  const off = await shellCall(fetchIt, { config: "sandbox: workspace-write\n" });
  try {
    assert.match(off.content, /curl: \(7\)/);
    assert.equal(server.requests.length, 0);
  } finally {
    await dispose(off);
  }
  const on = await shellCall(fetchIt, {
    config: "sandbox:\n  mode: workspace-write\n  network: true\n",
  });
  try {
    assert.equal(on.content, "200");
    assert.equal(server.requests.length, 1);
  } finally {
    await dispose(on);
  }
});

Deno.test("a name lookup in the sandbox fails and the result says the network is off", async () => {
  const run = await shellCall("curl -sS --max-time 5 https://example.com", {
    config: "sandbox: workspace-write\n",
  });
  try {
    assert.match(run.content, /Could not resolve host/);
    assert.match(
      run.content.split("\n").at(-1) ?? "",
      /^sandbox: the network is off in rienda's sandbox \(workspace-write\); to allow it, set network: true/,
    );
  } finally {
    await dispose(run);
  }
});

Deno.test("--sandbox wins over the agent: off runs unconfined, read-only confines an agent without a setting", async () => {
  const off = await shellCall("echo x > ../outside.txt", {
    agent: { sandbox: "read-only" },
    args: ["--sandbox", "off"],
  });
  try {
    assert.equal(await Deno.readTextFile(`${off.env.root}/outside.txt`), "x\n");
  } finally {
    await dispose(off);
  }
  const ro = await shellCall("echo x > inside.txt", { args: ["--sandbox", "read-only"] });
  try {
    assert.equal(await exists(`${ro.env.workdir}/inside.txt`), false);
    assert.match(ro.content, /Read-only file system/);
  } finally {
    await dispose(ro);
  }
});

Deno.test("a project's agent file asking for sandbox: off stays confined, and stderr says why", async () => {
  const provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo x > ../outside.txt" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  try {
    await env.writeConfig(`${defaultConfig(provider.url)}sandbox: workspace-write\n`);
    await env.writeFile(
      "workspace/.rienda/agents/repo.md",
      "---\ndescription: d\ntools: [shell]\nsandbox: off\n---\nbody\n",
    );
    await Deno.mkdir(`${env.workdir}/.git`);
    await env.run(["trust"]);
    const result = await env.run(["run", "-a", "repo", "go"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await exists(`${env.root}/outside.txt`), false);
    assert.ok(
      result.stderr.includes(
        `${env.workdir}/.rienda/agents/repo.md: sandbox: asks for off, more than config.yaml ` +
          "allows (workspace-write); an agent file of the project may only tighten the sandbox, " +
          "so commands run with workspace-write\n",
      ),
      result.stderr,
    );
  } finally {
    await provider[Symbol.asyncDispose]();
  }
});

Deno.test("attacks from inside the workspace: a link out of it, .git hooks, /proc/1/root, a setuid helper", async () => {
  const run = await shellCall(
    [
      "ln -s .. up && echo a > up/link.txt",
      "echo b > .git/hooks/pre-commit",
      "mv .git .git-moved",
      "echo c > /proc/1/root$PWD/../proc.txt",
      "su -c 'echo d > /root-su.txt' 2>&1 | head -1",
      "grep NoNewPrivs /proc/self/status",
      "echo survived",
    ].join("; "),
    {
      config: "sandbox: workspace-write\n",
      prepare: async (env) => {
        await Deno.mkdir(`${env.workdir}/.git/hooks`, { recursive: true });
      },
    },
  );
  try {
    assert.equal(await exists(`${run.env.root}/link.txt`), false);
    assert.equal(await exists(`${run.env.workdir}/.git/hooks/pre-commit`), false);
    assert.equal(await exists(`${run.env.workdir}/.git-moved`), false);
    assert.equal(await exists(`${run.env.root}/proc.txt`), false);
    assert.equal(await exists("/root-su.txt"), false);
    assert.match(run.content, /NoNewPrivs:\s+1/);
    assert.match(run.content, /survived/);
  } finally {
    await dispose(run);
  }
});

Deno.test("rienda's home inside the workspace stays read-only: no command rewrites config.yaml", async () => {
  const run = await shellCall("echo 'sandbox: off' >> rienda-home/config.yaml; echo x > mine.txt", {
    config: "sandbox: workspace-write\n",
    args: ["-C", ".."],
  });
  try {
    assert.doesNotMatch(await Deno.readTextFile(run.env.configPath), /sandbox: off/);
    assert.equal(await Deno.readTextFile(`${run.env.root}/mine.txt`), "x\n");
  } finally {
    await dispose(run);
  }
});

Deno.test("a writable path with .. is a config error naming the field", async () => {
  await using env = await createTestEnv();
  await env.writeConfig("sandbox:\n  mode: workspace-write\n  writable: [~/..]\n");
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `rienda: ${env.configPath}: sandbox.writable[0]: must not contain ".." ` +
      '(write the folder itself, found "~/..")\n',
  );
});

/** A `PATH` of links to the programs `names`, from the real `PATH`. */
async function pathWith(
  env: TestEnv,
  names: readonly string[],
  extra: Record<string, string> = {},
) {
  const dir = await env.makeDir("bin");
  for (const name of names) {
    const found = await new Deno.Command("sh", { args: ["-c", `command -v ${name}`] }).output();
    await Deno.symlink(new TextDecoder().decode(found.stdout).trim(), `${dir}/${name}`);
  }
  for (const [name, text] of Object.entries(extra)) {
    await Deno.writeTextFile(`${dir}/${name}`, text, { mode: 0o755 });
  }
  return dir;
}

Deno.test("without bwrap on PATH the command is not run, and the result says how to fix it", async () => {
  const run = await shellCall("echo ran > ran.txt", {
    config: "sandbox: workspace-write\n",
    prepare: async (env) => {
      await pathWith(env, ["sh"]);
    },
    env: (env) => ({ PATH: `${env.root}/bin` }),
  });
  try {
    assert.equal(await exists(`${run.env.workdir}/ran.txt`), false);
    assert.equal(
      run.content,
      "the command was not run: the sandbox cannot start: bwrap (bubblewrap) is not on PATH; " +
        "install it (apt-get install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap), " +
        "or set sandbox: off (config.yaml, the agent, or --sandbox off) to run commands unconfined",
    );
  } finally {
    await dispose(run);
  }
});

Deno.test("user namespaces refused (a bwrap that fails as in a container): nothing runs unconfined", async () => {
  const refusing =
    "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely because " +
    "the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n";
  const run = await shellCall("echo ran > ran.txt", {
    config: "sandbox: workspace-write\n",
    prepare: async (env) => {
      await pathWith(env, ["sh"], { bwrap: refusing });
    },
    env: (env) => ({ PATH: `${env.root}/bin` }),
  });
  try {
    assert.equal(await exists(`${run.env.workdir}/ran.txt`), false);
    assert.match(
      run.content,
      /^the command was not run: the sandbox cannot start: bubblewrap cannot create its namespaces here \(bwrap: No permissions to creating new namespace, .*\): user namespaces are refused, as in many containers; allow them .*or set sandbox: off/,
    );
  } finally {
    await dispose(run);
  }
});

Deno.test("ctx.system.exec is confined like shell, and its stderr ends with the sandbox's line", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "writer", arguments: {} }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(`${defaultConfig(provider.url)}sandbox: workspace-write\n`);
  await env.writeTool(
    "writer",
    `module.exports = {
  description: "Writes.",
  parameters: { type: "object" },
  execute: function (ctx) {
    const inside = ctx.system.exec("echo in > inside.txt");
    const outside = ctx.system.exec(["sh", "-c", "echo out > ../outside.txt"]);
    return JSON.stringify({ inside: inside.code, outside });
  },
};
`,
  );
  await env.writeAgent("probe", { description: "Probes.", tools: ["writer"] });
  const result = await env.run(["run", "-a", "probe", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const parsed = JSON.parse(String(toolResultsOf(provider.requests[1])[0]?.content));
  assert.equal(parsed.inside, 0);
  assert.equal(parsed.outside.code, 2);
  assert.match(parsed.outside.stderr, /Read-only file system\n/);
  assert.match(
    parsed.outside.stderr,
    /\nsandbox: the write was blocked by rienda's sandbox \(workspace-write/,
  );
  assert.equal(await Deno.readTextFile(`${env.workdir}/inside.txt`), "in\n");
  assert.equal(await exists(`${env.root}/outside.txt`), false);
});

Deno.test("SIGINT stops a sandboxed command and leaves no process behind", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        name: "shell",
        arguments: { command: "sleep 29.25 & setsid sleep 29.5 & echo started; sleep 29.75" },
      }],
    },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(`${defaultConfig(provider.url)}sandbox: workspace-write\n`);
  await env.writeAgent("box", { description: "d", tools: ["shell"] });
  await using process = await env.start(["run", "-a", "box", "wait"]);
  await process.waitForStderr("started\n");
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - signalled < 5_000, "the interrupt took too long");
  assert.ok(await processesGone("sleep 29.", 3_000), "a sandboxed process outlived the run");
});

Deno.test("rienda killed with SIGKILL takes its sandboxed commands with it, setsid or not", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        name: "shell",
        arguments: { command: "setsid sleep 28.5 & echo started; sleep 28.75" },
      }],
    },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(`${defaultConfig(provider.url)}sandbox: workspace-write\n`);
  await env.writeAgent("box", { description: "d", tools: ["shell"] });
  await using process = await env.start(["run", "-a", "box", "wait"]);
  await process.waitForStderr("started\n");
  const rienda = await descendantRunning(process.pid, RIENDA_ENTRY);
  assert.ok(rienda !== null, "no rienda process");
  Deno.kill(rienda, "SIGKILL");
  await process.wait();
  assert.ok(await processesGone("sleep 28.", 5_000), "a sandboxed process outlived rienda");
});

Deno.test("rienda init writes sandbox: workspace-write, and doctor says whether the sandbox works here", async () => {
  await using env = await createTestEnv({ noConfig: true });
  const init = await env.run(["init"]);
  assert.equal(init.code, 0, init.stderr);
  const config = await Deno.readTextFile(env.configPath);
  assert.match(config, /^sandbox: workspace-write$/m);
  assert.match(config, /# The sandbox of the commands the model runs/);
  const works = await env.run(["doctor", "--offline"]);
  assert.match(works.stdout, /^ok +sandbox +workspace-write; \/\S*bwrap works here$/m);
  await pathWith(env, ["sh"]);
  const missing = await env.run(["doctor", "--offline"], { env: { PATH: `${env.root}/bin` } });
  assert.equal(missing.code, 1);
  assert.match(
    missing.stdout,
    /^fail +sandbox +workspace-write: the sandbox cannot start: bwrap \(bubblewrap\) is not on PATH; install it/m,
  );
  await env.writeConfig("sandbox: off\n");
  const off = await env.run(["doctor", "--offline"], { env: { PATH: `${env.root}/bin` } });
  assert.match(off.stdout, /^ok +sandbox +off; the sandbox cannot start: bwrap/m);
});

Deno.test("rienda agents shows the sandbox each agent runs with, rienda tools the one of shell", async () => {
  await using env = await createTestEnv();
  await env.writeConfig("sandbox: workspace-write\n");
  await env.writeAgent("careful", {
    description: "Careful.",
    tools: ["shell"],
    sandbox: "read-only",
  });
  await env.writeAgent("plain", { description: "Plain.", tools: ["shell"] });
  await env.writeFile(
    "workspace/.rienda/agents/loose.md",
    "---\ndescription: Loose.\ntools: [shell]\nsandbox: off\n---\nbody\n",
  );
  await Deno.mkdir(`${env.workdir}/.git`);
  assert.equal((await env.run(["trust"])).code, 0);
  const agents = await env.run(["agents"]);
  const line = (id: string) => agents.stdout.split("\n").find((text) => text.startsWith(`${id} `));
  assert.match(line("careful") ?? "", /Careful\. \(sandbox: read-only\)/);
  assert.match(line("plain") ?? "", /Plain\. \(sandbox: workspace-write\)/);
  assert.match(line("loose") ?? "", /Loose\. \(sandbox: workspace-write\)/);
  assert.match(agents.stderr, /loose\.md: sandbox: asks for off, more than config\.yaml allows/);
  const tools = await env.run(["tools"]);
  assert.match(
    tools.stdout,
    /^shell .*\n {2}sandbox: workspace-write \(config\.yaml; an agent's sandbox: or --sandbox wins\)$/m,
  );
});

Deno.test("a command hook runs in the run's sandbox: it writes the workspace, not outside", async () => {
  const run = await shellCall("echo hi", {
    config: [
      "sandbox: workspace-write",
      "hooks:",
      '  - command: [sh, -c, "echo in >> hook-inside.txt; echo out >> ../hook-outside.txt; true"]',
      "    matcher: shell",
      "",
    ].join("\n"),
  });
  try {
    assert.match(await Deno.readTextFile(`${run.env.workdir}/hook-inside.txt`), /^in\n/);
    assert.equal(await exists(`${run.env.root}/hook-outside.txt`), false);
  } finally {
    await dispose(run);
  }
});

Deno.test("a Claude Code hook runs in the run's sandbox too: it writes the workspace, not outside", async () => {
  const run = await shellCall("echo hi", {
    config: [
      "sandbox: workspace-write",
      "hooks:",
      "  - claude: PreToolUse",
      "    matcher: Bash",
      '    command: "echo in >> \\"$CLAUDE_PROJECT_DIR/claude-inside.txt\\"; echo out >> ../claude-outside.txt; true"',
      "",
    ].join("\n"),
  });
  try {
    assert.equal(run.content, "hi");
    assert.match(await Deno.readTextFile(`${run.env.workdir}/claude-inside.txt`), /^in\n/);
    assert.equal(await exists(`${run.env.root}/claude-outside.txt`), false);
  } finally {
    await dispose(run);
  }
});

Deno.test("an MCP stdio server with sandbox: writes its workspace, not outside; a sandbox that cannot start keeps it off", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  const server = { ...await filesystemStdio(env.root), sandbox: "workspace-write" };
  await env.writeConfig(configWithMcp(provider.url, { fs: server }));
  await env.writeAgent("files", { description: "d", tools: ["mcp:fs/write_file"] });
  provider.push({
    toolCalls: [
      { name: "fs__write_file", arguments: { path: `${env.workdir}/in.txt`, content: "in" } },
      { name: "fs__write_file", arguments: { path: `${env.root}/out.txt`, content: "out" } },
    ],
  }, { text: "done" });
  const result = await env.run(["run", "-a", "files", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await Deno.readTextFile(`${env.workdir}/in.txt`), "in");
  assert.equal(await exists(`${env.root}/out.txt`), false);
  assert.match(
    String(toolResultsOf(provider.requests[1])[1]?.content),
    /EROFS|read-only file system/i,
  );

  await pathWith(env, ["sh", "node"]);
  provider.push({ text: "no tools" });
  const refused = await env.run(["run", "-a", "files", "go"], { env: { PATH: `${env.root}/bin` } });
  assert.match(
    refused.stderr,
    /mcp server "fs": the sandbox cannot start: bwrap \(bubblewrap\) is not on PATH; .*, or set mcp_servers\.fs\.sandbox: off in config\.yaml to run it unconfined\n/,
  );
});

Deno.test("rienda tools test confines shell as a run does", async () => {
  await using env = await createTestEnv();
  await env.writeConfig("sandbox: workspace-write\n");
  const result = await env.run([
    "tools",
    "test",
    "shell",
    "--args",
    JSON.stringify({ command: "echo x > ../tools-test.txt" }),
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(await exists(`${env.root}/tools-test.txt`), false);
  assert.match(result.stdout, /\nsandbox: the write was blocked by rienda's sandbox/);
});

Deno.test("a subagent is never looser than the run that delegated to it", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        name: "agent",
        arguments: { agent: "worker", prompt: "write it", description: "write it" },
      }],
    },
    { toolCalls: [{ name: "shell", arguments: { command: "echo x > child.txt" } }] },
    { text: "child done" },
    { text: "lead done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("lead", {
    description: "Leads.",
    tools: ["agent"],
    agents: ["worker"],
    sandbox: "read-only",
  });
  await env.writeAgent("worker", { description: "Works.", tools: ["shell"], sandbox: "off" });
  const result = await env.run(["run", "-a", "lead", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await exists(`${env.workdir}/child.txt`), false);
  assert.match(String(toolResultsOf(provider.requests[2])[0]?.content), /Read-only file system/);
});
