import { deepStrictEqual } from "node:assert/strict";
import { NO_OUTPUT, toToolResult } from "./content.ts";

Deno.test("toToolResult() joins text parts and keeps isError", () => {
  deepStrictEqual(
    toToolResult({
      content: [{ type: "text", text: "one" }, { type: "text", text: "two" }],
      isError: true,
    }),
    { text: "one\ntwo", isError: true },
  );
  deepStrictEqual(toToolResult({ content: [{ type: "text", text: "ok" }] }), {
    text: "ok",
    isError: false,
  });
});

Deno.test("toToolResult() summarises images, audio, links and binary resources", () => {
  const { text } = toToolResult({
    content: [
      { type: "image", mimeType: "image/png", data: "aGVsbG8=" },
      { type: "audio", mimeType: "audio/wav", data: "AAAA" },
      { type: "resource_link", name: "README", uri: "file:///r/README.md" },
      { type: "resource", resource: { uri: "file:///r/a.txt", text: "inline text" } },
      { type: "resource", resource: { uri: "file:///r/b.bin", blob: "AAAAAAAA" } },
    ],
  });
  deepStrictEqual(text.split("\n"), [
    "[image: image/png, 5 bytes]",
    "[audio: audio/wav, 3 bytes]",
    "[resource link: README <file:///r/README.md>]",
    "[resource: <file:///r/a.txt>]",
    "inline text",
    "[resource: <file:///r/b.bin>, application/octet-stream, 6 bytes]",
  ]);
});

Deno.test("toToolResult() reads structured content as JSON, and nothing as (no output)", () => {
  deepStrictEqual(toToolResult({ content: [], structuredContent: { temperature: 21 } }), {
    text: '{"temperature":21}',
    isError: false,
  });
  deepStrictEqual(toToolResult({ content: [] }), { text: NO_OUTPUT, isError: false });
});
