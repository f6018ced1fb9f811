import { deepStrictEqual } from "node:assert/strict";
import { importClaudeSettings, namesWorkspaceFile } from "./claude_settings.ts";

Deno.test("importClaudeSettings() turns each command hook into a claude: entry", () => {
  deepStrictEqual(
    importClaudeSettings({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: "python3 v.py", timeout: 30 }],
          },
          { matcher: "*", hooks: [{ type: "command", command: "log.sh" }] },
        ],
        UserPromptSubmit: [{ matcher: "", hooks: [{ type: "command", command: "ctx.sh" }] }],
      },
    }),
    {
      hooks: [
        { claude: "PreToolUse", matcher: "Bash", command: "python3 v.py", timeoutMs: 30_000 },
        { claude: "PreToolUse", command: "log.sh" },
        { claude: "UserPromptSubmit", command: "ctx.sh" },
      ],
      skipped: [],
    },
  );
});

Deno.test("importClaudeSettings() skips what rienda cannot run, saying why, and repeats", () => {
  deepStrictEqual(
    importClaudeSettings({
      hooks: {
        Notification: [{ hooks: [{ type: "command", command: "notify.sh" }] }],
        Stop: [
          { matcher: "x", hooks: [{ type: "prompt", prompt: "done?" }, { type: "command" }] },
          { hooks: [{ type: "command", command: "say done" }] },
          { hooks: [{ type: "command", command: "say done" }] },
          "nonsense",
        ],
        SessionEnd: {},
      },
    }),
    {
      hooks: [{ claude: "Stop", command: "say done" }],
      skipped: [
        "hooks.Notification: rienda runs PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SessionEnd",
        "hooks.Stop[0].matcher: left out (Claude Code reads no matcher for Stop)",
        'hooks.Stop[0].hooks[0]: type "prompt" (rienda runs "command" hooks only)',
        "hooks.Stop[0].hooks[1]: no command",
        'hooks.Stop[3]: no "hooks" list',
        "hooks.SessionEnd: not a list",
      ],
    },
  );
  deepStrictEqual(importClaudeSettings({ permissions: {} }), { hooks: [], skipped: [] });
});

Deno.test("namesWorkspaceFile() tells commands that run a file of the workspace", () => {
  const named = [
    '"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh',
    "python3 ${CLAUDE_PROJECT_DIR}/v.py",
    ".claude/hooks/check.sh",
    "node ./hooks/x.mjs --fast",
    "python3 check.py",
    "cd sub/dir && true",
    "bash 'scripts/guard.sh'",
    "run --config=hooks/x.yaml",
  ];
  const unnamed = [
    "python3 ~/.claude/hooks/bash_validator.py",
    "/usr/local/bin/guard --strict",
    "${CLAUDE_PLUGIN_ROOT}/hooks/start.sh",
    "$HOME/bin/guard",
    "notify-send done",
    "jq -r .tool_input.command >> ~/log.txt 2>/dev/null",
    "curl -s https://example.com/hook",
    "npx prettier --write",
  ];
  deepStrictEqual(named.filter((command) => !namesWorkspaceFile(command)), []);
  deepStrictEqual(unnamed.filter(namesWorkspaceFile), []);
});
