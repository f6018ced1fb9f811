import assert from "node:assert/strict";
import { createTheme, type Theme } from "./style.ts";
import { createTranscript } from "./transcript.ts";

/** A theme whose bold throws on "boom", standing for any view that fails on some input. */
function throwingTheme(): Theme {
  const theme = createTheme(false);
  return {
    ...theme,
    bold: (text) => {
      if (text.includes("boom")) throw new RangeError("Maximum call stack size exceeded");
      return theme.bold(text);
    },
  };
}

Deno.test("createTranscript() frame() shows a block that cannot be rendered as an error row, and goes on", () => {
  const transcript = createTranscript({ theme: throwingTheme(), expanded: () => false });
  transcript.addUser("boom");
  transcript.addUser("after it");
  const { commit } = transcript.frame(40, 0);
  assert.deepEqual(commit.slice(0, 3), [
    "",
    "✗ this part of the conversation cannot",
    "  be shown: Maximum call stack size",
  ]);
  assert.ok(commit.includes("› \x1b[1mafter it\x1b[22m"), commit.join("\n"));
});
