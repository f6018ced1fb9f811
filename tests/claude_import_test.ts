import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";

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
