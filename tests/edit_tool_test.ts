import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { runToolCalls } from "./harness/tool_run.ts";

const SOURCE = [
  "function greet(name) {",
  "  const greeting = 'hello';",
  "  return greeting + ' ' + name;",
  "}",
  "",
].join("\n");

Deno.test("edit replaces one exact occurrence and returns a unified diff", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/greet.js", SOURCE);
  const [result] = await runToolCalls(env, [{
    name: "edit",
    arguments: { path: "greet.js", old_string: "'hello'", new_string: "'hi'" },
  }]);
  assert.deepEqual(result, {
    name: "edit",
    text: [
      "edited greet.js (1 replacement)",
      "@@ -1,4 +1,4 @@",
      " function greet(name) {",
      "-  const greeting = 'hello';",
      "+  const greeting = 'hi';",
      "   return greeting + ' ' + name;",
      " }",
    ].join("\n"),
    isError: false,
  });
  assert.equal(await Deno.readTextFile(`${env.workdir}/greet.js`), SOURCE.replace("hello", "hi"));
});

Deno.test("edit says why it cannot replace: no match, several matches, nothing to change", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/greet.js", SOURCE);
  await env.writeFile("workspace/many.txt", "a = 1\nb = 1\nc = 1\n");
  const results = await runToolCalls(env, [
    {
      name: "edit",
      arguments: {
        path: "greet.js",
        old_string: "const greeting = 'hello';\n    return greeting",
        new_string: "x",
      },
    },
    {
      name: "edit",
      arguments: { path: "greet.js", old_string: "return greting + name;", new_string: "x" },
    },
    {
      name: "edit",
      arguments: { path: "greet.js", old_string: "zebra crossing", new_string: "x" },
    },
    { name: "edit", arguments: { path: "many.txt", old_string: "= 1", new_string: "= 2" } },
    { name: "edit", arguments: { path: "many.txt", old_string: "b", new_string: "b" } },
    { name: "edit", arguments: { path: "many.txt", old_string: "", new_string: "x" } },
    { name: "edit", arguments: { path: "gret.js", old_string: "a", new_string: "b" } },
    { name: "edit", arguments: { path: "greet.js", new_string: "b" } },
  ]);
  assert.deepEqual(results.map((result) => result.isError), Array(8).fill(true));
  assert.deepEqual(results.map((result) => result.text), [
    "old_string was not found in greet.js, but it matches lines 2–3 if whitespace is ignored: " +
    "copy old_string exactly from the file (indentation, tabs, spaces, line breaks), " +
    "e.g. read those lines first",
    [
      "old_string was not found in greet.js. The lines most like its first line:",
      "3:   return greeting + ' ' + name;",
      "Copy old_string exactly from the file (read it first if it may have changed).",
    ].join("\n"),
    "old_string was not found in greet.js, and no line is like its first line: " +
    "read the file and copy old_string exactly from it",
    "old_string occurs 3 times in many.txt (lines 1, 2, 3): add surrounding lines to " +
    "old_string to make it unique, or set replace_all to true",
    "old_string and new_string are the same, so there is nothing to change: " +
    "give the new text in new_string",
    "old_string is empty, but many.txt is not: give the exact text to replace " +
    "(to replace the whole file use write)",
    "gret.js does not exist; did you mean greet.js?",
    'the tool was not executed: "old_string" is required',
  ]);
  assert.equal(await Deno.readTextFile(`${env.workdir}/many.txt`), "a = 1\nb = 1\nc = 1\n");
});

Deno.test("edit with replace_all changes every occurrence; an empty old_string creates a file", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/many.txt", "a = 1\nb = 1\nc = 1\n");
  const [all, created, second] = await runToolCalls(env, [
    {
      name: "edit",
      arguments: { path: "many.txt", old_string: "= 1", new_string: "= $&2", replace_all: true },
    },
    { name: "edit", arguments: { path: "new/file.txt", old_string: "", new_string: "hi\n" } },
    { name: "edit", arguments: { path: "new/file.txt", old_string: "", new_string: "again\n" } },
  ]);
  assert.equal(all?.isError, false);
  assert.match(all?.text ?? "", /^edited many\.txt \(3 replacements\)\n@@ -1,3 \+1,3 @@\n/);
  assert.equal(await Deno.readTextFile(`${env.workdir}/many.txt`), "a = $&2\nb = $&2\nc = $&2\n");
  assert.deepEqual(created, {
    name: "edit",
    text: "created new/file.txt (1 line)",
    isError: false,
  });
  assert.equal(second?.isError, true);
  assert.equal(await Deno.readTextFile(`${env.workdir}/new/file.txt`), "hi\n");
});

Deno.test("edit keeps CRLF line ends, the BOM and the mode of the file", async () => {
  await using env = await createTestEnv();
  const path = await env.writeFile(
    "workspace/win.txt",
    "\uFEFFfirst line\r\nsecond line\r\nthird line\r\n",
    0o640,
  );
  const [result] = await runToolCalls(env, [{
    name: "edit",
    arguments: {
      path: "win.txt",
      old_string: "second line\nthird",
      new_string: "2nd line\nand a new one\nthird",
    },
  }]);
  assert.equal(result?.isError, false, result?.text);
  assert.deepEqual(
    await Deno.readFile(path),
    new TextEncoder().encode("\uFEFFfirst line\r\n2nd line\r\nand a new one\r\nthird line\r\n"),
  );
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o640);
  assert.ok(!result?.text.includes("\r"), "the diff shows the lines without CR");
});

Deno.test("edit refuses binary and invalid UTF-8 files and leaves them alone", async () => {
  await using env = await createTestEnv();
  const binary = new Uint8Array([0x61, 0, 0x62, 0x0a]);
  const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);
  await Deno.writeFile(`${env.workdir}/data.bin`, binary);
  await Deno.writeFile(`${env.workdir}/latin1.txt`, latin1);
  const results = await runToolCalls(env, [
    { name: "edit", arguments: { path: "data.bin", old_string: "a", new_string: "b" } },
    { name: "edit", arguments: { path: "latin1.txt", old_string: "caf", new_string: "tea" } },
    { name: "edit", arguments: { path: ".", old_string: "a", new_string: "b" } },
  ]);
  assert.deepEqual(results.map(({ text, isError }) => ({ text, isError })), [
    { text: "data.bin is a binary file: edit changes text files only", isError: true },
    {
      text: "latin1.txt is not valid UTF-8: edit does not change it, as saving it would alter " +
        "the bytes that are not; use shell (e.g. sed) if it must change",
      isError: true,
    },
    { text: ". is a directory: give the path of a file in it", isError: true },
  ]);
  assert.deepEqual(await Deno.readFile(`${env.workdir}/data.bin`), binary);
  assert.deepEqual(await Deno.readFile(`${env.workdir}/latin1.txt`), latin1);
});

Deno.test("edit of a 100,000-line file returns a diff of the changed lines only", async () => {
  await using env = await createTestEnv();
  const text = Array.from({ length: 100_000 }, (_, index) => `line ${index + 1}`).join("\n") + "\n";
  const path = await env.writeFile("workspace/big.txt", text);
  const [result] = await runToolCalls(env, [{
    name: "edit",
    arguments: { path: "big.txt", old_string: "line 50000\n", new_string: "changed\n" },
  }]);
  assert.equal(
    result?.text,
    [
      "edited big.txt (1 replacement)",
      "@@ -49997,7 +49997,7 @@",
      " line 49997",
      " line 49998",
      " line 49999",
      "-line 50000",
      "+changed",
      " line 50001",
      " line 50002",
      " line 50003",
    ].join("\n"),
  );
  assert.equal(await Deno.readTextFile(path), text.replace("line 50000\n", "changed\n"));
});

Deno.test("edit refuses a file over 32 MiB from its size, before reading it, and says what to use", async () => {
  await using env = await createTestEnv();
  const path = `${env.workdir}/huge.log`;
  // Sparse: text in the first bytes, then a hole up to 400 MiB, so nothing large is written.
  {
    using file = await Deno.open(path, { write: true, create: true });
    await file.write(new TextEncoder().encode("line one\n".repeat(1000)));
    await file.truncate(400 * 1024 * 1024);
  }
  const [result] = await runToolCalls(env, [{
    name: "edit",
    arguments: { path: "huge.log", old_string: "line one", new_string: "x", replace_all: true },
  }]);
  assert.deepEqual(result, {
    name: "edit",
    text: "huge.log is 400.0 MiB, larger than the 32.0 MiB edit changes: use shell for a file " +
      "this large (sed -i, or a short script), or split the file",
    isError: true,
  });
  assert.equal((await Deno.stat(path)).size, 400 * 1024 * 1024);
});
