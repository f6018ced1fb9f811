import assert from "node:assert/strict";
import { argumentTextOf, resolveUsage, splitText } from "./turn.ts";

Deno.test("splitText() cuts text into near-equal pieces that join back to it", () => {
  assert.deepEqual(splitText("abcdef", 3), ["ab", "cd", "ef"]);
  assert.deepEqual(splitText("abcdefg", 3), ["ab", "cde", "fg"]);
  assert.equal(splitText("hello world", 4).join(""), "hello world");
});

Deno.test("splitText() never makes empty pieces nor splits a surrogate pair", () => {
  assert.deepEqual(splitText("ab", 5), ["a", "b"]);
  assert.deepEqual(splitText("", 3), []);
  assert.deepEqual(splitText("😀😀", 2), ["😀", "😀"]);
  assert.deepEqual(splitText("abc", 0), ["abc"]);
});

Deno.test("argumentTextOf() prefers rawArguments, then JSON of arguments, then {}", () => {
  assert.equal(argumentTextOf({ name: "t", rawArguments: "{bad", arguments: { a: 1 } }), "{bad");
  assert.equal(argumentTextOf({ name: "t", arguments: { a: 1 } }), '{"a":1}');
  assert.equal(argumentTextOf({ name: "t" }), "{}");
});

Deno.test("resolveUsage() keeps null, defaults absent usage and fills optional counts", () => {
  assert.equal(resolveUsage(null), null);
  assert.deepEqual(resolveUsage(undefined), {
    input: 10,
    output: 5,
    cachedInput: 0,
    reasoning: 0,
    cacheWrite: 0,
  });
  assert.deepEqual(resolveUsage({ input: 1, output: 2, cachedInput: 3 }), {
    input: 1,
    output: 2,
    cachedInput: 3,
    reasoning: 0,
    cacheWrite: 0,
  });
});
