import { deepStrictEqual } from "node:assert/strict";
import { claudeStdin } from "./claude_input.ts";

const RUN = { sessionId: "s1", workdir: "/w", transcriptPath: "/h/s1.jsonl" };
const COMMON = {
  "session_id": "s1",
  "transcript_path": "/h/s1.jsonl",
  cwd: "/w",
  "permission_mode": "default",
};

Deno.test("claudeStdin() hands PreToolUse and PostToolUse the call in Claude Code's terms", () => {
  const call = { id: "call_1", name: "write", arguments: { path: "a.txt", content: "hi" } };
  deepStrictEqual(JSON.parse(claudeStdin("PreToolUse", [call], RUN)), {
    ...COMMON,
    "hook_event_name": "PreToolUse",
    "tool_name": "Write",
    "tool_input": { file_path: "/w/a.txt", content: "hi" },
    "tool_use_id": "call_1",
  });
  deepStrictEqual(
    JSON.parse(claudeStdin("PostToolUse", [call, { text: "wrote 2 bytes", isError: false }], RUN)),
    {
      ...COMMON,
      "hook_event_name": "PostToolUse",
      "tool_name": "Write",
      "tool_input": { file_path: "/w/a.txt", content: "hi" },
      "tool_use_id": "call_1",
      "tool_response": { output: "wrote 2 bytes", success: true, filePath: "/w/a.txt" },
    },
  );
  const shell = { id: "c2", name: "shell", arguments: { command: "false" } };
  deepStrictEqual(
    JSON.parse(claudeStdin("PostToolUse", [shell, { text: "exit 1", isError: true }], RUN))
      .tool_response,
    { output: "exit 1", success: false, stdout: "exit 1", stderr: "", interrupted: false },
  );
});

Deno.test("claudeStdin() gives the other events their fields", () => {
  const fields = (event: Parameters<typeof claudeStdin>[0], args: unknown[]) => {
    const { "session_id": _s, "transcript_path": _t, cwd: _c, "permission_mode": _p, ...rest } =
      JSON
        .parse(claudeStdin(event, args, RUN));
    return rest;
  };
  deepStrictEqual(fields("UserPromptSubmit", [{ text: "hi $(rm -rf ~)" }]), {
    "hook_event_name": "UserPromptSubmit",
    prompt: "hi $(rm -rf ~)",
  });
  deepStrictEqual(fields("SessionStart", [{}]), {
    "hook_event_name": "SessionStart",
    source: "startup",
  });
  deepStrictEqual(fields("Stop", [{ reason: "end_turn" }]), {
    "hook_event_name": "Stop",
    "stop_hook_active": false,
  });
  deepStrictEqual(fields("SessionEnd", [{ reason: "error" }]), {
    "hook_event_name": "SessionEnd",
    reason: "other",
  });
});
