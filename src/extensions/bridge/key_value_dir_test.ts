import assert from "node:assert/strict";
import { join } from "node:path";
import { makeSandbox } from "../../_testing/extension_fixtures.ts";
import { openKeyValueDir } from "./key_value_dir.ts";

const { home } = await makeSandbox();

Deno.test("openKeyValueDir() expires entries after their ttl", async () => {
  let now = 1_000_000;
  const entries = openKeyValueDir(join(home, "cache"), () => now);
  await entries.set("token", "abc", 10);
  await entries.set("forever", "x", null);
  assert.equal(await entries.get("token"), "abc");
  now += 9_999;
  assert.equal(await entries.get("token"), "abc");
  now += 1;
  assert.equal(await entries.get("token"), null);
  assert.equal(await entries.get("forever"), "x");
});

Deno.test("openKeyValueDir() keeps names apart and stores odd names safely", async () => {
  const dir = join(home, "store");
  const entries = openKeyValueDir(dir);
  await entries.set("a/../b", "one", null);
  await entries.set("a", "two", null);
  assert.equal(await entries.get("a/../b"), "one");
  assert.equal(await entries.get("a"), "two");
  const files = [];
  for await (const entry of Deno.readDir(dir)) files.push(entry.name);
  assert.ok(files.every((name) => !name.includes("/") && !name.endsWith(".tmp")));
  assert.equal(await entries.delete("a"), true);
  assert.equal(await entries.delete("a"), false);
  assert.equal(await entries.get("a"), null);
});
