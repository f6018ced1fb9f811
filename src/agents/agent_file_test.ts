import { deepStrictEqual, rejects, strictEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import { AgentFileError, loadAgentFile, parseAgentFile } from "./agent_file.ts";
import { isValidName } from "../names.ts";

const PATH = "/h/.rienda/agents/review.md";

function errorOf(text: string): AgentFileError {
  try {
    parseAgentFile(text, PATH, "review");
  } catch (error) {
    if (error instanceof AgentFileError) return error;
    throw error;
  }
  throw new Error("parseAgentFile() accepted the text");
}

function agent(frontmatter: string, body = "Prompt."): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

Deno.test("parseAgentFile() reads every field of the spec's example", () => {
  const text = [
    "\uFEFF#!/usr/bin/env -S rienda run -f",
    "---",
    "description: Reviews a diff.",
    "model: anthropic/claude-sonnet-4-5",
    "tools: [shell, word-count]",
    "hooks: [guard, audit]",
    "config:",
    '  guard: { deny: ["rm -rf"] }',
    "---",
    "You are a careful reviewer.",
  ].join("\r\n");
  deepStrictEqual(parseAgentFile(text, PATH, "review"), {
    id: "review",
    path: PATH,
    description: "Reviews a diff.",
    model: "anthropic/claude-sonnet-4-5",
    tools: ["shell", "word-count"],
    hooks: ["guard", "audit"],
    config: { guard: { deny: ["rm -rf"] } },
    systemPrompt: "You are a careful reviewer.",
    frontmatter: {
      description: "Reviews a diff.",
      model: "anthropic/claude-sonnet-4-5",
      tools: ["shell", "word-count"],
      hooks: ["guard", "audit"],
      config: { guard: { deny: ["rm -rf"] } },
    },
  });
});

Deno.test("parseAgentFile() defaults tools, hooks and config to empty and leaves model out", () => {
  const definition = parseAgentFile(agent("description: Helps."), PATH, "helper");
  deepStrictEqual(
    [definition.id, definition.tools, definition.hooks, definition.config, "model" in definition],
    ["helper", [], [], {}, false],
  );
  const empty = parseAgentFile(
    agent("description: Helps.\nmodel:\ntools:\nhooks:\nconfig:"),
    PATH,
    "h",
  );
  deepStrictEqual([empty.tools, empty.hooks, empty.config, "model" in empty], [[], [], {}, false]);
});

Deno.test("parseAgentFile() trims leading blank lines and trailing whitespace of the body only", () => {
  const definition = parseAgentFile(
    agent("description: x", "\n \n\n  Indented.\n\nEnd.  \n\n"),
    PATH,
    "a",
  );
  strictEqual(definition.systemPrompt, "  Indented.\n\nEnd.");
  strictEqual(parseAgentFile(agent("description: x", ""), PATH, "a").systemPrompt, "");
});

Deno.test("parseAgentFile() trims the description", () => {
  strictEqual(
    parseAgentFile(agent("description: '  Reviews.  '"), PATH, "a").description,
    "Reviews.",
  );
});

Deno.test("parseAgentFile() collapses duplicate tools and hooks to the first", () => {
  const definition = parseAgentFile(
    agent("description: x\ntools: [http, shell, http]\nhooks: [b, a, b, a]"),
    PATH,
    "a",
  );
  deepStrictEqual([definition.tools, definition.hooks], [["http", "shell"], ["b", "a"]]);
});

Deno.test("parseAgentFile() rejects invalid YAML with the file line and column", () => {
  const error = errorOf("#!/x\n---\ndescription: x\ntools: [a\n---\n");
  strictEqual(
    error.message,
    `${PATH}:4:10: invalid YAML: flow sequence in block collection must be sufficiently indented and end with a ]`,
  );
  strictEqual(error.line, 4);
  strictEqual(
    errorOf("---\ndescription: a\ndescription: b\n---\n").message,
    `${PATH}:3:1: invalid YAML: map keys must be unique`,
  );
});

Deno.test("parseAgentFile() rejects a frontmatter that is not a mapping", () => {
  strictEqual(
    errorOf("---\n- description: x\n---\n").message,
    `${PATH}:2: the frontmatter must be a mapping of fields such as "description: Reviews a diff." (found a list)`,
  );
  strictEqual(
    errorOf("---\nReviews diffs\n---\n").message,
    `${PATH}:2: the frontmatter must be a mapping of fields such as "description: Reviews a diff." (found "Reviews diffs")`,
  );
});

Deno.test("parseAgentFile() rejects a missing, non-text or blank description", () => {
  const missing = errorOf("---\n---\nHi");
  strictEqual(
    missing.message,
    `${PATH}: description: missing (add a line such as "description: Reviews a diff.")`,
  );
  deepStrictEqual([missing.field, missing.line], ["description", undefined]);
  strictEqual(errorOf(agent("model: a/b")).message, missing.message);
  strictEqual(
    errorOf(agent("description:")).message,
    `${PATH}:2: description: missing (add a line such as "description: Reviews a diff.")`,
  );
  strictEqual(
    errorOf(agent("description: 42")).message,
    `${PATH}:2: description: must be text (found 42)`,
  );
  const blank = errorOf(agent("model: a/b\ndescription: '   '"));
  strictEqual(
    blank.message,
    `${PATH}:3: description: must not be blank (say in a few words what the agent does)`,
  );
  deepStrictEqual([blank.field, blank.line], ["description", 3]);
});

Deno.test("parseAgentFile() rejects a malformed model reference", () => {
  strictEqual(
    errorOf(agent("description: x\nmodel: gpt-4o")).message,
    `${PATH}:3: model: malformed model reference "gpt-4o" (expected provider/model, e.g. openai/gpt-4o)`,
  );
  strictEqual(
    errorOf(agent("description: x\nmodel: [a/b]")).message,
    `${PATH}:3: model: must be a model reference such as openai/gpt-4o (found a list)`,
  );
});

Deno.test("parseAgentFile() rejects tools and hooks that are not lists of names", () => {
  const error = errorOf(
    agent(
      "description: x\ntools: shell\nhooks:\n  - guard\n  - 'a b'\n  - 7\n  - " + "x".repeat(65),
    ),
  );
  deepStrictEqual(error.message.split("\n"), [
    `${PATH}:3: tools: must be a list of tool names such as [shell, word-count] (found "shell")`,
    `${PATH}:6: hooks[1]: invalid hook name "a b" (expected 1 to 64 letters, digits, "_" or "-")`,
    `${PATH}:7: hooks[2]: must be a hook name (found 7)`,
    `${PATH}:8: hooks[3]: invalid hook name "${
      "x".repeat(65)
    }" (expected 1 to 64 letters, digits, "_" or "-")`,
  ]);
  deepStrictEqual([error.field, error.line], ["tools", 3]);
  strictEqual(
    errorOf(agent("description: x\nhooks: {guard: true}")).message,
    `${PATH}:3: hooks: must be a list of hook names such as [guard, audit] (found a mapping)`,
  );
  strictEqual(
    errorOf(agent("description: x\ntools: [shell, [a]]")).message,
    `${PATH}:3: tools[1]: must be a tool name (found a list)`,
  );
});

Deno.test("parseAgentFile() reads the object form of tools: and hooks: entries", () => {
  const parsed = parseAgentFile(
    agent(
      "description: x\ntools:\n  - shell\n  - { name: word-count, timeout_ms: 5000 }\n" +
        "hooks:\n  - audit\n  - { name: guard, fail_closed: true, timeout_ms: 200 }",
    ),
    PATH,
    "review",
  );
  deepStrictEqual(parsed.tools, ["shell", "word-count"]);
  deepStrictEqual(parsed.hooks, ["audit", "guard"]);
  deepStrictEqual(parsed.toolTimeouts, new Map([["word-count", 5000]]));
  deepStrictEqual(parsed.hookPolicies, new Map([["guard", { failClosed: true, timeoutMs: 200 }]]));
  deepStrictEqual(
    errorOf(
      agent(
        "description: x\ntools:\n  - { name: shell, fail_closed: true }\n  - { timeout_ms: 0 }\n" +
          "  - { name: mcp:github, timeout_ms: 5 }\nhooks:\n  - { name: guard, fail_closed: 1 }",
      ),
    ).message.split("\n"),
    [
      `${PATH}:4: tools[0].fail_closed: unknown key (expected one of: name, timeout_ms)`,
      `${PATH}:5: tools[1].timeout_ms: must be a whole number of milliseconds from 1 to 2147483647 (found 0)`,
      `${PATH}:5: tools[1]: missing "name" (such as { name: word-count, timeout_ms: 5000 })`,
      `${PATH}:6: tools[2]: timeout_ms applies to tool names, not to MCP servers`,
      `${PATH}:8: hooks[0].fail_closed: must be true or false (found 1)`,
    ],
  );
});

Deno.test("parseAgentFile() rejects a config that is not a mapping", () => {
  strictEqual(
    errorOf(agent("description: x\nconfig: [guard]")).message,
    `${PATH}:3: config: must be a mapping of settings keyed by tool or hook name (found a list)`,
  );
});

Deno.test("parseAgentFile() rejects unknown keys and names the not-yet-supported ones", () => {
  const error = errorOf(
    agent("description: x\nmax_turns: 5\ntemperature: 0.2\nthinking: high\ntool: [shell]"),
  );
  deepStrictEqual(error.message.split("\n"), [
    `${PATH}:3: max_turns: not supported yet (remove it; the supported keys are description, model, tools, hooks, config)`,
    `${PATH}:4: temperature: not supported yet (remove it; the supported keys are description, model, tools, hooks, config)`,
    `${PATH}:5: thinking: not supported yet (remove it; the supported keys are description, model, tools, hooks, config)`,
    `${PATH}:6: tool: unknown key (expected one of: description, model, tools, hooks, config)`,
  ]);
  deepStrictEqual([error.field, error.line], ["max_turns", 3]);
});

Deno.test("parseAgentFile() reports every problem in line order, unlocated ones last", () => {
  const error = errorOf(agent("tools: 1\nbad: 2\nmodel: x"));
  deepStrictEqual(error.message.split("\n"), [
    `${PATH}:2: tools: must be a list of tool names such as [shell, word-count] (found 1)`,
    `${PATH}:3: bad: unknown key (expected one of: description, model, tools, hooks, config)`,
    `${PATH}:4: model: malformed model reference "x" (expected provider/model, e.g. openai/gpt-4o)`,
    `${PATH}: description: missing (add a line such as "description: Reviews a diff.")`,
  ]);
});

Deno.test("parseAgentFile() passes frontmatter errors through from splitFrontmatter()", () => {
  throws(() => parseAgentFile("Just a prompt.", PATH, "a"), { name: "AgentFileError", line: 1 });
});

Deno.test("loadAgentFile() takes the id from the file name without .md", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "code-review.md");
    await Deno.writeTextFile(path, agent("description: Reviews."));
    const definition = await loadAgentFile(path);
    deepStrictEqual([definition.id, definition.path], ["code-review", path]);
    const bare = join(dir, "review");
    await Deno.writeTextFile(bare, agent("description: Reviews."));
    strictEqual((await loadAgentFile(bare)).id, "review");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadAgentFile() reports a missing file with a NotFound cause", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "ghost.md");
  try {
    await rejects(loadAgentFile(path), (error: unknown) => {
      strictEqual(
        error instanceof AgentFileError && error.message,
        `${path}: agent file does not exist`,
      );
      strictEqual(
        error instanceof AgentFileError && error.cause instanceof Deno.errors.NotFound,
        true,
      );
      return true;
    });
    await rejects(loadAgentFile(dir), (error: unknown) => {
      strictEqual(error instanceof AgentFileError, true);
      strictEqual(
        String(error instanceof Error && error.message).startsWith(
          `${dir}: cannot read the agent file: `,
        ),
        true,
      );
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("isValidName() allows 1 to 64 letters, digits, _ and -", () => {
  for (const name of ["a", "word-count", "A_1", "x".repeat(64)]) {
    strictEqual(isValidName(name), true, name);
  }
  for (const name of ["", "a b", "a.b", "a/b", "x".repeat(65), "é"]) {
    strictEqual(isValidName(name), false, name);
  }
});
