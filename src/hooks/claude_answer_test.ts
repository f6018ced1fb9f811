import { deepStrictEqual } from "node:assert/strict";
import { type ClaudeAnswer, readClaudeResult } from "./claude_answer.ts";
import type { HookProcessResult } from "./hook_process.ts";

function exited(code: number, stdout = "", stderr = ""): HookProcessResult {
  return { kind: "exited", code, stdout, stderr, stdoutTruncated: false };
}

function said(answer: ClaudeAnswer) {
  if (answer.kind !== "said") throw new Error(`not said: ${JSON.stringify(answer)}`);
  return answer.said;
}

Deno.test("readClaudeResult() takes exit 2 as a block with the whole stderr", () => {
  deepStrictEqual(
    said(readClaudeResult("PreToolUse", exited(2, "", "• one\n• two\n"), 1)),
    { block: "• one\n• two" },
  );
});

Deno.test("readClaudeResult() reads permissionDecision, updatedInput and additionalContext", () => {
  const output = (specific: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    exited(
      0,
      JSON.stringify({
        hookSpecificOutput: { hookEventName: "PreToolUse", ...specific },
        ...extra,
      }),
    );
  deepStrictEqual(
    said(
      readClaudeResult(
        "PreToolUse",
        output({ permissionDecision: "deny", permissionDecisionReason: "no" }),
        1,
      ),
    ),
    { block: "no" },
  );
  deepStrictEqual(
    said(
      readClaudeResult(
        "PreToolUse",
        output({ permissionDecision: "ask", permissionDecisionReason: "sure?" }),
        1,
      ),
    ),
    { permission: { decision: "ask", reason: "sure?" } },
  );
  deepStrictEqual(
    said(
      readClaudeResult(
        "PreToolUse",
        output({ permissionDecision: "allow", updatedInput: { command: "rg" } }),
        1,
      ),
    ),
    { permission: { decision: "allow", reason: "" }, updatedInput: { command: "rg" } },
  );
  // updatedInput means something at PreToolUse only.
  deepStrictEqual(
    said(
      readClaudeResult(
        "PostToolUse",
        output({ updatedInput: { command: "rg" }, additionalContext: "ran" }),
        1,
      ),
    ),
    { context: "ran" },
  );
  deepStrictEqual(
    said(
      readClaudeResult(
        "Stop",
        output({}, { continue: false, stopReason: "done", systemMessage: "hi" }),
        1,
      ),
    ),
    { stop: "done", message: "hi" },
  );
  deepStrictEqual(
    said(readClaudeResult("UserPromptSubmit", exited(0, '{"decision":"block","reason":"no"}'), 1)),
    { block: "no" },
  );
});

Deno.test("readClaudeResult() adds plain stdout as context at UserPromptSubmit and SessionStart only", () => {
  deepStrictEqual(said(readClaudeResult("SessionStart", exited(0, "Today is Monday.\n"), 1)), {
    context: "Today is Monday.",
  });
  deepStrictEqual(said(readClaudeResult("UserPromptSubmit", exited(0, "[1, 2]"), 1)), {
    context: "[1, 2]",
  });
  deepStrictEqual(said(readClaudeResult("PreToolUse", exited(0, "checked\n"), 1)), {});
  deepStrictEqual(said(readClaudeResult("PreToolUse", exited(0, "{not json"), 1)), {});
});

Deno.test("readClaudeResult() makes other exits, timeouts and missing programs non-blocking errors", () => {
  deepStrictEqual(readClaudeResult("PreToolUse", exited(1, "", "Error: bad\nmore"), 1), {
    kind: "failed",
    problem: "exited 1: Error: bad",
  });
  deepStrictEqual(readClaudeResult("PreToolUse", { kind: "timeout", stderr: "" }, 500), {
    kind: "failed",
    problem: "did not finish within 500 ms (timeout_ms)",
    timedOut: true,
  });
  deepStrictEqual(
    readClaudeResult("PreToolUse", { kind: "not_started", problem: "no sh" }, 1),
    { kind: "failed", problem: "cannot start: no sh" },
  );
  deepStrictEqual(readClaudeResult("PreToolUse", { kind: "interrupted" }, 1), {
    kind: "interrupted",
  });
  deepStrictEqual(
    readClaudeResult("PreToolUse", {
      kind: "exited",
      code: 0,
      stdout: "{",
      stderr: "",
      stdoutTruncated: true,
    }, 1),
    { kind: "failed", problem: "wrote more than 1 MiB on stdout" },
  );
});
