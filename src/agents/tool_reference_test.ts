import { deepStrictEqual, equal } from "node:assert/strict";
import { normalizeToolEntry, parseToolReference } from "./tool_reference.ts";

Deno.test("normalizeToolEntry() maps Claude Code's mcp__ names", () => {
  equal(normalizeToolEntry("mcp__github__create_issue"), "mcp:github/create_issue");
  equal(normalizeToolEntry("mcp__github"), "mcp:github");
  equal(normalizeToolEntry("mcp__fs__read__all"), "mcp:fs/read__all");
  equal(normalizeToolEntry("shell"), "shell");
  equal(normalizeToolEntry("mcp:github"), "mcp:github");
});

Deno.test("parseToolReference() reads tool names and MCP references", () => {
  deepStrictEqual(parseToolReference("shell"), { kind: "tool", name: "shell" });
  deepStrictEqual(parseToolReference("mcp:github"), { kind: "mcp", server: "github", tool: null });
  deepStrictEqual(parseToolReference("mcp:github/create_issue"), {
    kind: "mcp",
    server: "github",
    tool: "create_issue",
  });
  deepStrictEqual(parseToolReference("mcp:fs/files.read"), {
    kind: "mcp",
    server: "fs",
    tool: "files.read",
  });
});

Deno.test("parseToolReference() words what is wrong", () => {
  for (
    const entry of [
      "mcp:",
      "mcp:a b",
      "mcp:gh/",
      "mcp:my__gh",
      "mcp:gh/a b",
      `mcp:gh/${"x".repeat(129)}`,
    ]
  ) {
    const parsed = parseToolReference(entry);
    equal(
      "problem" in parsed && parsed.problem.startsWith("invalid MCP tool reference"),
      true,
      entry,
    );
  }
  const bad = parseToolReference("a b");
  equal("problem" in bad && bad.problem.startsWith('invalid tool name "a b"'), true);
});
