import { strictEqual } from "node:assert/strict";
import { MAX_SUMMARY, summary } from "./columns.ts";

Deno.test("summary() is the first line, its first sentence when it runs on, cut to a width", () => {
  strictEqual(summary("Reads a file.\n\nMore details."), "Reads a file.");
  strictEqual(
    summary("Read the complete contents of a file. Handles various encodings. Use it often."),
    "Read the complete contents of a file.",
  );
  strictEqual(summary("Counts words, e.g. in notes.txt"), "Counts words, e.g. in notes.txt");
  strictEqual(summary("Version 1.2 of the tool"), "Version 1.2 of the tool");
  strictEqual(summary("  "), "");
  const long = summary("word ".repeat(50));
  strictEqual(long.length, MAX_SUMMARY);
  strictEqual(long.endsWith("…"), true);
});
