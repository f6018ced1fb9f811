import assert from "node:assert/strict";
import { join } from "node:path";
import { discoverExtensions, findExtension, readExtensionSource } from "./discovery.ts";
import { makeSandbox } from "../../tests/_testing/extension_fixtures.ts";

const { home } = await makeSandbox();
const toolsDir = join(home, "tools");

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

Deno.test("discoverExtensions() of a missing folder finds nothing and reports nothing", async () => {
  assert.deepEqual(await discoverExtensions("tool", join(home, "absent")), {
    found: [],
    diagnostics: [],
  });
});

Deno.test("discoverExtensions() finds index.js files and reports bad folders", async () => {
  await write(join(toolsDir, "word-count", "index.js"), "module.exports = {};");
  await write(join(toolsDir, "b", "index.js"), "// b");
  await Deno.mkdir(join(toolsDir, "empty"), { recursive: true });
  await Deno.mkdir(join(toolsDir, "bad name"), { recursive: true });
  await write(join(toolsDir, "loose.js"), "");
  const { found, diagnostics } = await discoverExtensions("tool", toolsDir);
  assert.deepEqual(found.map((tool) => [tool.name, tool.source]), [["b", "// b"], [
    "word-count",
    "module.exports = {};",
  ]]);
  assert.equal(found[1]?.path, join(toolsDir, "word-count", "index.js"));
  assert.deepEqual(diagnostics, [
    'tool "bad name": invalid name (use 1 to 64 letters, digits, "_" or "-")',
    'tool "empty": index.js is missing',
  ]);
});

Deno.test("findExtension() is null for an unknown name", async () => {
  assert.equal(await findExtension("hook", { dir: toolsDir, name: "nope" }), null);
});

Deno.test("readExtensionSource() reads each file once per process", async () => {
  const path = join(toolsDir, "once", "index.js");
  await write(path, "first");
  assert.equal(await readExtensionSource(path), "first");
  await Deno.writeTextFile(path, "second");
  assert.equal(await readExtensionSource(path), "first");
});
