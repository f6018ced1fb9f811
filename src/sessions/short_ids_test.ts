import assert from "node:assert/strict";
import { matchingIds, shortIds } from "./short_ids.ts";

const A = "01kb2x000000000000000000a7k2";
const B = "01kb2x0000000000000000009qzt";
const C = "01kb2y00000000000000000xa7k2";

Deno.test("shortIds() takes the shortest end no other id starts or ends with, at least 4 characters", () => {
  assert.deepEqual(shortIds([A, B]), new Map([[A, "a7k2"], [B, "9qzt"]]));
  // C ends like A: both need one more character.
  assert.deepEqual(shortIds([A, B, C]), new Map([[A, "0a7k2"], [B, "9qzt"], [C, "xa7k2"]]));
  assert.deepEqual(shortIds([A]), new Map([[A, "a7k2"]]));
});

Deno.test("matchingIds() prefers the exact id, then prefixes, then ends of 4 characters or more", () => {
  const ids = [A, B, C];
  assert.deepEqual(matchingIds(A, ids), [A]);
  assert.deepEqual(matchingIds("01kb2x", ids), [A, B]);
  assert.deepEqual(matchingIds("9qzt", ids), [B]);
  assert.deepEqual(matchingIds("a7k2", ids), [A, C]);
  assert.deepEqual(matchingIds("xa7k2", ids), [C]);
  assert.deepEqual(matchingIds("k2", ids), [], "an end shorter than 4 characters names nothing");
  assert.deepEqual(matchingIds("", ids), []);
  // Every short form names exactly its id.
  for (const [id, short] of shortIds(ids)) assert.deepEqual(matchingIds(short, ids), [id]);
});
