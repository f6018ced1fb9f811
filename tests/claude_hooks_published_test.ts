/**
 * Claude Code hook scripts as their authors publish them, run unchanged: the
 * MIT-licensed collection `claude-hooks-manager` from npm (installed into
 * `vendor/mcp-servers/` by `deno task mcp-servers`, never copied into this
 * repository). A user's `~/.claude/settings.json` naming them is migrated
 * with `rienda hooks import-claude --write`, and a run then applies them as
 * Claude Code would.
 */
import assert from "node:assert/strict";
import { mcpServersInstalled, packageDir } from "../scripts/mcp_servers.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { toolResultsOf } from "./harness/wire.ts";

/** The published scripts this file runs. */
const SCRIPTS = ["validate-git-commit.py", "secret-scanner.py"];

/**
 * Installs the published scripts into the user's `~/.claude/hooks/` (as the
 * collection's installer does) and writes a `settings.json` naming them the
 * way the collection's `settings.example.json` does.
 */
async function installForClaudeCode(env: TestEnv): Promise<void> {
  if (!(await mcpServersInstalled())) {
    throw new Error("the published hook scripts are not installed: run deno task mcp-servers");
  }
  const hooks = `${env.userHome}/.claude/hooks`;
  await Deno.mkdir(hooks, { recursive: true });
  for (const name of SCRIPTS) {
    await Deno.copyFile(`${packageDir("claude-hooks-manager")}/hooks/${name}`, `${hooks}/${name}`);
    await Deno.chmod(`${hooks}/${name}`, 0o755);
  }
  const settings = {
    hooks: {
      PreToolUse: [{
        matcher: "Bash",
        hooks: SCRIPTS.map((name) => ({ type: "command", command: `~/.claude/hooks/${name}` })),
      }],
    },
  };
  await Deno.writeTextFile(`${env.userHome}/.claude/settings.json`, JSON.stringify(settings));
}

/** Runs git in the workspace, failing the test when git fails. */
async function git(env: TestEnv, ...args: string[]): Promise<void> {
  const output = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd: env.workdir,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
}

Deno.test("published Claude Code hooks, migrated by import-claude --write, refuse bad commits and let good ones run", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: 'git commit -m "wip"' } },
        {
          name: "shell",
          arguments: { command: 'git commit -q -m "Add the parser of agent files"' },
        },
      ],
    },
    { text: "committed" },
    {
      toolCalls: [{ name: "shell", arguments: { command: 'git commit -q -m "Add the settings"' } }],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await installForClaudeCode(env);
  const imported = await env.run(["hooks", "import-claude", "--write"]);
  assert.equal(imported.code, 0, imported.stderr);
  const config = await Deno.readTextFile(env.configPath);
  for (const name of SCRIPTS) assert.ok(config.includes(`~/.claude/hooks/${name}`), config);

  await git(env, "init", "-q");
  await git(env, "config", "user.name", "t");
  await git(env, "config", "user.email", "t@example.com");
  await env.writeFile("workspace/parser.ts", "export {};\n");
  await git(env, "add", "parser.ts");
  const first = await env.run(["run", "-a", "coder", "commit the parser"]);
  assert.equal(first.code, 0, first.stderr);
  const [short, good] = toolResultsOf(provider.requests[1]).map((item) => String(item.content));
  // validate-git-commit.py exits 2 with its findings on stderr.
  assert.match(short!, /refused the call: Commit message validation failed!/);
  assert.match(short!, /Commit message too short \(minimum 10 characters\)/);
  assert.doesNotMatch(good!, /refused/);

  // secret-scanner.py reads the staged files and blocks a commit of .env.
  await env.writeFile("workspace/.env", "API_TOKEN=abc\n");
  await git(env, "add", "-f", ".env");
  const second = await env.run(["run", "-a", "coder", "commit the settings"]);
  assert.equal(second.code, 0, second.stderr);
  const [blocked] = toolResultsOf(provider.requests[3]).map((item) => String(item.content));
  assert.match(blocked!, /refused the call: .*Security Scan Results/s);
  assert.match(blocked!, /Attempting to commit \.env files/);
  const log = await new Deno.Command("git", { args: ["log", "--format=%s"], cwd: env.workdir })
    .output();
  assert.equal(new TextDecoder().decode(log.stdout), "Add the parser of agent files\n");
});
