import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ClaudeHookEntry } from "../config/hook_entries.ts";
import { type ClaudeHookContext, createClaudeHook } from "./claude_hook.ts";
import { loadLinearRegExp } from "../base/linear_regexp.ts";

// Matchers run on RE2, loaded before a run builds its hooks.
await loadLinearRegExp();

const never = new AbortController().signal;
const VALIDATOR = fileURLToPath(
  new URL("../../tests/testdata/claude-hooks/bash_validator.py", import.meta.url),
);

function entry(
  event: ClaudeHookEntry["event"],
  command: string,
  matcher?: string,
): ClaudeHookEntry {
  return {
    kind: "claude",
    event,
    command,
    index: 0,
    priority: 0,
    timeoutMs: 10_000,
    ...(matcher === undefined ? {} : { matcher }),
  };
}

async function contextFor(answers: boolean[] = []) {
  const workdir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rienda-claude-hook-" }));
  const asked: { title: string; body: string }[] = [];
  const notices: string[] = [];
  const context: ClaudeHookContext = {
    workdir,
    sessionId: "s1",
    confirm: (question) => {
      asked.push({ ...question });
      return Promise.resolve(answers.shift() ?? false);
    },
    notice: (text) => void notices.push(text),
  };
  return { context, workdir, asked, notices };
}

const shell = (command: string) => ({ id: "c1", name: "shell", arguments: { command } });

Deno.test("createClaudeHook() runs a python3 Bash validator in Claude Code's format", async () => {
  const { context } = await contextFor();
  const hook = createClaudeHook(entry("PreToolUse", `python3 '${VALIDATOR}'`, "Bash"), context);
  deepStrictEqual(hook.points, ["beforeToolExecute"]);
  strictEqual(hook.matches("shell"), true);
  strictEqual(hook.matches("write"), false);
  deepStrictEqual(
    await hook.call("beforeToolExecute", [shell("grep -r TODO .")], { signal: never }),
    {
      kind: "answered",
      value: {
        allow: false,
        reason: "- grep: run 'rg PATTERN' instead, it is faster and skips ignored files",
      },
    },
  );
  deepStrictEqual(await hook.call("beforeToolExecute", [shell("rg TODO")], { signal: never }), {
    kind: "answered",
    value: null,
  });
});

Deno.test("createClaudeHook() sets CLAUDE_PROJECT_DIR and maps updatedInput back", async () => {
  const { context, workdir } = await contextFor();
  const script =
    `read -r input; printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"%s/b.txt","content":"new","tool_name":"Bash"}}}' "$CLAUDE_PROJECT_DIR"`;
  const hook = createClaudeHook(entry("PreToolUse", script, "Write|Edit"), context);
  const call = { id: "c1", name: "write", arguments: { path: "a.txt", content: "old" } };
  deepStrictEqual(await hook.call("beforeToolExecute", [call], { signal: never }), {
    kind: "answered",
    value: { arguments: { path: `${workdir}/b.txt`, content: "new", tool_name: "Bash" } },
  });
});

Deno.test("createClaudeHook() asks the person on permissionDecision ask", async () => {
  const { context, asked } = await contextFor([false, true]);
  const script =
    `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"deletes files"}}'`;
  const hook = createClaudeHook(entry("PreToolUse", script), context);
  deepStrictEqual(await hook.call("beforeToolExecute", [shell("rm x")], { signal: never }), {
    kind: "answered",
    value: { allow: false, reason: "not approved" },
  });
  deepStrictEqual(await hook.call("beforeToolExecute", [shell("rm x")], { signal: never }), {
    kind: "answered",
    value: null,
  });
  deepStrictEqual(asked, [
    { title: "PreToolUse hook: Bash", body: "deletes files" },
    { title: "PreToolUse hook: Bash", body: "deletes files" },
  ]);
});

Deno.test("createClaudeHook() adds SessionStart's context to every request's system prompt", async () => {
  const { context } = await contextFor();
  const hook = createClaudeHook(entry("SessionStart", "echo 'Today is Monday.'"), context);
  deepStrictEqual(hook.points, ["beforeRun", "beforeModelRequest"]);
  const request = { system: "base", model: "m", messages: [] };
  deepStrictEqual(await hook.call("beforeModelRequest", [request], { signal: never }), {
    kind: "answered",
    value: null,
  });
  await hook.call("beforeRun", [{ sessionId: "s1" }], { signal: never });
  deepStrictEqual(await hook.call("beforeModelRequest", [request], { signal: never }), {
    kind: "answered",
    value: { system: "base\n\nToday is Monday." },
  });
});

Deno.test("createClaudeHook() appends PostToolUse's block and context to the result", async () => {
  const { context } = await contextFor();
  const hook = createClaudeHook(
    entry("PostToolUse", "echo 'lint: 2 problems' >&2; exit 2"),
    context,
  );
  deepStrictEqual(
    await hook.call("afterToolExecute", [shell("ls"), { text: "a b", isError: false }], {
      signal: never,
    }),
    { kind: "answered", value: { text: "a b\n\nlint: 2 problems" } },
  );
});

Deno.test("createClaudeHook() refuses a prompt on exit 2 and adds plain stdout as context", async () => {
  const { context } = await contextFor();
  const gate = createClaudeHook(
    entry("UserPromptSubmit", `grep -q secret && { echo 'no secrets' >&2; exit 2; }; echo ok`),
    context,
  );
  deepStrictEqual(await gate.call("beforePrompt", [{ text: "the secret" }], { signal: never }), {
    kind: "answered",
    value: { allow: false, reason: "no secrets" },
  });
  deepStrictEqual(await gate.call("beforePrompt", [{ text: "hello" }], { signal: never }), {
    kind: "answered",
    value: { context: "ok" },
  });
});

Deno.test("createClaudeHook() makes another exit a failure and a hang a timeout", async () => {
  const { context } = await contextFor();
  const failing = createClaudeHook(entry("PreToolUse", "echo broken >&2; exit 1"), context);
  deepStrictEqual(await failing.call("beforeToolExecute", [shell("ls")], { signal: never }), {
    kind: "failed",
    problem: "exited 1: broken",
  });
  const hanging = createClaudeHook({ ...entry("PreToolUse", "sleep 30"), timeoutMs: 300 }, context);
  deepStrictEqual(await hanging.call("beforeToolExecute", [shell("ls")], { signal: never }), {
    kind: "failed",
    problem: "did not finish within 300 ms (timeout_ms)",
    timedOut: true,
  });
});
