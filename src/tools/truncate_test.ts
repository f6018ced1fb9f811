import assert from "node:assert/strict";
import {
  capToolResult,
  cutUtf8,
  MAX_TOOL_RESULT_BYTES,
  TRUNCATION_MARKER,
  utf8ByteLength,
} from "./truncate.ts";

const CAP = MAX_TOOL_RESULT_BYTES;
const encoder = new TextEncoder();

Deno.test("capToolResult() keeps ASCII text of exactly the cap unchanged", () => {
  const text = "a".repeat(CAP);
  assert.equal(capToolResult(text), text);
});

Deno.test("capToolResult() cuts ASCII text one byte over the cap and adds the marker", () => {
  const text = "a".repeat(CAP) + "b";
  const capped = capToolResult(text);
  assert.equal(capped, "a".repeat(CAP) + TRUNCATION_MARKER);
  assert.equal(encoder.encode(capped.slice(0, -TRUNCATION_MARKER.length)).length, CAP);
});

Deno.test("capToolResult() leaves text it capped already as it is", () => {
  const once = capToolResult("a" + "é".repeat(CAP / 2));
  assert.equal(capToolResult(once), once);
  // Ending with the marker is not enough: what comes before it must fit.
  const over = "a".repeat(CAP + 1) + TRUNCATION_MARKER;
  assert.equal(capToolResult(over), "a".repeat(CAP) + TRUNCATION_MARKER);
});

for (
  const [label, char] of [
    ["2-byte", "é"],
    ["3-byte", "€"],
    ["4-byte", "😀"],
  ] as const
) {
  const size = encoder.encode(char).length;

  Deno.test(`capToolResult() keeps a ${label} character ending exactly at the cap`, () => {
    const text = "a".repeat(CAP - size) + char;
    assert.equal(encoder.encode(text).length, CAP);
    assert.equal(capToolResult(text), text);
  });

  Deno.test(`capToolResult() drops a ${label} character that straddles the cap`, () => {
    const text = "a".repeat(CAP - size + 1) + char;
    const capped = capToolResult(text);
    assert.equal(capped, "a".repeat(CAP - size + 1) + TRUNCATION_MARKER);
    assert.ok(!capped.includes("\ufffd"));
  });
}

Deno.test("capToolResult() never splits a surrogate pair of multi-byte text", () => {
  const text = "😀".repeat(CAP / 4 + 10);
  const kept = capToolResult(text).slice(0, -TRUNCATION_MARKER.length);
  assert.equal(kept, "😀".repeat(CAP / 4));
  assert.equal(encoder.encode(kept).length, CAP);
});

Deno.test("cutUtf8() returns the longest prefix that fits the byte budget", () => {
  assert.equal(cutUtf8("héllo", 1), "h");
  assert.equal(cutUtf8("héllo", 2), "h");
  assert.equal(cutUtf8("héllo", 3), "hé");
  assert.equal(cutUtf8("😀x", 3), "");
  assert.equal(cutUtf8("😀x", 4), "😀");
  assert.equal(cutUtf8("", 0), "");
});

Deno.test("utf8ByteLength() matches TextEncoder on mixed text", () => {
  const text = "a é € 😀 \u0000 z";
  assert.equal(utf8ByteLength(text), encoder.encode(text).length);
});

Deno.test("utf8ByteLength() counts a lone surrogate as the 3 bytes of U+FFFD", () => {
  assert.equal(utf8ByteLength("\ud800x"), 4);
  assert.equal(cutUtf8("\ud800x", 3), "\ud800");
});
