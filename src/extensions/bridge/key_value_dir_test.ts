import assert from "node:assert/strict";
import { join } from "node:path";
import { makeSandbox } from "../../../tests/_testing/extension_fixtures.ts";
import { openKeyValueDir, type Quota } from "./key_value_dir.ts";

const { home } = await makeSandbox();

const ROOMY: Quota = { entryBytes: 1024 * 1024, totalBytes: 16 * 1024 * 1024, entries: 10_000 };

Deno.test("openKeyValueDir() expires entries after their ttl", async () => {
  let now = 1_000_000;
  const dir = join(home, "cache");
  const entries = openKeyValueDir(dir, { root: dir, quota: ROOMY, now: () => now });
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
  const entries = openKeyValueDir(dir, { root: dir, quota: ROOMY });
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

Deno.test("openKeyValueDir() keeps to its quota: one entry, the bytes and the entries of the folder", async () => {
  let now = 1_000_000;
  const root = join(home, "quota");
  const dir = join(root, "tool", "t");
  const quota: Quota = { entryBytes: 100, totalBytes: 400, entries: 3 };
  const entries = openKeyValueDir(dir, { root, quota, now: () => now });
  assert.deepEqual(await entries.set("big", "x".repeat(101), null), { kind: "entry", bytes: 101 });
  assert.equal(await entries.set("a", "x".repeat(100), null), null);
  assert.equal(await entries.set("a", "y".repeat(100), null), null, "replacing counts once");
  assert.equal(await entries.set("b", "x".repeat(100), 1), null);
  assert.equal(await entries.set("c", "x".repeat(10), null), null);
  const full = await entries.set("d", "x", null);
  assert.equal(full?.kind, "full", "a fourth entry");
  now += 1000; // "b" expires: a write that does not fit first sweeps it out
  assert.equal(await entries.set("d", "x", null), null);
  assert.equal(await entries.get("b"), null);
  assert.equal(await entries.delete("a"), true);
  assert.equal(await entries.set("e", "x".repeat(100), null), null, "deleting makes room");
  // A second opening measures what the folder holds.
  const reopened = openKeyValueDir(dir, { root, quota, now: () => now });
  assert.equal((await reopened.set("f", "x", null))?.kind, "full");
  assert.equal((await Deno.stat(root)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(join(root, "tool"))).mode! & 0o777, 0o700);
});
