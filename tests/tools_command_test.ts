import assert from "node:assert/strict";
import { lastLine, linesOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";

const WORD_COUNT = `module.exports = {
  description: "Counts the words of a file in the workspace.\\nSecond line, not listed.",
  parameters: {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    ctx.log("reading " + args.path);
    const text = ctx.file.read(args.path);
    return String(text.trim().split(/\\s+/).length);
  },
};
`;

const ASK = `module.exports = {
  description: "Asks before acting.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    return ctx.confirm({ title: "Go", body: "Go on?" }) ? "approved" : { text: "declined", isError: true };
  },
};
`;

Deno.test("rienda tools lists built-in and user tools and reports broken ones on stderr with exit 1", async () => {
  await using env = await createTestEnv();
  await env.writeTool("word-count", WORD_COUNT);
  await env.writeTool(
    "shell",
    `module.exports = { description: "My shell.", parameters: { type: "object" }, execute() {} };`,
  );
  await env.writeTool(
    "broken",
    `module.exports = { description: "x", parameters: { type: "object" } };`,
  );
  await Deno.mkdir(`${env.home}/tools/no-file`, { recursive: true });
  await Deno.mkdir(`${env.home}/tools/bad name`, { recursive: true });
  const result = await env.run(["tools"]);
  assert.equal(result.code, 1, "broken tools fail the listing, like broken agents");
  assert.deepEqual(linesOf(result.stdout), [
    "agent       built-in  Hands a task to another agent, which works on it alone and answers.",
    "edit        built-in  Replaces exact text in a file and shows the diff.",
    "find        built-in  Finds files by glob pattern, newest first.",
    "grep        built-in  Searches file contents with a regular expression.",
    "http        built-in  Sends one HTTP request and returns the response.",
    "ls          built-in  Lists the entries of one folder.",
    "read        built-in  Reads a text file and returns its lines, numbered.",
    "shell       user      My shell.",
    "  capabilities: full access",
    "word-count  user      Counts the words of a file in the workspace.",
    "  capabilities: full access",
    "write       built-in  Creates a file or replaces a whole file.",
  ]);
  assert.deepEqual(linesOf(result.stderr), [
    'tool "bad name": invalid name (use 1 to 64 letters, digits, "_" or "-")',
    'tool "no-file": index.js is missing',
    'tool "broken": missing "execute" (a function)',
    'tool "shell": replaces the built-in tool of the same name',
  ]);
  const list = await env.run(["tools", "list"]);
  assert.equal(list.stdout, result.stdout);
  for (const name of ["broken", "no-file", "bad name"]) {
    await Deno.remove(`${env.home}/tools/${name}`, { recursive: true });
  }
  const fixed = await env.run(["tools"]);
  assert.equal(fixed.code, 0, "a replaced built-in is only a remark");
  assert.equal(fixed.stdout, result.stdout);
  assert.equal(fixed.stderr, 'tool "shell": replaces the built-in tool of the same name\n');
});

Deno.test("rienda tools test runs one invocation in the workspace and prints the result", async () => {
  await using env = await createTestEnv();
  await env.writeTool("word-count", WORD_COUNT);
  const other = await env.makeDir("other");
  await Deno.writeTextFile(`${other}/a.txt`, "one two three");
  const result = await env.run([
    "tools",
    "test",
    "word-count",
    "--args",
    '{"path":"a.txt"}',
    "-C",
    other,
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "3\n");
  assert.equal(result.stderr, "reading a.txt\n");
});

Deno.test("rienda tools test prints an error result and exits 1, argument validation included", async () => {
  await using env = await createTestEnv();
  await env.writeTool("word-count", WORD_COUNT);
  const missing = await env.run(["tools", "test", "word-count", "--args", '{"path":"nope.txt"}']);
  assert.equal(missing.code, 1, missing.stderr);
  assert.equal(missing.stdout, "ctx.file.read: no such file: nope.txt (index.js:11)\n");
  const invalid = await env.run(["tools", "test", "word-count", "--args", '{"file":"a"}']);
  assert.equal(invalid.code, 1, invalid.stderr);
  assert.match(invalid.stdout, /^the tool was not executed: .*"path"/);
  assert.equal(invalid.stderr, "", "the tool did not run");
});

Deno.test("rienda tools test runs built-in tools too, streaming their output to stderr", async () => {
  await using env = await createTestEnv();
  const result = await env.run([
    "tools",
    "test",
    "shell",
    "--args",
    '{"command":"echo hi; exit 4"}',
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "hi\ncommand exited with code 4\n");
  assert.equal(result.stderr, "hi\n");
});

Deno.test("rienda tools test answers ctx.confirm with no, or yes with -y", async () => {
  await using env = await createTestEnv();
  await env.writeTool("ask", ASK);
  const declined = await env.run(["tools", "test", "ask"]);
  assert.deepEqual([declined.code, declined.stdout], [1, "declined\n"]);
  const approved = await env.run(["tools", "test", "ask", "-y"]);
  assert.deepEqual([approved.code, approved.stdout], [0, "approved\n"]);
});

Deno.test("rienda tools test says what is wrong with bad JSON, unknown and broken tools", async (t) => {
  await using env = await createTestEnv();
  await env.writeTool("word-count", WORD_COUNT);
  await env.writeTool(
    "broken",
    `module.exports = { description: "x", parameters: { type: "object" } };`,
  );
  const cases = [
    [
      ["word-count", "--args", "{path"],
      2,
      /^rienda: --args is not valid JSON: .*\(see rienda tools test --help\)$/,
    ],
    [
      ["nope"],
      1,
      /^rienda: unknown tool "nope" \(available: agent, broken, edit, find, grep, http, ls, read, shell, word-count, write\)$/,
    ],
    [["broken"], 1, /^rienda: tool "broken": missing "execute" \(a function\)$/],
    [["word-count", "-C", "missing-dir"], 1, /^rienda: workdir .*missing-dir is not a directory/],
    [[], 2, /^rienda: missing required argument "name"/],
  ] as const;
  for (const [args, code, message] of cases) {
    await t.step(args.join(" ") || "no name", async () => {
      const result = await env.run(["tools", "test", ...args]);
      assert.equal(result.code, code, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(lastLine(result.stderr), message);
    });
  }
  const unknown = await env.run(["tools", "frobnicate"]);
  assert.equal(unknown.code, 2);
  assert.match(lastLine(unknown.stderr), /^rienda: unknown tools command "frobnicate"/);
});

Deno.test("rienda tools test stops a looping tool on SIGINT with exit 130", async () => {
  await using env = await createTestEnv();
  await env.writeTool(
    "spin",
    `module.exports = {
  description: "Spins.",
  parameters: { type: "object" },
  execute: function (ctx) { ctx.log("spinning"); while (true) {} },
};
`,
  );
  await using process = await env.start(["tools", "test", "spin"]);
  await process.waitForStderr("spinning\n");
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.equal(lastLine(result.stderr), "rienda: the tool was interrupted");
});

Deno.test("rienda tools --help and tools test --help show examples on stdout", async () => {
  await using env = await createTestEnv();
  for (const args of [["tools", "--help"], ["tools", "test", "--help"]]) {
    const result = await env.run(args);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /Examples:\n {2}rienda tools/);
  }
});
