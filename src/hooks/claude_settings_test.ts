import { deepStrictEqual } from "node:assert/strict";
import { importClaudeSettings } from "./claude_settings.ts";

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
