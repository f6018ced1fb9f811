import assert from "node:assert/strict";
import { validateToolArguments } from "./arguments.ts";

const shellLike = {
  name: "shell",
  parameters: {
    type: "object",
    properties: {
      command: { type: "string" },
      timeout_ms: { type: "integer", minimum: 1 },
      method: { enum: ["GET", "POST"] },
      headers: { type: "object", additionalProperties: { type: "string" } },
      items: { type: "array", items: { type: "number" } },
    },
    required: ["command"],
    additionalProperties: false,
  },
};

async function messageFor(
  raw: unknown,
  tool: Parameters<typeof validateToolArguments>[0] = shellLike,
) {
  const check = await validateToolArguments(tool, raw);
  assert.equal(check.ok, false);
  return check.ok ? "" : check.message;
}

Deno.test("await validateToolArguments() accepts matching arguments and returns them", async () => {
  const args = { command: "ls", "timeout_ms": 5, headers: { a: "b" } };
  assert.deepEqual(await validateToolArguments(shellLike, args), { ok: true, args });
});

Deno.test("await validateToolArguments() names a missing required property", async () => {
  assert.equal(await messageFor({}), 'the tool was not executed: "command" is required');
});

Deno.test("await validateToolArguments() names the expected type and the value found", async () => {
  assert.equal(
    await messageFor({ command: "ls", timeout_ms: "fast" }),
    'the tool was not executed: "timeout_ms" must be integer (found "fast")',
  );
});

Deno.test("await validateToolArguments() names an unexpected property", async () => {
  assert.equal(
    await messageFor({ command: "ls", foo: 1 }),
    'the tool was not executed: unexpected property "foo"',
  );
});

Deno.test("await validateToolArguments() lists every problem, joined by semicolons", async () => {
  assert.equal(
    await messageFor({ foo: 1, timeout_ms: 0 }),
    'the tool was not executed: "command" is required; unexpected property "foo"; ' +
      '"timeout_ms" must be >= 1 (found 0)',
  );
});

Deno.test("await validateToolArguments() lists the allowed values of an enum", async () => {
  assert.equal(
    await messageFor({ command: "x", method: "PUT" }),
    'the tool was not executed: "method" must be one of "GET", "POST" (found "PUT")',
  );
});

Deno.test("await validateToolArguments() writes nested paths with dots and brackets", async () => {
  assert.equal(
    await messageFor({ command: "x", headers: { accept: 1 }, items: [1, "two"] }),
    'the tool was not executed: "headers.accept" must be string (found 1); ' +
      '"items[1]" must be number (found "two")',
  );
});

Deno.test("await validateToolArguments() refuses values that are not a JSON object", async () => {
  for (const raw of [null, [], ["command"], 3, true, undefined, new Date(0)]) {
    assert.equal(
      await messageFor(raw),
      "the tool was not executed: the arguments are not a JSON object",
    );
  }
});

Deno.test("await validateToolArguments() reports argument text that is not valid JSON", async () => {
  const message = await messageFor('{"command": "ls"');
  assert.match(message, /^the tool was not executed: the arguments are not valid JSON: \S/);
  assert.notEqual(message.charAt(message.indexOf("JSON: ") + 6), "U"); // lower-cased
});

Deno.test("await validateToolArguments() checks JSON text that decodes to an object", async () => {
  assert.deepEqual(await validateToolArguments(shellLike, '{"command":"ls"}'), {
    ok: true,
    args: { command: "ls" },
  });
  assert.equal(
    await messageFor("[1]"),
    "the tool was not executed: the arguments are not a JSON object",
  );
});

Deno.test("await validateToolArguments() reports a schema that does not compile, naming the tool", async () => {
  const broken = {
    name: "lint",
    parameters: { type: "object", properties: { a: { type: "strin" } } },
  };
  assert.match(
    await messageFor({}, broken),
    /^the tool was not executed: the "parameters" schema of tool "lint" is invalid: schema is invalid/,
  );
});

Deno.test("await validateToolArguments() tolerates unknown keywords, formats and a 2020-12 $schema", async () => {
  const tool = {
    name: "user",
    parameters: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { url: { type: "string", format: "uri", "x-note": "mine" } },
      required: ["url"],
    },
  };
  assert.equal((await validateToolArguments(tool, { url: "not a url" })).ok, true);
  assert.equal(await messageFor({}, tool), 'the tool was not executed: "url" is required');
});

Deno.test("await validateToolArguments() keeps two schemas with the same $id apart", async () => {
  const tool = { name: "t", parameters: { $id: "same", type: "object", required: ["a"] } };
  const twin = { name: "u", parameters: { $id: "same", type: "object", required: ["b"] } };
  assert.equal(await messageFor({}, tool), 'the tool was not executed: "a" is required');
  assert.equal(await messageFor({}, twin), 'the tool was not executed: "b" is required');
  assert.equal(await messageFor({}, tool), 'the tool was not executed: "a" is required');
});

Deno.test("await validateToolArguments() shortens long found values", async () => {
  const message = await messageFor({ command: "x", timeout_ms: "y".repeat(500) });
  assert.ok(message.length < 200, message);
  assert.match(message, /…\)$/);
});
