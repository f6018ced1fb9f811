import { deepStrictEqual, rejects, strictEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import { AgentFileError, loadAgentFile, parseAgentFile } from "./agent_file.ts";
import { isValidName } from "../base/names.ts";

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
    hookEntries: [
      { kind: "script", name: "guard", index: 0, priority: 0 },
      { kind: "script", name: "audit", index: 1, priority: 0 },
    ],
    lines: new Map([
      ["model", 4],
      ["tools:shell", 5],
      ["tools:word-count", 5],
      ["hooks:guard", 6],
      ["hooks:audit", 6],
    ]),
    peerMcpTools: new Set(),
    config: { guard: { deny: ["rm -rf"] } },
    warnings: [],
    notes: [],
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
    errorOf(agent("description: x\nmodel: gpt 4o")).message,
    `${PATH}:3: model: malformed model reference "gpt 4o" (expected provider/model, e.g. openai/gpt-4o)`,
  );
  strictEqual(
    errorOf(agent("description: x\nmodel: [a/b]")).message,
    `${PATH}:3: model: must be a model reference such as openai/gpt-4o or sonnet (found a list)`,
  );
});

Deno.test("parseAgentFile() rejects tools and hooks that are not lists of names", () => {
  const error = errorOf(
    agent(
      "description: x\ntools: 3\nhooks:\n  - guard\n  - 'a b'\n  - 7\n  - " + "x".repeat(65),
    ),
  );
  deepStrictEqual(error.message.split("\n"), [
    `${PATH}:3: tools: must be a list of tool names such as [shell, word-count] (found 3)`,
    `${PATH}:6: hooks[1]: invalid hook name "a b" (expected 1 to 64 letters, digits, "_" or "-")`,
    `${PATH}:7: hooks[2]: must be a hook name or an entry such as { command: [node, hooks/check.mjs] } (found 7)`,
    `${PATH}:8: hooks[3]: invalid hook name "${
      "x".repeat(65)
    }" (expected 1 to 64 letters, digits, "_" or "-")`,
  ]);
  deepStrictEqual([error.field, error.line], ["tools", 3]);
  strictEqual(
    errorOf(agent("description: x\nhooks: guard")).message,
    `${PATH}:3: hooks: must be a list of hook entries such as [guard, { command: [node, hooks/check.mjs] }] (found "guard")`,
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
  deepStrictEqual(parsed.hookEntries, [
    { kind: "script", name: "audit", index: 0, priority: 0 },
    { kind: "script", name: "guard", index: 1, priority: 0, failClosed: true, timeoutMs: 200 },
  ]);
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

Deno.test("parseAgentFile() reads command and Claude Code hook entries and names the line of each problem", () => {
  const parsed = parseAgentFile(
    agent(
      "description: x\nhooks:\n  - guard\n  - command: [node, hooks/policy.mjs, '{tool}']\n" +
        "    matcher: shell\n  - claude: SessionStart\n    command: ./start.sh",
    ),
    PATH,
    "review",
  );
  deepStrictEqual(parsed.hooks, ["guard"]);
  deepStrictEqual(parsed.hookEntries.map((entry) => entry.kind), ["script", "command", "claude"]);
  deepStrictEqual(
    errorOf(
      agent(
        "description: x\nhooks:\n  - command: node hooks/x.mjs\n  - guard\n" +
          "  - { name: guard, fail_closed: true }",
      ),
    ).message.split("\n"),
    [
      `${PATH}:4: hooks[0].command: must be an argv list such as [node, hooks/x.mjs] (found "node hooks/x.mjs"); a command hook never runs through a shell`,
      `${PATH}:6: hooks[2]: hook "guard" is listed again with other settings (fail_closed: true; first: none): list it once, with the settings it needs`,
    ],
  );
});

Deno.test("parseAgentFile() rejects a config that is not a mapping", () => {
  strictEqual(
    errorOf(agent("description: x\nconfig: [guard]")).message,
    `${PATH}:3: config: must be a mapping of settings keyed by tool or hook name (found a list)`,
  );
});

Deno.test("parseAgentFile() rejects keys close to a rienda key with a suggestion", () => {
  const error = errorOf(agent("description: x\ntols: [shell]\nmodle: a/b\nDescripton: y"));
  deepStrictEqual(error.message.split("\n"), [
    `${PATH}:3: tols: unknown key (did you mean \`tools\`?)`,
    `${PATH}:4: modle: unknown key (did you mean \`model\`?)`,
    `${PATH}:5: Descripton: unknown key (did you mean \`description\`?)`,
  ]);
  deepStrictEqual([error.field, error.line], ["tols", 3]);
});

Deno.test("parseAgentFile() notes other tools' keys and unknown keys in one line, never cosmetic ones, never for a run", () => {
  const definition = parseAgentFile(
    agent("description: x\ncolor: red\nflavour: 1\npermissionMode: plan\nhooks: {Stop: []}"),
    PATH,
    "review",
  );
  deepStrictEqual(definition.notes, [
    `${PATH}: ignored keys of other tools: permissionMode, hooks (a Claude Code event map); ` +
    `unknown keys: flavour`,
  ]);
  deepStrictEqual(definition.warnings, []);
  deepStrictEqual(parseAgentFile(agent("description: x\ncolor: red"), PATH, "r").notes, []);
  deepStrictEqual(definition.hooks, []);
});

Deno.test("parseAgentFile() reads name, temperature, max_turns and thinking", () => {
  const definition = parseAgentFile(
    agent("name: reviewer\ndescription: x\ntemperature: 0.2\nmax_turns: 5\nthinking: high"),
    PATH,
    "review",
  );
  deepStrictEqual(
    [definition.name, definition.temperature, definition.maxTurns, definition.thinking],
    ["reviewer", 0.2, 5, "high"],
  );
  strictEqual(
    parseAgentFile(agent("name: review\ndescription: x"), PATH, "review").name,
    undefined,
  );
  strictEqual(parseAgentFile(agent("description: x\nmaxTurns: 3"), PATH, "review").maxTurns, 3);
  deepStrictEqual(
    errorOf(agent("description: x\ntemperature: hot\nmax_turns: 0\nthinking: [a]")).message
      .split("\n"),
    [
      `${PATH}:3: temperature: must be a number from 0 to 2 (found "hot")`,
      `${PATH}:4: max_turns: must be a whole number of at least 1 (found 0)`,
      `${PATH}:5: thinking: must be a reasoning level such as low, medium or high (found a list)`,
    ],
  );
});

Deno.test("parseAgentFile() reads Task and Agent as the agent tool, Agent(a, b) as narrowed to a and b", () => {
  const plain = parseAgentFile(agent("description: x\ntools: Task, Read"), PATH, "a");
  deepStrictEqual(plain.tools, ["agent", "read"]);
  strictEqual(plain.agents, undefined);
  deepStrictEqual(plain.notes, []);
  const narrowed = parseAgentFile(
    agent("description: x\ntools: Agent(worker, re.searcher, ../x), Read"),
    PATH,
    "a",
  );
  deepStrictEqual(narrowed.tools, ["agent", "read"]);
  deepStrictEqual(narrowed.agents, ["worker", "re.searcher"]);
  const listed = parseAgentFile(
    agent("description: x\ntools: [agent]\nagents: [b, c, b]"),
    PATH,
    "a",
  );
  deepStrictEqual(listed.agents, ["b", "c"]);
  throws(
    () => parseAgentFile(agent("description: x\nagents: reviewer"), PATH, "a"),
    /:3: agents: must be a list of agent ids such as \[reviewer, tester\] \(found "reviewer"\)/,
  );
  throws(
    () => parseAgentFile(agent("description: x\nagents: [ok, ../x]"), PATH, "a"),
    /agents\[1\]: must be an agent id/,
  );
});

Deno.test("parseAgentFile() reads model: inherit as no model and keeps bare model names", () => {
  strictEqual("model" in parseAgentFile(agent("description: x\nmodel: inherit"), PATH, "a"), false);
  strictEqual(parseAgentFile(agent("description: x\nmodel: sonnet"), PATH, "a").model, "sonnet");
});

Deno.test("parseAgentFile() maps peer tool names and warns about those rienda lacks", () => {
  const listed = parseAgentFile(
    agent("description: x\ntools: Read, Grep, Glob, Bash, TodoWrite, Bash(git diff:*), WebFetch"),
    PATH,
    "a",
  );
  deepStrictEqual(listed.tools, ["read", "grep", "find", "shell", "http"]);
  deepStrictEqual(listed.notes, [
    `${PATH}: ignored tools rienda lacks: TodoWrite, Bash(git diff:*)`,
  ]);
  const mapped = parseAgentFile(
    agent(
      "description: x\ntools:\n  write: false\n  bash: false\n  webfetch: true\n  todowrite: false",
    ),
    PATH,
    "a",
  );
  deepStrictEqual(mapped.tools, ["read", "edit", "grep", "find", "ls", "http"]);
  deepStrictEqual(mapped.notes, []);
  const mcp = parseAgentFile(
    agent("description: x\ntools: [mcp__github__create_issue]"),
    PATH,
    "a",
  );
  deepStrictEqual([mcp.tools, [...mcp.peerMcpTools]], [
    ["mcp:github/create_issue"],
    ["mcp:github/create_issue"],
  ]);
});

Deno.test("parseAgentFile() gives a peer-folder agent without tools: the default tools", () => {
  const peer = parseAgentFile(agent("description: x"), PATH, "a", { peer: true });
  deepStrictEqual(peer.tools, ["read", "write", "edit", "grep", "find", "ls", "shell"]);
  deepStrictEqual(parseAgentFile(agent("description: x"), PATH, "a").tools, []);
});

Deno.test("parseAgentFile() recovers YAML broken only by an unquoted colon in a value", () => {
  const definition = parseAgentFile(
    agent("name: r\ndescription: Use it when: the diff is big. Example: a PR\nmodel: inherit"),
    PATH,
    "r",
  );
  strictEqual(definition.description, "Use it when: the diff is big. Example: a PR");
  deepStrictEqual(definition.notes, [
    `${PATH}:3: put this value in quotes: it contains ": ", which is not YAML unquoted (read as text)`,
  ]);
  throws(() => parseAgentFile(agent("description: a: b\ntools: [x"), PATH, "r"), /invalid YAML/);
});

Deno.test("parseAgentFile() recovers a plain description over several lines that hold colons", () => {
  const definition = parseAgentFile(
    agent(
      'name: r\ndescription: Use this agent after a change. Examples:\n  Context: a "new" function\n' +
        "  user: review it\n\n  assistant: ok\nmodel: inherit\ntools: Read",
    ),
    PATH,
    "r",
    { peer: true },
  ).description;
  strictEqual(
    definition,
    'Use this agent after a change. Examples: Context: a "new" function user: review it\nassistant: ok',
  );
});

Deno.test("parseAgentFile() keeps the file lines after a recovered multi-line value", () => {
  const error = errorOf(
    agent("description: Use it. Examples:\n  Context: x\n  user: y\nmodel: a b"),
  );
  deepStrictEqual(error.message.split("\n"), [
    `${PATH}:5: model: malformed model reference "a b" (expected provider/model, e.g. openai/gpt-4o)`,
  ]);
});

Deno.test("parseAgentFile() ignores namespaced tools of other tools with the note, and lets a peer agent go without a description", () => {
  const definition = parseAgentFile(
    agent("tools: Read, subagent-catalog:search"),
    PATH,
    "powershell-5.1-expert",
    { peer: true },
  );
  deepStrictEqual(definition.tools, ["read"]);
  strictEqual(definition.description, "");
  deepStrictEqual(definition.notes, [
    `${PATH}: ignored tools rienda lacks: subagent-catalog:search`,
  ]);
  throws(() => parseAgentFile(agent("tools: [mcp:bad name]"), PATH, "a"), /invalid MCP tool/);
  throws(() => parseAgentFile(agent("tools: [read]"), PATH, "a"), /description: missing/);
});

Deno.test("parseAgentFile() reports every problem in line order, unlocated ones last", () => {
  const error = errorOf(agent("tools: 1\ntols: 2\nmodel: a b"));
  deepStrictEqual(error.message.split("\n"), [
    `${PATH}:2: tools: must be a list of tool names such as [shell, word-count] (found 1)`,
    `${PATH}:3: tols: unknown key (did you mean \`tools\`?)`,
    `${PATH}:4: model: malformed model reference "a b" (expected provider/model, e.g. openai/gpt-4o)`,
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

Deno.test("parseAgentFile() reads sandbox: and names a wrong field with its line", () => {
  const ok = parseAgentFile(
    "---\ndescription: d\nsandbox:\n  mode: read-only\n  network: true\n---\nbody\n",
    PATH,
    "review",
  );
  deepStrictEqual(ok.sandbox, { mode: "read-only", network: true, writable: [] });
  strictEqual(
    errorOf("---\ndescription: d\nsandbox:\n  mode: read-only\n  writable: [tmp]\n---\nbody\n")
      .message,
    `${PATH}:5: sandbox.writable[0]: must be an absolute path or start with "~/" (found "tmp")`,
  );
});
