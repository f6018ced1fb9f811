import assert from "node:assert/strict";
import { validateToolArguments } from "./arguments.ts";
import { builtinTools } from "./builtins.ts";

Deno.test("builtinTools() lists every built-in tool, sorted by name", () => {
  assert.deepEqual(builtinTools().map((tool) => tool.name), [
    "agent",
    "edit",
    "find",
    "grep",
    "http",
    "ls",
    "read",
    "shell",
    "write",
  ]);
});

Deno.test("builtinTools() gives every tool a description and a schema ajv compiles", async () => {
  for (const tool of builtinTools()) {
    assert.ok(tool.description.trim().length > 0, tool.name);
    assert.equal(tool.parameters.type, "object");
    assert.equal(tool.parameters.additionalProperties, false);
    const outcome = await validateToolArguments(tool, { unexpected: true });
    assert.equal(outcome.ok, false);
    assert.doesNotMatch(outcome.ok ? "" : outcome.message, /schema .* is invalid/);
  }
});
