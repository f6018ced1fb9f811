import assert from "node:assert/strict";
import { newEntryId, newSessionId } from "./ids.ts";

const SESSION_ID_REGEXP = /^[0-9a-hjkmnp-tv-z]{26}$/;

Deno.test("newSessionId() makes 26 lowercase Crockford base32 characters", () => {
  for (let i = 0; i < 50; i++) {
    const id = newSessionId();
    assert.equal(id.length, 26);
    assert.match(id, SESSION_ID_REGEXP);
  }
});

Deno.test("newSessionId() sorts as text in the order of its times", () => {
  const times = [0, 1, 31, 32, 1_000, 1_700_000_000_000, 1_700_000_000_001, 2 ** 48 - 1];
  const ids = times.map((ms) => newSessionId(new Date(ms)));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(ids[0]?.slice(0, 10), "0000000000");
  assert.equal(ids[ids.length - 1]?.slice(0, 10), "7zzzzzzzzz");
});

Deno.test("newSessionId() stays strictly increasing within one millisecond", () => {
  const now = new Date(1_800_000_000_000);
  const ids = Array.from({ length: 200 }, () => newSessionId(now));
  for (let i = 1; i < ids.length; i++) {
    assert.ok((ids[i - 1] ?? "") < (ids[i] ?? ""), `${ids[i - 1]} < ${ids[i]}`);
  }
});

Deno.test("newSessionId() rejects times outside 48 bits", () => {
  assert.throws(() => newSessionId(new Date(-1)), /time must be within/);
  assert.throws(() => newSessionId(new Date(2 ** 48)), /time must be within/);
});

Deno.test("newEntryId() returns 8 hex characters never in the taken set, and adds them", () => {
  const taken = new Set<string>();
  for (let i = 0; i < 2_000; i++) {
    const id = newEntryId(taken);
    assert.match(id, /^[0-9a-f]{8}$/);
  }
  assert.equal(taken.size, 2_000);
});
