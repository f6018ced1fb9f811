import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseToolArguments } from "./tool_arguments.ts";

Deno.test("parseToolArguments() returns {} for blank text", () => {
  assertEquals(parseToolArguments(""), { arguments: {} });
  assertEquals(parseToolArguments("  \n"), { arguments: {} });
});

Deno.test("parseToolArguments() returns a JSON object as the arguments", () => {
  assertEquals(parseToolArguments('{"command":"ls","n":[1]}'), {
    arguments: { command: "ls", n: [1] },
  });
});

Deno.test("parseToolArguments() keeps text that is not a JSON object as rawArguments", () => {
  for (const text of ["ls -la", '{"command":', "[1,2]", "42", "null", '"text"']) {
    assertEquals(parseToolArguments(text), { arguments: {}, rawArguments: text }, text);
  }
});
