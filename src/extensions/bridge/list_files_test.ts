import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { makeSandbox } from "../../../tests/_testing/extension_fixtures.ts";
import { listFiles } from "./list_files.ts";

async function tree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
}

const { workdir } = await makeSandbox();
await tree(workdir, {
  ".git/HEAD": "ref",
  ".gitignore": "*.log\nbuild/\n",
  "app.log": "",
  "keep.txt": "",
  "build/out.js": "",
  "src/.ignore": "secret.txt\n!important.log\n",
  "src/index.ts": "",
  "src/secret.txt": "",
  "src/important.log": "",
  "src/debug.log": "",
  "src/deep/.gitignore": "*.tmp\n",
  "src/deep/a.tmp": "",
  "src/deep/b.ts": "",
});
const signal = new AbortController().signal;
const paths = async (
  root: string,
  options: { recursive?: boolean; respectIgnoreFiles?: boolean } = {},
) =>
  (await listFiles({
    workdir,
    root,
    recursive: options.recursive ?? true,
    respectIgnoreFiles: options.respectIgnoreFiles ?? true,
    signal,
  })).map((entry) => entry.isDir ? `${entry.path}/` : entry.path);

Deno.test("listFiles() honours nested .gitignore and .ignore files and never lists .git", async () => {
  assert.deepEqual(await paths(workdir), [
    ".gitignore",
    "keep.txt",
    "src/",
    "src/.ignore",
    "src/deep/",
    "src/deep/.gitignore",
    "src/deep/b.ts",
    "src/important.log",
    "src/index.ts",
  ]);
});

Deno.test("listFiles() of a subdirectory applies the ignore files above it", async () => {
  assert.deepEqual(await paths(join(workdir, "src/deep")), [
    "src/deep/.gitignore",
    "src/deep/b.ts",
  ]);
  assert.deepEqual(await paths(join(workdir, "src")), [
    "src/.ignore",
    "src/deep/",
    "src/deep/.gitignore",
    "src/deep/b.ts",
    "src/important.log",
    "src/index.ts",
  ]);
});

Deno.test("listFiles() lists everything but .git when told not to respect ignore files", async () => {
  const all = await paths(workdir, { respectIgnoreFiles: false });
  assert.ok(
    all.includes("build/out.js") && all.includes("app.log") && all.includes("src/deep/a.tmp"),
  );
  assert.ok(!all.some((path) => path.startsWith(".git/")));
});

Deno.test("listFiles() without recursion lists one level", async () => {
  assert.deepEqual(await paths(workdir, { recursive: false }), [".gitignore", "keep.txt", "src/"]);
});
