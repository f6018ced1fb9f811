import assert from "node:assert/strict";
import { formatDuration } from "./format_duration.ts";

Deno.test("formatDuration() writes milliseconds under one second", () => {
  assert.equal(formatDuration(1), "1ms");
  assert.equal(formatDuration(200), "200ms");
  assert.equal(formatDuration(999), "999ms");
});

Deno.test("formatDuration() writes seconds from one second on", () => {
  assert.equal(formatDuration(1000), "1s");
  assert.equal(formatDuration(1500), "1.5s");
  assert.equal(formatDuration(1234), "1.234s");
  assert.equal(formatDuration(120000), "120s");
});
