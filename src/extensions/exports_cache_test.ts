import assert from "node:assert/strict";
import { join } from "node:path";
import { cachedExports, rememberExports } from "./exports_cache.ts";

Deno.test("exports are remembered per module text, privately", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = join(root, "exports-cache");
    assert.equal(await cachedExports(dir, "a"), undefined);
    await rememberExports(dir, "a", { type: "object", keys: {} });
    assert.deepEqual(await cachedExports(dir, "a"), { type: "object", keys: {} });
    assert.equal(await cachedExports(dir, "a "), undefined, "another text is another module");
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    for await (const entry of Deno.readDir(dir)) {
      assert.equal((await Deno.stat(join(dir, entry.name))).mode! & 0o777, 0o600);
    }
    await Deno.writeTextFile(join(dir, [...Deno.readDirSync(dir)][0]!.name), "{broken");
    assert.equal(await cachedExports(dir, "a"), undefined, "an unreadable entry is no entry");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
