import assert from "node:assert/strict";
import { join } from "node:path";
import { cachedExports, rememberExports } from "./exports_cache.ts";

const TOOL = { kind: "tool", name: "word-count" };

Deno.test("exports are remembered per module text, privately, one file per extension", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = join(root, "exports-cache");
    assert.equal(await cachedExports(dir, TOOL, "a"), undefined);
    await rememberExports(dir, { kind: "tool", name: "word" }, "w", { other: true });
    await rememberExports(dir, TOOL, "a", { type: "object", keys: {} });
    assert.deepEqual(await cachedExports(dir, TOOL, "a"), { type: "object", keys: {} });
    assert.equal(await cachedExports(dir, TOOL, "a "), undefined, "another text is another module");
    await rememberExports(dir, TOOL, "b", { type: "object", keys: { b: {} } });
    assert.equal(await cachedExports(dir, TOOL, "a"), undefined, "the earlier reading is gone");
    assert.deepEqual(await cachedExports(dir, { kind: "tool", name: "word" }, "w"), {
      other: true,
    });
    assert.equal([...Deno.readDirSync(dir)].length, 2);
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    for await (const entry of Deno.readDir(dir)) {
      assert.equal((await Deno.stat(join(dir, entry.name))).mode! & 0o777, 0o600);
    }
    const [entry] = [...Deno.readDirSync(dir)].filter((item) =>
      item.name.startsWith("tool-word-count-")
    );
    await Deno.writeTextFile(join(dir, entry!.name), "{broken");
    assert.equal(await cachedExports(dir, TOOL, "b"), undefined, "an unreadable entry is no entry");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
