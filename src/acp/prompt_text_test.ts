import assert from "node:assert/strict";
import { PromptContentError, promptText } from "./prompt_text.ts";

Deno.test("promptText() joins text, resource links and embedded text resources", () => {
  assert.equal(
    promptText([
      { type: "text", text: "look at" },
      { type: "resource_link", uri: "file:///w/a&b.ts", name: 'a"b' },
      { type: "resource", resource: { uri: "file:///w/c.ts", text: "c" } },
    ]),
    'look at\n\n<resource_link uri="file:///w/a&amp;b.ts" name="a&quot;b" />\n\n' +
      '<resource uri="file:///w/c.ts">\nc\n</resource>',
  );
});

Deno.test("promptText() refuses images and binary resources with a message naming them", () => {
  assert.throws(
    () => promptText([{ type: "image", data: "", mimeType: "image/png" }]),
    PromptContentError,
  );
  assert.throws(
    () => promptText([{ type: "resource", resource: { uri: "file:///w/x.bin", blob: "AA==" } }]),
    /x\.bin is binary/,
  );
});
