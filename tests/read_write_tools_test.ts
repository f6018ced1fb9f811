import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { runToolCalls } from "./harness/tool_run.ts";

const lines = (count: number, line: (n: number) => string) =>
  Array.from({ length: count }, (_, index) => line(index + 1)).join("\n") + "\n";

Deno.test("read numbers the lines, pages a 100,000-line file and says how to read on", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/big.txt", lines(100_000, (n) => `line ${n}`));
  await env.writeFile("workspace/small.txt", "one\ntwo\nthree");
  const [first, middle, last, small] = await runToolCalls(env, [
    { name: "read", arguments: { path: "big.txt" } },
    { name: "read", arguments: { path: "big.txt", offset: 500, limit: 2 } },
    { name: "read", arguments: { path: `${env.workdir}/big.txt`, offset: 99_999 } },
    { name: "read", arguments: { path: "small.txt" } },
  ]);
  const firstLines = first?.text.split("\n") ?? [];
  assert.equal(firstLines.length, 2001);
  assert.equal(firstLines[0], "     1→line 1");
  assert.equal(firstLines[1999], "  2000→line 2000");
  assert.equal(firstLines[2000], "[lines 1–2000 of 100000; read on with offset 2001]");
  assert.equal(
    middle?.text,
    "   500→line 500\n   501→line 501\n[lines 500–501 of 100000; read on with offset 502]",
  );
  assert.equal(last?.text, " 99999→line 99999\n100000→line 100000");
  assert.deepEqual(small, {
    name: "read",
    text: "     1→one\n     2→two\n     3→three",
    isError: false,
  });
});

Deno.test("read hides CRLF and the BOM, cuts long lines and stays under the result cap", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/crlf.txt", "\uFEFFfirst\r\nsecond\r\n");
  await env.writeFile("workspace/long.txt", `${"x".repeat(2500)}\nshort\n`);
  await env.writeFile("workspace/wide.txt", lines(2000, () => "y".repeat(300)));
  const [crlf, long, wide] = await runToolCalls(env, [
    { name: "read", arguments: { path: "crlf.txt" } },
    { name: "read", arguments: { path: "long.txt" } },
    { name: "read", arguments: { path: "wide.txt" } },
  ]);
  assert.equal(crlf?.text, "     1→first\n     2→second");
  assert.equal(
    long?.text,
    `     1→${"x".repeat(2000)}… [line cut at 2000 of 2500 characters]\n     2→short`,
  );
  const wideLines = wide?.text.split("\n") ?? [];
  assert.ok(new TextEncoder().encode(wide?.text).length <= 256 * 1024);
  const footer = wideLines.at(-1) ?? "";
  const shown = wideLines.length - 1;
  assert.ok(shown < 2000, `${shown} lines of 300 characters fit in 256 KiB`);
  assert.equal(footer, `[lines 1–${shown} of 2000; read on with offset ${shown + 1}]`);
});

Deno.test("read refuses directories, binary files, missing files and bad offsets with what to do", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/src/config.ts", "export {};\n");
  await env.writeFile("workspace/empty.txt", "");
  await Deno.writeFile(`${env.workdir}/image.png`, new Uint8Array([0x89, 0x50, 0, 0, 1, 2, 3]));
  const results = await runToolCalls(env, [
    { name: "read", arguments: { path: "src" } },
    { name: "read", arguments: { path: "image.png" } },
    { name: "read", arguments: { path: "src/confg.ts" } },
    { name: "read", arguments: { path: "config.ts" } },
    { name: "read", arguments: { path: "nowhere/at/all.ts" } },
    { name: "read", arguments: { path: "src/config.ts", offset: 5 } },
    { name: "read", arguments: { path: "empty.txt" } },
    { name: "read", arguments: { path: "src/config.ts", offset: 0 } },
    { name: "read", arguments: { path: "src/config.ts", lines: 3 } },
  ]);
  assert.deepEqual(results.map(({ text, isError }) => ({ text, isError })), [
    { text: "src is a directory: use ls to list it, or read a file in it", isError: true },
    { text: "binary file (7 bytes), not shown", isError: false },
    { text: "src/confg.ts does not exist; did you mean src/config.ts?", isError: true },
    { text: "config.ts does not exist; did you mean src/config.ts?", isError: true },
    {
      text: "nowhere/at/all.ts does not exist (the nearest existing folder is .): " +
        "check the path, or use find to look for the file",
      isError: true,
    },
    {
      text:
        "offset 5 is past the end of src/config.ts, which has 1 line: use an offset from 1 to 1",
      isError: true,
    },
    { text: "empty.txt is empty (0 lines)", isError: false },
    { text: 'the tool was not executed: "offset" must be >= 1 (found 0)', isError: true },
    { text: 'the tool was not executed: unexpected property "lines"', isError: true },
  ]);
});

Deno.test("rienda tools test read prints the numbered lines without a model", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/notes.md", "# Notes\n\nhello\n");
  const result = await env.run([
    "tools",
    "test",
    "read",
    "--args",
    '{"path":"notes.md","offset":3}',
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "     3→hello\n");
  const missing = await env.run(["tools", "test", "read", "--args", '{"path":"note.md"}']);
  assert.equal(missing.code, 1);
  assert.equal(missing.stdout, "note.md does not exist; did you mean notes.md?\n");
});

Deno.test("write creates folders, replaces atomically keeping the mode, and writes through links", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/run.sh", "#!/bin/sh\necho old\n", 0o755);
  await env.writeFile("elsewhere/target.txt", "old\n");
  await Deno.mkdir(`${env.workdir}/links`);
  await Deno.symlink(`${env.workdir}/run.sh`, `${env.workdir}/links/run-link.sh`);
  const results = await runToolCalls(env, [
    { name: "write", arguments: { path: "a/b/new.txt", content: "one\ntwo\n" } },
    { name: "write", arguments: { path: "links/run-link.sh", content: "#!/bin/sh\necho new\n" } },
    { name: "write", arguments: { path: "empty.txt", content: "" } },
    { name: "write", arguments: { path: "a", content: "x" } },
    { name: "write", arguments: { path: "a/b/new.txt/inner", content: "x" } },
  ]);
  assert.deepEqual(results.map(({ text, isError }) => ({ text, isError })), [
    { text: "created a/b/new.txt (2 lines)", isError: false },
    {
      text:
        "replaced links/run-link.sh (2 lines, was 2)\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-echo old\n+echo new",
      isError: false,
    },
    { text: "created empty.txt (0 lines)", isError: false },
    { text: "a is a directory: give the path of a file in it", isError: true },
    {
      text: "cannot write a/b/new.txt/inner: a part of the path is a file, not a folder: " +
        "choose another path",
      isError: true,
    },
  ]);
  assert.equal(await Deno.readTextFile(`${env.workdir}/a/b/new.txt`), "one\ntwo\n");
  assert.equal(await Deno.readTextFile(`${env.workdir}/run.sh`), "#!/bin/sh\necho new\n");
  assert.equal((await Deno.lstat(`${env.workdir}/links/run-link.sh`)).isSymlink, true);
  assert.equal((await Deno.stat(`${env.workdir}/run.sh`)).mode! & 0o777, 0o755);
  const leftovers = [...Deno.readDirSync(env.workdir)].map((entry) => entry.name);
  assert.deepEqual(leftovers.filter((name) => name.includes(".tmp")), []);
});

Deno.test("writes outside the workspace are refused naming -y, and allowed with -y", async () => {
  await using env = await createTestEnv();
  const outside = `${env.root}/elsewhere/out.txt`;
  await Deno.symlink(env.root, `${env.workdir}/escape`);
  const refused = await runToolCalls(env, [
    { name: "write", arguments: { path: outside, content: "x\n" } },
    { name: "write", arguments: { path: "../sibling.txt", content: "x\n" } },
    { name: "write", arguments: { path: "escape/via-link.txt", content: "x\n" } },
    { name: "edit", arguments: { path: outside, old_string: "", new_string: "x\n" } },
  ]);
  for (const result of refused) {
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /^refused to write \/.*: it is outside the workspace /);
    assert.match(result.text, /run rienda with -y \(--auto-approve\) to allow them/);
  }
  assert.ok(refused[0]?.text.includes(outside), refused[0]?.text);
  for (const path of [outside, `${env.root}/sibling.txt`, `${env.root}/via-link.txt`]) {
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  }
  const allowed = await runToolCalls(env, [
    { name: "write", arguments: { path: outside, content: "x\n" } },
    { name: "edit", arguments: { path: outside, old_string: "x", new_string: "y" } },
  ], { flags: ["-y"] });
  assert.deepEqual(allowed.map((result) => result.isError), [false, false]);
  assert.equal(await Deno.readTextFile(outside), "y\n");
  const read = await runToolCalls(env, [{ name: "read", arguments: { path: outside } }]);
  assert.deepEqual(read[0], { name: "read", text: "     1→y", isError: false });
});

Deno.test("the file tools refuse pipes instead of waiting on them, and grep skips them", async () => {
  await using env = await createTestEnv();
  await env.writeFile("workspace/a.txt", "needle\n");
  const made = await new Deno.Command("mkfifo", { args: [`${env.workdir}/pipe`] }).output();
  assert.ok(made.success, "mkfifo");
  const results = await runToolCalls(env, [
    { name: "read", arguments: { path: "pipe" } },
    { name: "edit", arguments: { path: "pipe", old_string: "a", new_string: "b" } },
    { name: "write", arguments: { path: "pipe", content: "x" } },
    { name: "grep", arguments: { pattern: "needle" } },
  ]);
  const refusal = "pipe is not a regular file (a pipe, socket or device): give the path of a file";
  assert.deepEqual(results.map(({ text, isError }) => ({ text, isError })), [
    { text: refusal, isError: true },
    { text: refusal, isError: true },
    { text: refusal, isError: true },
    { text: "a.txt:1:needle", isError: false },
  ]);
});

Deno.test("write and edit refuse a dangling link: they neither replace it nor create its target", async () => {
  await using env = await createTestEnv();
  const outside = `${env.root}/elsewhere/new.txt`;
  await Deno.mkdir(`${env.root}/elsewhere`);
  await Deno.symlink(outside, `${env.workdir}/out-link`);
  await Deno.symlink("missing.txt", `${env.workdir}/in-link`);
  await Deno.symlink("gone", `${env.workdir}/folder-link`);
  const results = await runToolCalls(env, [
    { name: "write", arguments: { path: "out-link", content: "x\n" } },
    { name: "edit", arguments: { path: "out-link", old_string: "", new_string: "x\n" } },
    { name: "write", arguments: { path: "in-link", content: "x\n" } },
    { name: "write", arguments: { path: "folder-link/a.txt", content: "x\n" } },
  ], { flags: ["-y"] });
  const refusal = (link: string, target: string, tool: string) =>
    `${link} is a symbolic link to ${target}, which does not exist: ${tool} neither follows ` +
    "nor replaces a dangling link; give the path it should point to, or remove the link first";
  assert.deepEqual(results.map(({ text, isError }) => ({ text, isError })), [
    { text: refusal("out-link", outside, "write"), isError: true },
    { text: refusal("out-link", outside, "edit"), isError: true },
    { text: refusal("in-link", "missing.txt", "write"), isError: true },
    { text: refusal("folder-link", "gone", "write"), isError: true },
  ]);
  for (const link of ["out-link", "in-link", "folder-link"]) {
    assert.equal((await Deno.lstat(`${env.workdir}/${link}`)).isSymlink, true, link);
  }
  await assert.rejects(Deno.stat(outside), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(`${env.workdir}/missing.txt`), Deno.errors.NotFound);
});
