import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { claudeToolName, fromClaudeInput, toClaudeInput } from "./claude_tools.ts";

Deno.test("claudeToolName() gives the built-ins Claude Code's names and MCP tools its prefix", () => {
  const names = ["shell", "read", "write", "edit", "grep", "find", "ls", "http"].map(
    claudeToolName,
  );
  deepStrictEqual(names, ["Bash", "Read", "Write", "Edit", "Grep", "Glob", "LS", "WebFetch"]);
  strictEqual(claudeToolName("github__create_issue"), "mcp__github__create_issue");
  strictEqual(claudeToolName("my_fs__files_read"), "mcp__my_fs__files_read");
  strictEqual(claudeToolName("word-count"), "word-count");
  strictEqual(claudeToolName("Bash"), "Bash");
});

Deno.test("toClaudeInput() renames fields and makes file_path absolute", () => {
  deepStrictEqual(toClaudeInput("shell", { command: "ls", timeout_ms: 5, workdir: "src" }, "/w"), {
    command: "ls",
    timeout: 5,
    workdir: "src",
  });
  deepStrictEqual(
    toClaudeInput("edit", { path: "a.ts", old_string: "x", new_string: "y" }, "/w"),
    { file_path: "/w/a.ts", old_string: "x", new_string: "y" },
  );
  deepStrictEqual(toClaudeInput("read", { path: "/etc/hosts", offset: 2 }, "/w"), {
    file_path: "/etc/hosts",
    offset: 2,
  });
  deepStrictEqual(toClaudeInput("grep", { pattern: "x", ignore_case: true, context: 2 }, "/w"), {
    pattern: "x",
    "-i": true,
    "-C": 2,
  });
  deepStrictEqual(toClaudeInput("github__get", { path: "a" }, "/w"), { path: "a" });
  deepStrictEqual(toClaudeInput("shell", "not an object", "/w"), {});
});

Deno.test("fromClaudeInput() maps updatedInput back, keeping the call's own path spelling", () => {
  deepStrictEqual(
    fromClaudeInput("shell", { command: "grep x", workdir: "src" }, {
      command: "rg x",
      description: "search",
      timeout: 9,
    }, "/w"),
    { command: "rg x", workdir: "src", timeout_ms: 9 },
  );
  deepStrictEqual(
    fromClaudeInput("write", { path: "a.txt", content: "old" }, {
      file_path: "/w/a.txt",
      content: "new",
    }, "/w"),
    { path: "a.txt", content: "new" },
  );
  deepStrictEqual(
    fromClaudeInput("write", { path: "a.txt", content: "x" }, { file_path: "/w/b.txt" }, "/w"),
    { path: "/w/b.txt", content: "x" },
  );
  deepStrictEqual(fromClaudeInput("word-count", { path: "a" }, { path: "b", n: 1 }, "/w"), {
    path: "b",
    n: 1,
  });
});

Deno.test("fromClaudeInput() cannot change the tool: tool_name is only a field the schema refuses", () => {
  deepStrictEqual(
    fromClaudeInput("write", { path: "a.txt", content: "x" }, {
      tool_name: "Bash",
      command: "rm -rf /",
    }, "/w"),
    { path: "a.txt", content: "x", tool_name: "Bash", command: "rm -rf /" },
  );
});
