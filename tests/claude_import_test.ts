import assert from "node:assert/strict";
import { exists } from "./harness/claude_scripts.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";

const FIXTURES = new URL("./testdata/claude-hooks/", import.meta.url);

/** A Bash validator's settings, as Claude Code's docs write them, in the user's ~/.claude/settings.json. */
const USER_SETTINGS = {
  hooks: {
    PreToolUse: [{
      matcher: "Bash",
      hooks: [{
        type: "command",
        command: "python3 ~/.claude/hooks/bash_validator.py",
      }],
    }],
    Notification: [{ hooks: [{ type: "command", command: "notify-send done" }] }],
  },
};

Deno.test("hooks import-claude prints the user's and the project's hooks as claude: entries", async () => {
  await using env = await createTestEnv();
  await env.writeFile("home/.claude/settings.json", JSON.stringify(USER_SETTINGS));
  await Deno.mkdir(`${env.workdir}/.claude`);
  // A plugin's hooks.json: its command names CLAUDE_PLUGIN_ROOT.
  await Deno.copyFile(new URL("hooks.json", FIXTURES), `${env.workdir}/.claude/settings.json`);
  const result = await env.run(["hooks", "import-claude"], { env: { HOME: `${env.root}/home` } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    [
      "hooks:",
      "  - claude: PreToolUse",
      "    matcher: Bash",
      "    command: python3 ~/.claude/hooks/bash_validator.py",
      `  # the project's, from ${env.workdir}/.claude/settings.json: for an agent you run in this project, not for config.yaml`,
      "  - claude: SessionStart",
      "    command: ${CLAUDE_PLUGIN_ROOT}/hooks/session-start.sh",
      "",
    ].join("\n"),
  );
  assert.equal(
    result.stderr,
    [
      `${env.root}/home/.claude/settings.json: skipped hooks.Notification: rienda runs PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SessionEnd`,
      `${env.workdir}/.claude/settings.json: SessionStart: the command uses CLAUDE_PLUGIN_ROOT, which rienda does not set: write the plugin's folder in its place`,
      "",
    ].join("\n"),
  );
});

Deno.test("hooks import-claude names a missing or broken settings file", async () => {
  await using env = await createTestEnv();
  const missing = await env.run(["hooks", "import-claude", "nope.json"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.json: no such file/);
  await env.writeFile("bad.json", "{ hooks: ");
  const broken = await env.run(["hooks", "import-claude", `${env.root}/bad.json`]);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /^rienda: .*bad\.json: not JSON: /);
  const none = await env.run(["hooks", "import-claude"]);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /^rienda: no Claude Code settings found \(looked for /);
});

Deno.test("hooks import-claude --write appends the new entries to config.yaml, keeping its comments", async () => {
  await using env = await createTestEnv();
  await env.writeFile("home/.claude/settings.json", JSON.stringify(USER_SETTINGS));
  const before = `# my settings\n${await Deno.readTextFile(env.configPath)}`;
  await Deno.writeTextFile(env.configPath, before);
  const options = { env: { HOME: `${env.root}/home` } };
  const written = await env.run(["hooks", "import-claude", "--write"], options);
  assert.equal(written.code, 0, written.stderr);
  assert.ok(written.stderr.endsWith(`added 1 hook to ${env.configPath}\n`), written.stderr);
  const after = await Deno.readTextFile(env.configPath);
  assert.ok(after.startsWith(before), after);
  assert.ok(
    after.endsWith(
      `hooks:\n  - claude: PreToolUse\n    matcher: Bash\n    command: python3 ~/.claude/hooks/bash_validator.py\n`,
    ),
    after,
  );
  const again = await env.run(["hooks", "import-claude", "--write"], options);
  assert.equal(again.code, 0, again.stderr);
  assert.ok(again.stderr.endsWith(`${env.configPath} has all of them already\n`), again.stderr);
  assert.equal(await Deno.readTextFile(env.configPath), after);
});

/** A project's hook as Claude Code's docs write one: a script of the repository, by CLAUDE_PROJECT_DIR. */
const PROJECT_HOOK = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/start.sh';

/** Writes `<dir>/.claude/settings.json` with a SessionStart hook running {@link PROJECT_HOOK}. */
async function writeProjectSettings(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/.claude`, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/.claude/settings.json`,
    JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: PROJECT_HOOK }] }] },
    }),
  );
}

/** Another cloned repository, shipping the script a project hook names, which leaves a mark when run. */
async function hostileRepository(env: TestEnv): Promise<string> {
  const dir = await env.makeDir("other-repo");
  await Deno.mkdir(`${dir}/.git`);
  await Deno.mkdir(`${dir}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/.claude/hooks/start.sh`,
    '#!/bin/sh\ncat > /dev/null\ntouch "$CLAUDE_PROJECT_DIR/taken-over"\n',
    { mode: 0o755 },
  );
  return dir;
}

Deno.test("hooks import-claude --write adds the user's hooks only: another repository's script of the project hook's name never runs", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("user/.claude/settings.json", JSON.stringify(USER_SETTINGS));
  await writeProjectSettings(env.workdir);
  const before = await Deno.readTextFile(env.configPath);
  const written = await env.run(["hooks", "import-claude", "--write"]);
  assert.equal(written.code, 0, written.stderr);
  // Both are printed, the project's under a comment naming its file.
  assert.ok(
    written.stdout.endsWith(
      `  # the project's, from ${env.workdir}/.claude/settings.json: for an agent you run in this project, not for config.yaml\n  - claude: SessionStart\n    command: '${PROJECT_HOOK}'\n`,
    ),
    written.stdout,
  );
  const notes = written.stderr.split("\n").filter((line) => line.includes("not added"));
  assert.deepEqual(notes, [
    `${env.workdir}/.claude/settings.json: the project's hook was not added to ${env.configPath}, whose hooks run in every repository (a script the project names would run in any repository holding a file there): paste them into the hooks: of a home agent you run in this project (~/.rienda/agents/ID.md, -a ID), or name the file to add them anyway (rienda hooks import-claude ${env.workdir}/.claude/settings.json --write)`,
  ]);
  assert.ok(written.stderr.endsWith(`added 1 hook to ${env.configPath}\n`), written.stderr);
  assert.equal(
    await Deno.readTextFile(env.configPath),
    `${before}hooks:\n  - claude: PreToolUse\n    matcher: Bash\n    command: python3 ~/.claude/hooks/bash_validator.py\n`,
  );
  // A run in another repository that ships .claude/hooks/start.sh does not run it.
  const other = await hostileRepository(env);
  const run = await env.run(["run", "go"], { cwd: other });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await exists(`${other}/taken-over`), false);
});

Deno.test("hooks import-claude --write with only the project's hooks writes nothing", async () => {
  await using env = await createTestEnv();
  await writeProjectSettings(env.workdir);
  const before = await Deno.readTextFile(env.configPath);
  const written = await env.run(["hooks", "import-claude", "--write"]);
  assert.equal(written.code, 0, written.stderr);
  assert.match(written.stdout, /# the project's, from .*\n {2}- claude: SessionStart\n/);
  assert.match(written.stderr, /: the project's hook was not added to /);
  assert.doesNotMatch(written.stderr, /^added /m);
  assert.equal(await Deno.readTextFile(env.configPath), before);
});

Deno.test("hooks import-claude FILE --write adds the project's hooks named, warning that they run in every workspace", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await writeProjectSettings(env.workdir);
  const written = await env.run(["hooks", "import-claude", ".claude/settings.json", "--write"]);
  assert.equal(written.code, 0, written.stderr);
  assert.equal(
    written.stdout,
    `hooks:\n  - claude: SessionStart\n    command: '${PROJECT_HOOK}'\n`,
  );
  assert.equal(
    written.stderr,
    [
      `${env.workdir}/.claude/settings.json: SessionStart: "${PROJECT_HOOK}" names $CLAUDE_PROJECT_DIR or a relative path: in config.yaml it runs in every workspace you trust, so any repository you trust holding a file there gets it run (to keep it to one project, put it in the hooks: of a home agent you run there)`,
      `added 1 hook to ${env.configPath}`,
      "",
    ].join("\n"),
  );
  assert.ok((await Deno.readTextFile(env.configPath)).endsWith(`    command: '${PROJECT_HOOK}'\n`));
  // What the warning says: a run in a repository shipping that script runs it once you trust it.
  const other = await hostileRepository(env);
  const run = await env.run(["run", "go"], { cwd: other });
  assert.equal(await exists(`${other}/taken-over`), false, run.stderr);
  assert.match(run.stderr, /not run: it would run "\.\/\.claude\/hooks\/start\.sh" of /);
  assert.equal((await env.run(["trust"], { cwd: other })).code, 0);
  const trusted = await env.run(["run", "go"], { cwd: other });
  assert.equal(trusted.code, 0, trusted.stderr);
  assert.equal(await exists(`${other}/taken-over`), true);
});
