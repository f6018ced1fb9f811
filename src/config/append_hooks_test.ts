import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { appendHookEntries } from "./append_hooks.ts";

const ENTRY = {
  claude: "PreToolUse",
  matcher: "Bash",
  command: 'python3 "$CLAUDE_PROJECT_DIR/v.py"',
};

Deno.test("appendHookEntries() keeps comments and adds a hooks: list when there is none", () => {
  strictEqual(
    appendHookEntries("# mine\ndefault_model: a/b # keep\n", [ENTRY]),
    [
      "# mine",
      "default_model: a/b # keep",
      "hooks:",
      "  - claude: PreToolUse",
      "    matcher: Bash",
      `    command: python3 "$CLAUDE_PROJECT_DIR/v.py"`,
      "",
    ].join("\n"),
  );
});

Deno.test("appendHookEntries() appends to the hooks: list there is", () => {
  strictEqual(
    appendHookEntries("hooks:\n  - guard # js\n", [{
      claude: "Stop",
      command: "x",
      timeout_ms: 5,
    }]),
    "hooks:\n  - guard # js\n  - claude: Stop\n    command: x\n    timeout_ms: 5\n",
  );
  deepStrictEqual(
    appendHookEntries("", [{ claude: "Stop", command: "x" }]),
    "hooks:\n  - claude: Stop\n    command: x\n",
  );
});

Deno.test("appendHookEntries() writes a comment above the first entry it adds", () => {
  strictEqual(
    appendHookEntries("hooks:\n  - guard\n", [
      { claude: "Stop", command: "x" },
      { claude: "Stop", command: "y" },
    ], "the project's"),
    "hooks:\n  - guard\n  # the project's\n  - claude: Stop\n    command: x\n  - claude: Stop\n    command: y\n",
  );
});

Deno.test("appendHookEntries() refuses a file it would have to rewrite", () => {
  throws(() => appendHookEntries("hooks: guard\n", [ENTRY]), /"hooks" is not a list/);
  throws(() => appendHookEntries("- a\n", [ENTRY]), /not a mapping/);
  throws(() => appendHookEntries("a: [\n", [ENTRY]), /not valid YAML/);
});
