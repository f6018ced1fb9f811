import assert from "node:assert/strict";
import { lastLine } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { runToolCalls } from "./harness/tool_run.ts";

/** A small project: ignore files, node_modules, .git, a binary file, CRLF, nested folders. */
async function project(env: TestEnv): Promise<void> {
  const files: Record<string, string> = {
    ".gitignore": "node_modules/\ndist/\n*.log\n",
    "README.md": "# Demo\nTODO: write docs\n",
    "src/main.ts": "import { helper } from './util.ts';\n// TODO: handle errors\nhelper();\n",
    "src/util.ts": "export function helper() {\n  return 42;\n}\n",
    "src/win.ts": "// TODO: windows\r\nexport const eol = 'crlf';\r\n",
    "src/.ignore": "generated.ts\n",
    "src/generated.ts": "// TODO: generated, ignored\n",
    "src/deep/nested/leaf.ts": "// TODO: deep\n",
    "node_modules/pkg/index.js": "// TODO: a dependency\n",
    "dist/out.js": "// TODO: built\n",
    "debug.log": "TODO: a log\n",
    ".git/HEAD": "TODO: never searched\n",
  };
  for (const [path, text] of Object.entries(files)) await env.writeFile(`workspace/${path}`, text);
  await Deno.writeFile(`${env.workdir}/src/blob.bin`, new TextEncoder().encode("TODO\0binary\n"));
}

Deno.test("grep searches the files ignore files leave, sorted by path, skipping binary ones", async () => {
  await using env = await createTestEnv();
  await project(env);
  const [all, ts, caseless, inFile] = await runToolCalls(env, [
    { name: "grep", arguments: { pattern: "TODO:" } },
    {
      name: "grep",
      arguments: { pattern: "todo: (handle|deep)", glob: "*.ts", ignore_case: true },
    },
    { name: "grep", arguments: { pattern: "^export", path: "src", glob: "src/*.ts" } },
    { name: "grep", arguments: { pattern: "windows$", path: "src/win.ts" } },
  ]);
  assert.equal(
    all?.text,
    [
      "README.md:2:TODO: write docs",
      "src/deep/nested/leaf.ts:1:// TODO: deep",
      "src/main.ts:2:// TODO: handle errors",
      "src/win.ts:1:// TODO: windows",
      "[files skipped: 1 binary]",
    ].join("\n"),
  );
  assert.equal(
    ts?.text,
    "src/deep/nested/leaf.ts:1:// TODO: deep\nsrc/main.ts:2:// TODO: handle errors",
  );
  assert.equal(caseless?.text, "no matches");
  assert.equal(inFile?.text, "src/win.ts:1:// TODO: windows");
});

Deno.test("grep shows context, caps the results and counts the rest", async () => {
  await using env = await createTestEnv();
  const text = Array.from({ length: 30 }, (_, index) => `row ${index + 1}`).join("\n") + "\n";
  await env.writeFile("workspace/rows.txt", text);
  const [context, capped] = await runToolCalls(env, [
    { name: "grep", arguments: { pattern: "^row (5|7|20)$", context: 1 } },
    { name: "grep", arguments: { pattern: "row", max_results: 2 } },
  ]);
  assert.equal(
    context?.text,
    [
      "rows.txt-4-row 4",
      "rows.txt:5:row 5",
      "rows.txt-6-row 6",
      "rows.txt:7:row 7",
      "rows.txt-8-row 8",
      "--",
      "rows.txt-19-row 19",
      "rows.txt:20:row 20",
      "rows.txt-21-row 21",
    ].join("\n"),
  );
  assert.equal(capped?.text, "rows.txt:1:row 1\nrows.txt:2:row 2\n[28 more matches not shown]");
});

Deno.test("grep stops a catastrophic pattern and rejects bad arguments with the fix", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/a.txt", `${"a".repeat(40)}b\n`);
  const started = Date.now();
  const results = await runToolCalls(env, [
    { name: "grep", arguments: { pattern: "(a+)+$" } },
    { name: "grep", arguments: { pattern: "(unclosed" } },
    { name: "grep", arguments: { pattern: "a", path: "missing" } },
    { name: "grep", arguments: { pattern: "a", context: 99 } },
    { name: "grep", arguments: { pattern: "" } },
  ]);
  assert.ok(Date.now() - started < 30_000, "the run was not frozen");
  assert.deepEqual(results.map((result) => result.isError), [true, true, true, true, true]);
  assert.match(
    results[0]?.text ?? "",
    /^grep stopped: the pattern took more than 2 s on a\.txt, .*catastrophic backtracking.*simplify the pattern$/,
  );
  assert.equal(
    results[1]?.text,
    "the pattern is not a valid JavaScript regular expression: " +
      "Invalid regular expression: /(unclosed/gm: Unterminated group",
  );
  assert.equal(
    results[2]?.text,
    "missing does not exist: check the path, or use find to look for the file",
  );
  assert.equal(results[3]?.text, 'the tool was not executed: "context" must be <= 10 (found 99)');
  assert.match(results[4]?.text ?? "", /^the tool was not executed: "pattern" must NOT have fewer/);
});

Deno.test("grep stops a search slow on every file once the call's budget is spent", async () => {
  await using env = await createTestEnv();
  // About 0.15 s per file for this pattern (2.4 s in all), well under the 2 s one file may take.
  for (let index = 10; index < 26; index++) {
    await env.writeFile(`workspace/slow${index}.txt`, `${"a".repeat(21)}b\n`);
  }
  const [stopped, invalid] = [
    ...await runToolCalls(env, [{ name: "grep", arguments: { pattern: "^(a+)+$" } }], {
      env: { RIENDA_GREP_BUDGET_MS: "300" },
    }),
    ...await runToolCalls(env, [{ name: "grep", arguments: { pattern: "a" } }], {
      env: { RIENDA_GREP_BUDGET_MS: "soon" },
    }),
  ];
  assert.equal(stopped?.isError, true, stopped?.text);
  assert.match(
    stopped?.text ?? "",
    new RegExp(
      "^grep stopped: the search took more than 300 ms in all \\(RIENDA_GREP_BUDGET_MS\\) and had " +
        "searched \\d+ of 16 files \\(it was on slow\\d+\\.txt\\): narrow path or glob; if every " +
        "file is slow, that usually means catastrophic backtracking .*: simplify the pattern$",
    ),
  );
  assert.deepEqual(invalid, {
    name: "grep",
    text: 'RIENDA_GREP_BUDGET_MS must be a whole number of milliseconds above 0 (found "soon"); ' +
      "unset it for the default 20000",
    isError: true,
  });
});

Deno.test("find lists matching files newest first, honouring ignore files", async () => {
  await using env = await createTestEnv();
  await project(env);
  const times = { "src/util.ts": 3000, "src/main.ts": 2000, "src/win.ts": 1000 };
  for (const [path, seconds] of Object.entries(times)) {
    await Deno.utime(`${env.workdir}/${path}`, seconds, seconds);
  }
  await Deno.utime(`${env.workdir}/src/deep/nested/leaf.ts`, 500, 500);
  const results = await runToolCalls(env, [
    { name: "find", arguments: { pattern: "**/*.ts" } },
    { name: "find", arguments: { pattern: "*.ts", path: "src/deep" } },
    { name: "find", arguments: { pattern: "src/*.{md,js}" } },
    { name: "find", arguments: { pattern: "**/*.js" } },
    { name: "find", arguments: { pattern: "/abs/**" } },
    { name: "find", arguments: { pattern: "*", path: "README.md" } },
  ]);
  assert.deepEqual(results.map(({ text, isError }) => ({ text, isError })), [
    {
      text: "src/util.ts\nsrc/main.ts\nsrc/win.ts\nsrc/deep/nested/leaf.ts",
      isError: false,
    },
    { text: "src/deep/nested/leaf.ts", isError: false },
    { text: 'no files match "src/*.{md,js}" in .', isError: false },
    { text: 'no files match "**/*.js" in .', isError: false },
    {
      text: 'the pattern "/abs/**" is absolute: give the folder as path and a relative pattern ' +
        'such as "**/*.ts"',
      isError: true,
    },
    { text: "README.md is a file, not a folder: give a folder as path", isError: true },
  ]);
});

Deno.test("find and ls cap long listings and count the rest", async () => {
  await using env = await createTestEnv();
  for (let index = 0; index < 1005; index++) {
    await Deno.writeTextFile(`${env.workdir}/f${String(index).padStart(4, "0")}.txt`, "");
  }
  const [found, listed] = await runToolCalls(env, [
    { name: "find", arguments: { pattern: "*.txt" } },
    { name: "ls", arguments: {} },
  ]);
  const foundLines = found?.text.split("\n") ?? [];
  assert.equal(foundLines.length, 1001);
  assert.equal(foundLines[1000], "[5 more files not shown: narrow the pattern or the path]");
  const listedLines = listed?.text.split("\n") ?? [];
  assert.equal(listedLines[0], "f0000.txt");
  assert.equal(listedLines[1000], "[5 more entries not shown: use find with a pattern]");
});

Deno.test("ls lists one folder sorted, folders with a slash, hidden entries counted", async () => {
  await using env = await createTestEnv();
  await project(env);
  await Deno.symlink("src/util.ts", `${env.workdir}/util-link.ts`);
  const results = await runToolCalls(env, [
    { name: "ls", arguments: {} },
    { name: "ls", arguments: { path: "src" } },
    { name: "ls", arguments: { path: "README.md" } },
    { name: "ls", arguments: { path: "srcc" } },
  ]);
  assert.deepEqual(results.map(({ text, isError }) => ({ text, isError })), [
    {
      text: [
        ".gitignore",
        "README.md",
        "src/",
        "util-link.ts -> src/util.ts",
        "[3 hidden by ignore files: debug.log, dist/, node_modules/]",
      ].join("\n"),
      isError: false,
    },
    {
      text: [
        ".ignore",
        "blob.bin",
        "deep/",
        "main.ts",
        "util.ts",
        "win.ts",
        "[1 hidden by ignore files: generated.ts]",
      ].join("\n"),
      isError: false,
    },
    { text: "README.md is a file, not a folder: use read to see it", isError: true },
    { text: "srcc does not exist; did you mean src?", isError: true },
  ]);
});

Deno.test("hooks fire around built-in file tools, and a user tool replaces one", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/a.txt", "secret\n");
  await env.writeHook(
    "redact",
    `module.exports = {
  beforeToolExecute: function (ctx, call) {
    if (call.name === "write") return { allow: false, reason: "no writes today" };
  },
  afterToolExecute: function (ctx, call, result) {
    if (call.name === "read") return { text: result.text.replace("secret", "[redacted]") };
  },
};`,
  );
  await env.writeAgent("hooked", {
    description: "Hooked.",
    tools: ["read", "write", "ls"],
    hooks: ["redact"],
  });
  await env.writeTool(
    "ls",
    `module.exports = { description: "My ls.", parameters: { type: "object" }, execute: function () { return "mine"; } };`,
  );
  const results = await runToolCalls(env, [
    { name: "read", arguments: { path: "a.txt" } },
    { name: "write", arguments: { path: "b.txt", content: "x" } },
    { name: "ls", arguments: {} },
  ], { agent: "hooked" });
  assert.deepEqual(results.map(({ text, isError }) => ({ text, isError })), [
    { text: "     1→[redacted]", isError: false },
    { text: 'hook "redact" refused the call: no writes today', isError: true },
    { text: "mine", isError: false },
  ]);
  await assert.rejects(Deno.stat(`${env.workdir}/b.txt`), Deno.errors.NotFound);
});

Deno.test("SIGINT during a grep whose pattern backtracks for ever ends the run with 130", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "grep", arguments: { pattern: "(a+)+$" } }] },
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/a.txt", `${"a".repeat(60)}b\n`);
  await env.writeAgent("files", { description: "Greps.", tools: ["grep"] });
  await using process = await env.start(["run", "-a", "files", "go"]);
  await process.waitForStderr("tool: grep");
  await new Promise((resolve) => setTimeout(resolve, 200));
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
  assert.equal(provider.requests.length, 1);
});
