import assert from "node:assert/strict";
import {
  assertNothingSent,
  checkSession,
  lastLine,
  linesOf,
  sessionIdOf,
  toolResultBlock,
} from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { toolResultsOf } from "./harness/wire.ts";

/** The word-count tool of the tools reference page, verbatim. */
const WORD_COUNT = `module.exports = {
  description: "Counts the words of a file in the workspace.",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path relative to the workspace." },
    },
    required: ["path"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const text = ctx.file.read(args.path);
    return String(text.trim().split(/\\s+/).length);
  },
};
`;

/** A tool whose body is `execute(ctx, args) { <body> }`, with an open schema. */
function toolSource(body: string, parameters = `{ type: "object" }`): string {
  return `module.exports = {
  description: "A test tool.",
  parameters: ${parameters},
  execute: function (ctx, args) {
${body}
  },
};
`;
}

/** The tool_result blocks of the session's first results message. */
async function storedResults(env: TestEnv, stderr: string): Promise<unknown> {
  const session = checkSession(await env.readSession(sessionIdOf(stderr)));
  const results = session.entries.find((entry) =>
    entry.role === "user" && at(entry, "blocks", 0, "type") === "tool_result"
  );
  return at(results, "blocks");
}

Deno.test("the word-count tool of the reference counts the words of a workspace file", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "word-count", arguments: { path: "notes.txt" } }] },
    { text: "four words" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool("word-count", WORD_COUNT);
  await env.writeAgent("counter", { description: "Counts.", tools: ["word-count"] });
  await Deno.writeTextFile(`${env.workdir}/notes.txt`, "one two\nthree   four\n");
  const result = await env.run(["run", "-a", "counter", "count"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "four words\n");
  const id = sessionIdOf(result.stderr);
  assert.deepEqual(linesOf(result.stderr), [
    `session: ${id}`,
    'tool: word-count {"path":"notes.txt"}',
    "tool done: 4",
  ]);
  assert.deepEqual(at(provider.requests[0]?.body, "tools"), [{
    type: "function",
    function: {
      name: "word-count",
      description: "Counts the words of a file in the workspace.",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string", description: "Path relative to the workspace." },
        },
        required: ["path"],
        additionalProperties: false,
      },
    },
  }]);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [{ id: "call_1", content: "4" }]);
  assert.deepEqual(await storedResults(env, result.stderr), [
    toolResultBlock("call_1", "4", false),
  ]);
});

Deno.test("the JSON-field example returns one field of a workspace JSON file", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "json-field", arguments: { path: "pkg.json", field: "version" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "json-field",
    `module.exports = {
  description: "Reads a field from a JSON file in the workspace.",
  parameters: {
    type: "object",
    properties: { path: { type: "string" }, field: { type: "string" } },
    required: ["path", "field"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const data = JSON.parse(ctx.file.read(args.path));
    return JSON.stringify(data[args.field]);
  },
};
`,
  );
  await env.writeAgent("reader", { description: "Reads.", tools: ["json-field"] });
  await Deno.writeTextFile(`${env.workdir}/pkg.json`, '{"name": "x", "version": "1.2.3"}');
  const result = await env.run(["run", "-a", "reader", "which version?"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [{ id: "call_1", content: '"1.2.3"' }]);
});

const PUBLISH = `module.exports = {
  description: "Publishes the current branch.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    if (!ctx.confirm({ title: "Publish", body: "Push the current branch?" })) {
      return { text: "cancelled by the user", isError: true };
    }
    const result = ctx.system.exec("git push");
    return result.code === 0
      ? "pushed"
      : { text: result.stderr, isError: true };
  },
};
`;

for (const autoApprove of [false, true]) {
  Deno.test(`the publish example ${autoApprove ? "pushes with -y" : "is cancelled without -y"}`, async () => {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "publish", arguments: {} }] },
      { text: "done" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeTool("publish", PUBLISH);
    await env.writeAgent("publisher", { description: "Publishes.", tools: ["publish"] });
    const result = await env.run([
      "run",
      "-a",
      "publisher",
      ...(autoApprove ? ["-y"] : []),
      "publish it",
    ]);
    assert.equal(result.code, 0, result.stderr);
    const [stored] = toolResultsOf(provider.requests[1]);
    if (autoApprove) {
      // git runs in the workspace, which is no repository: its stderr is the error result.
      assert.match(String(stored?.content), /not a git repository/i);
      assert.ok(result.stderr.includes("tool failed:"), result.stderr);
    } else {
      assert.equal(stored?.content, "cancelled by the user");
      assert.ok(result.stderr.includes("tool failed: cancelled by the user\n"), result.stderr);
    }
  });
}

Deno.test("every return shape of execute reaches the model as the reference says", async () => {
  const shapes = [
    ["string", `return "plain text";`, "plain text", false],
    ["object", `return { text: "object text" };`, "object text", false],
    ["error", `return { text: "it failed", isError: true };`, "it failed", true],
    ["not-error", `return { text: "fine", isError: false };`, "fine", false],
    [
      "number",
      `return 42;`,
      "execute returned a number: return a string or { text: string, isError?: boolean }",
      true,
    ],
    [
      "null",
      `return null;`,
      "execute returned null: return a string or { text: string, isError?: boolean }",
      true,
    ],
    [
      "array",
      `return ["a"];`,
      "execute returned an array: return a string or { text: string, isError?: boolean }",
      true,
    ],
    [
      "no-text",
      `return { count: 3 };`,
      "execute returned an object without a text string: return a string or { text: string, isError?: boolean }",
      true,
    ],
    [
      "nothing",
      `ctx.workdir;`,
      "execute returned undefined: return a string or { text: string, isError?: boolean }",
      true,
    ],
    ["throw", `throw new Error("exploded");`, "exploded (index.js:5)", true],
  ] as const;
  await using provider = await startFakeProvider([
    { toolCalls: shapes.map(([name]) => ({ name, arguments: {} })) },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  for (const [name, body] of shapes) await env.writeTool(name, toolSource(body));
  await env.writeAgent("shapes", {
    description: "Returns things.",
    tools: shapes.map(([name]) => name),
  });
  const result = await env.run(["run", "-a", "shapes", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "done\n");
  assert.deepEqual(
    await storedResults(env, result.stderr),
    shapes.map(([, , text, isError], index) => toolResultBlock(`call_${index + 1}`, text, isError)),
  );
});

Deno.test("arguments are validated against parameters before execute runs, for user and built-in tools", async () => {
  const schema = `{
    type: "object",
    properties: { path: { type: "string" }, count: { type: "integer", minimum: 1 } },
    required: ["path"],
    additionalProperties: false,
  }`;
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "marker", arguments: {} },
        { name: "marker", arguments: { path: "a", count: 0 } },
        { name: "marker", arguments: { path: 7 } },
        { name: "marker", rawArguments: "{not json" },
        { name: "shell", arguments: { cmd: "touch shell-ran" } },
        { name: "marker", arguments: { path: "ok", count: 2 } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "marker",
    toolSource(`ctx.file.write("ran-" + args.path, "x"); return "ran " + args.path;`, schema),
  );
  await env.writeAgent("strict", { description: "Strict.", tools: ["marker", "shell"] });
  const result = await env.run(["run", "-a", "strict", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const contents = toolResultsOf(provider.requests[1]).map((item) => String(item.content));
  assert.equal(contents.length, 6);
  assert.match(contents[0] ?? "", /^the tool was not executed: .*"path"/);
  assert.match(contents[1] ?? "", /^the tool was not executed: .*"count"/);
  assert.match(contents[2] ?? "", /^the tool was not executed: .*"path"/);
  assert.match(contents[3] ?? "", /^the tool was not executed: /);
  assert.match(contents[4] ?? "", /^the tool was not executed: .*"cmd"/);
  assert.equal(contents[5], "ran ok");
  const files = [];
  for await (const entry of Deno.readDir(env.workdir)) files.push(entry.name);
  assert.deepEqual(files, ["ran-ok"], "only the valid call ran");
});

Deno.test("a user tool named like a built-in replaces it, with a diagnostic", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "ls" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "shell",
    `module.exports = {
  description: "A cautious shell that only echoes.",
  parameters: { type: "object", properties: { command: { type: "string" } } },
  execute: function (ctx, args) { return "would run: " + args.command; },
};
`,
  );
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const id = sessionIdOf(result.stderr);
  assert.deepEqual(linesOf(result.stderr), [
    `session: ${id}`,
    'tool "shell": replaces the built-in tool of the same name',
    'tool: shell {"command":"ls"}',
    "tool done: exit 0 · 1 line",
  ]);
  assert.equal(
    at(provider.requests[0]?.body, "tools", 0, "function", "description"),
    "A cautious shell that only echoes.",
  );
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "would run: ls" },
  ]);
});

Deno.test("declaring a broken or unknown tool fails before any request", async (t) => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "no-execute",
    `module.exports = { description: "x", parameters: { type: "object" } };`,
  );
  await env.writeTool("syntax", `module.exports = {\n  description: "x",,\n};\n`);
  await env.writeTool("word-count", WORD_COUNT);
  await Deno.mkdir(`${env.home}/tools/empty`, { recursive: true });
  const cases = [
    ["no-execute", 'tool "no-execute": missing "execute" (a function)'],
    [
      "syntax",
      'tool "syntax": its top-level code failed: SyntaxError: invalid property name (index.js:2)',
    ],
    ["empty", 'tool "empty": index.js is missing'],
    [
      "nope",
      'unknown tool "nope" (available: agent, edit, find, grep, http, ls, no-execute, read, shell, syntax, word-count, write)',
    ],
  ] as const;
  for (const [name, problem] of cases) {
    await t.step(name, async () => {
      const agentPath = await env.writeAgent("broken", {
        description: "Broken.",
        tools: ["word-count", name],
      });
      const result = await env.run(["run", "-a", "broken", "go"]);
      assert.equal(result.code, 1, result.stderr);
      // An unknown name is reported at its line of the agent file.
      const where = name === "nope" ? `${agentPath}:3` : agentPath;
      assert.equal(lastLine(result.stderr), `rienda: ${where}: tools: ${problem}`);
      await assertNothingSent(provider, env, result.stderr);
    });
  }
});

Deno.test("a broken tool that no agent declares changes nothing for a run", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "word-count", arguments: { path: "a.txt" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool("word-count", WORD_COUNT);
  await env.writeTool("broken", `throw new Error("never loaded");`);
  await env.writeAgent("counter", { description: "Counts.", tools: ["word-count"] });
  await Deno.writeTextFile(`${env.workdir}/a.txt`, "a b");
  const result = await env.run(["run", "-a", "counter", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(!result.stderr.includes("broken"), result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [{ id: "call_1", content: "2" }]);
});

Deno.test("every invocation starts from fresh state and no ambient global exists", async () => {
  const globals = ["require", "process", "Deno", "fetch", "setTimeout", "setInterval", "console"];
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "counter", arguments: {} },
        { name: "counter", arguments: {} },
        { name: "globals", arguments: {} },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "counter",
    `let calls = 0;
globalThis.seen = (globalThis.seen || 0) + 1;
module.exports = {
  description: "Counts its calls.",
  parameters: { type: "object" },
  execute: function () { calls++; return calls + "/" + globalThis.seen; },
};
`,
  );
  await env.writeTool(
    "globals",
    toolSource(
      `return JSON.stringify([${
        globals.map((name) => `typeof ${name}`).join(", ")
      }, typeof module, typeof exports]);`,
    ),
  );
  await env.writeAgent("fresh", { description: "Fresh.", tools: ["counter", "globals"] });
  const result = await env.run(["run", "-a", "fresh", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    "1/1",
    "1/1",
    JSON.stringify([...globals.map(() => "undefined"), "object", "object"]),
  ]);
});

Deno.test("the returned text is capped at 256 KiB on a character boundary", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "big", arguments: {} }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  // "é" is 2 bytes in UTF-8, so 131,073 of them overflow the cap by one character.
  await env.writeTool("big", toolSource(`return "a" + "é".repeat(131072);`));
  await env.writeAgent("big", { description: "Big.", tools: ["big"] });
  const result = await env.run(["run", "-a", "big", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const [stored] = toolResultsOf(provider.requests[1]);
  assert.equal(stored?.content, `a${"é".repeat(131071)}\n[output truncated]`);
});
