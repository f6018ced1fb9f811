import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { parse } from "yaml";
import { HOOK_POINTS } from "../engine/hooks.ts";
import {
  DEFAULT_CLAUDE_TIMEOUT_MS,
  DEFAULT_COMMAND_TIMEOUT_MS,
  ENTRY_POINTS,
  entryLabel,
  type HookEntry,
  orderHookEntries,
  type SourcedHookEntry,
  toolMatcher,
} from "./hook_entries.ts";
import { parseHookEntries } from "./parse_hook_entries.ts";
import { formatFieldPath } from "../base/field_path.ts";
import { loadLinearRegExp } from "../base/linear_regexp.ts";

function entries(yaml: string): readonly HookEntry[] {
  const parsed = parseHookEntries(parse(yaml));
  deepStrictEqual(parsed.problems, []);
  return parsed.entries;
}

function problems(yaml: string): string[] {
  return parseHookEntries(parse(yaml)).problems.map((problem) =>
    `${formatFieldPath(problem.path)}: ${problem.message}`
  );
}

Deno.test("ENTRY_POINTS is the engine's HOOK_POINTS", () => {
  deepStrictEqual([...ENTRY_POINTS], [...HOOK_POINTS]);
});

Deno.test("parseHookEntries() reads the three forms of the issue's example", () => {
  deepStrictEqual(
    entries(`
- guard
- name: audit
  matcher: "write|edit"
  priority: -10
- command: ["node", "hooks/policy.mjs", "{tool}", "{path}"]
  on: [beforeToolExecute]
  matcher: shell
  timeout_ms: 5000
  fail_closed: true
- claude: PreToolUse
  matcher: Bash
  command: "python3 ~/.claude/hooks/bash_validator.py"
`),
    [
      { kind: "script", name: "guard", index: 0, priority: 0 },
      { kind: "script", name: "audit", index: 1, priority: -10, matcher: "write|edit" },
      {
        kind: "command",
        argv: ["node", "hooks/policy.mjs", "{tool}", "{path}"],
        points: ["beforeToolExecute"],
        index: 2,
        priority: 0,
        matcher: "shell",
        failClosed: true,
        timeoutMs: 5000,
      },
      {
        kind: "claude",
        event: "PreToolUse",
        command: "python3 ~/.claude/hooks/bash_validator.py",
        index: 3,
        priority: 0,
        matcher: "Bash",
        timeoutMs: DEFAULT_CLAUDE_TIMEOUT_MS,
      },
    ],
  );
});

Deno.test("parseHookEntries() defaults a command to beforeToolExecute and 10 s, and keeps on: in point order", () => {
  deepStrictEqual(
    entries("- command: [sh, x.sh]\n- command: [a]\n  on: [afterRun, beforeRun]\n  matcher: '*'"),
    [
      {
        kind: "command",
        argv: ["sh", "x.sh"],
        points: ["beforeToolExecute"],
        index: 0,
        priority: 0,
        timeoutMs: DEFAULT_COMMAND_TIMEOUT_MS,
      },
      {
        kind: "command",
        argv: ["a"],
        points: ["beforeRun", "afterRun"],
        index: 1,
        priority: 0,
        timeoutMs: DEFAULT_COMMAND_TIMEOUT_MS,
      },
    ],
  );
  deepStrictEqual(parseHookEntries(null), { entries: [], problems: [] });
});

Deno.test("parseHookEntries() names the entry and the field of every problem", () => {
  deepStrictEqual(
    problems(`
- command: "node hooks/x.mjs; rm -rf /"
- command: []
- command: [node, 3, ""]
- command: [node]
  on: [beforeTool]
- command: [node]
  on: [beforeRun]
  matcher: shell
- name: g
  command: [node]
- { name: "a b" }
- { name: guard, matcher: "(", priority: 1.5, fail_closed: yes, timeout_ms: 0, flavour: 1 }
- claude: PreToolCall
  command: x
- claude: Stop
  matcher: Bash
  command: x
- claude: PostToolUse
  command: [x]
- { matcher: shell }
- 7
`),
    [
      'hooks[0].command: must be an argv list such as [node, hooks/x.mjs] (found "node hooks/x.mjs; rm -rf /"); a command hook never runs through a shell',
      "hooks[1].command: must name a program, such as [node, hooks/x.mjs] (found an empty list)",
      "hooks[2].command[1]: must be a text argument (found 3)",
      'hooks[3].on: unknown point "beforeTool" (expected one of: beforeRun, beforePrompt, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute, afterToolExecute)',
      "hooks[4].matcher: applies to beforeToolExecute and afterToolExecute only, and this entry runs at beforeRun: list those points in an entry of their own",
      'hooks[5]: has both "name" (a JavaScript hook) and "command" (a command hook): an entry is one or the other',
      'hooks[6].name: invalid hook name "a b" (expected 1 to 64 letters, digits, "_" or "-")',
      "hooks[7].flavour: unknown key for this entry (expected one of: name, matcher, priority, timeout_ms, fail_closed)",
      "hooks[7].matcher: is not a valid regular expression: /(/u: Unterminated group",
      "hooks[7].priority: must be a whole number, lower first, such as -10 or 5 (found 1.5)",
      'hooks[7].fail_closed: must be true or false (found "yes")',
      "hooks[7].timeout_ms: must be a whole number of milliseconds from 1 to 2147483647 (found 0)",
      'hooks[8].claude: unknown Claude Code event "PreToolCall" (rienda runs: PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SessionEnd)',
      "hooks[9].matcher: Claude Code reads no matcher for Stop (it applies to PreToolUse, PostToolUse, SessionStart, SessionEnd): remove it",
      'hooks[10].command: must be the shell command Claude Code runs, such as "python3 ~/.claude/hooks/check.py" (found a list)',
      'hooks[11]: missing "name", "command" or "claude" (such as { name: guard } or { command: [node, hooks/check.mjs] })',
      "hooks[12]: must be a hook name or an entry such as { command: [node, hooks/check.mjs] } (found 7)",
    ],
  );
  deepStrictEqual(problems("guard"), [
    'hooks: must be a list of hook entries such as [guard, { command: [node, hooks/check.mjs] }] (found "guard")',
  ]);
});

Deno.test("parseHookEntries() marks an unknown key as a problem of the key", () => {
  deepStrictEqual(parseHookEntries([{ command: ["x"], shell: true }]).problems, [{
    path: ["hooks", 0, "shell"],
    message:
      "unknown key for this entry (expected one of: command, on, matcher, priority, timeout_ms, fail_closed)",
    key: true,
  }]);
});

Deno.test("toolMatcher() matches the whole tool name", async () => {
  await loadLinearRegExp();
  const write = toolMatcher({ matcher: "write|edit" });
  deepStrictEqual(["write", "edit", "write_notes", "rewrite", "editx"].map(write), [
    true,
    true,
    false,
    false,
    false,
  ]);
  const shell = toolMatcher({ matcher: "shell" });
  deepStrictEqual(["shell", "myshell", "shell_x", "Shell"].map(shell), [true, false, false, false]);
  const mcp = toolMatcher({ matcher: "github__.*" });
  deepStrictEqual(["github__create_issue", "shell"].map(mcp), [true, false]);
  strictEqual(toolMatcher({})("anything"), true);
});

Deno.test("toolMatcher() runs in linear time on a name a model makes up, and refuses lookaround", async () => {
  await loadLinearRegExp();
  // JavaScript's engine takes minutes on this name; RE2 answers at once.
  strictEqual(toolMatcher({ matcher: "(a+)+b" })(`${"a".repeat(100_000)}!`), false);
  throws(
    () => toolMatcher({ matcher: "write(?!_notes)" }),
    /^Error: "write\(\?!_notes\)" cannot run in linear time \(no lookaround or backreferences\): invalid or unsupported Perl syntax: `\(\?!`$/,
  );
});

Deno.test("parseHookEntries() refuses a matcher that is valid only inside the whole-name group", () => {
  // `^(?:shell)|(.*)$` would match every tool.
  deepStrictEqual(parseHookEntries([{ name: "guard", matcher: "shell)|(.*" }]).problems, [{
    path: ["hooks", 0, "matcher"],
    message: "is not a valid regular expression: /shell)|(.*/u: Unmatched ')'",
  }]);
});

Deno.test("orderHookEntries() sorts by priority, then config before agent before session, then position", () => {
  const at = (source: SourcedHookEntry["source"], name: string, index: number, priority = 0) => ({
    source,
    entry: { kind: "script" as const, name, index, priority },
  });
  const ordered = orderHookEntries([
    at("agent", "a0", 0),
    at("agent", "a1", 1, -5),
    at("session", "s0", 0),
    at("config", "c0", 0),
    at("config", "c1", 1, 3),
    at("agent", "a2", 2),
  ]);
  deepStrictEqual(
    ordered.map(({ entry }) => entryLabel(entry)),
    ["a1", "c0", "a0", "a2", "s0", "c1"],
  );
});

Deno.test("entryLabel() names a command by its program and the arguments that are not placeholders", () => {
  const [command, claude] = entries(
    `- command: [node, "hooks/policy.mjs", "{tool}", "two words", "--path={path}"]\n- claude: Stop\n  command: ./stop.sh`,
  );
  strictEqual(command && entryLabel(command), "node hooks/policy.mjs 'two words'");
  strictEqual(claude && entryLabel(claude), "./stop.sh");
});
