import assert from "node:assert/strict";
import { isValidName } from "./names.ts";

Deno.test("isValidName() accepts 1 to 64 letters, digits, _ and -", () => {
  assert.equal(isValidName("word-count_2"), true);
  assert.equal(isValidName("a".repeat(64)), true);
  assert.equal(isValidName("a".repeat(65)), false);
  assert.equal(isValidName(""), false);
  assert.equal(isValidName("has space"), false);
  assert.equal(isValidName("dots.js"), false);
});
