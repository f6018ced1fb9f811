import assert from "node:assert/strict";
import { countFileLines, countTextLines, cutLine, looksBinary } from "./text_file.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("looksBinary() sees NUL bytes and mostly invalid UTF-8, not legacy text", () => {
  assert.equal(looksBinary(bytes("plain text\n")), false);
  assert.equal(looksBinary(bytes("a\0b")), true);
  assert.equal(looksBinary(new Uint8Array([0xff, 0xfe, 0xfd, 0x80, 0x81])), true);
  assert.equal(looksBinary(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])), false, "Latin-1 café");
  // A character cut by the end of the sample is not invalid.
  const euro = bytes("€".repeat(3000)).subarray(0, 8191);
  assert.equal(looksBinary(euro), false);
});

Deno.test("countFileLines() and countTextLines() count a last line without a line feed", async () => {
  const path = await Deno.makeTempFile();
  const signal = new AbortController().signal;
  try {
    for (
      const [text, lines] of [["", 0], ["a", 1], ["a\n", 1], ["a\nb", 2], ["\n\n", 2]] as const
    ) {
      await Deno.writeTextFile(path, text);
      assert.equal(await countFileLines(path, signal), lines, JSON.stringify(text));
      assert.equal(countTextLines(text), lines, JSON.stringify(text));
    }
    await Deno.remove(path);
    assert.equal(await countFileLines(path, signal), null, "no file");
  } finally {
    await Deno.remove(path).catch(() => {});
  }
});

Deno.test("cutLine() cuts with a mark that says how long the line was", () => {
  assert.equal(cutLine("short", 10), "short");
  assert.equal(cutLine("abcdef", 3), "abc… [line cut at 3 of 6 characters]");
});
