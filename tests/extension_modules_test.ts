/**
 * How extension modules are written and called (docs/extensions.md): ES
 * module syntax beside `module.exports`, the load errors that name the fix,
 * and the `default` values of a tool's `parameters` applied before `execute`.
 */

import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { chatMessages, toolResultsOf } from "./harness/wire.ts";

/** A port of an opencode tool: `page` and `per_page` have defaults, `filter` a nested one. */
const PAGED = `module.exports = {
  description: "Lists a page.",
  parameters: {
    type: "object",
    properties: {
      page: { type: "integer", default: 1 },
      per_page: { type: "integer", default: 20 },
      filter: {
        type: "object",
        properties: { state: { type: "string", default: "open" } },
        default: {},
      },
    },
  },
  execute: function (ctx, args) {
    return "page=" + args.page + " per_page=" + args.per_page + " state=" + args.filter.state;
  },
};
`;

Deno.test("the defaults of a tool's parameters are applied before execute, in a run and in tools test", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "paged", arguments: { per_page: 5 } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool("paged", PAGED);
  await env.writeAgent("pager", { description: "Pages.", tools: ["paged"] });
  const result = await env.run(["run", "-a", "pager", "list"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    "page=1 per_page=5 state=open",
  ]);
  // The call the model made is sent back as it made it, without the defaults.
  const call = chatMessages(provider.requests[1]).find((message) => message.role === "assistant");
  assert.ok(JSON.stringify(call).includes(JSON.stringify(JSON.stringify({ per_page: 5 }))));
  const tested = await env.run(["tools", "test", "paged"]);
  assert.equal(tested.code, 0, tested.stderr);
  assert.equal(tested.stdout, "page=1 per_page=20 state=open\n");
});

Deno.test("a tool and a hook written as ES modules load, run and keep their line numbers", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "esm-tool", arguments: { word: "hi" } },
        { name: "esm-tool", arguments: { word: "boom" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "esm-tool",
    `const greeting = await Promise.resolve("hello");
export default {
  description: "Greets.",
  parameters: { type: "object", properties: { word: { type: "string" } } },
  execute(ctx, args) {
    if (args.word === "boom") throw new Error("exploded");
    return greeting + " " + args.word + " in " + ctx.agent.name;
  },
};
`,
  );
  await env.writeHook(
    "esm-hook",
    `export const failClosed = true;
export function afterToolExecute(ctx, call, result) {
  return { text: result.text.toUpperCase() };
}
`,
  );
  await env.writeAgent("modern", {
    description: "Modern.",
    tools: ["esm-tool"],
    hooks: ["esm-hook"],
  });
  const result = await env.run(["run", "-a", "modern", "greet"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    "HELLO HI IN MODERN",
    "EXPLODED (INDEX.JS:6)",
  ]);
  const listed = await env.run(["hooks"]);
  assert.match(listed.stdout, /^esm-hook {2}afterToolExecute {2}fail-closed$/m);
  const tools = await env.run(["tools"]);
  assert.ok(tools.stdout.includes("esm-tool  user      Greets."), tools.stdout);
});

Deno.test("import, require() and module.exports in an ES module fail to load with the fix", async () => {
  await using env = await createTestEnv();
  const cases = [
    {
      source: `import { helper } from "./helper.js";\nexport default {};`,
      problem:
        `ReferenceError: could not load module 'helper.js': an extension cannot import other files or packages (import of "helper.js"): inline the code, or bundle it into one index.js (esbuild --bundle)`,
    },
    {
      source: `const lodash = require("lodash");\nmodule.exports = {};`,
      problem:
        `ReferenceError: 'require' is not defined (index.js:1): an extension cannot require() other files or packages: inline the code, or bundle it into one index.js (esbuild --bundle)`,
    },
    {
      source: `export const description = "x";\nmodule.exports = {};`,
      problem:
        `ReferenceError: 'module' is not defined (index.js:2): an ES module exports with export (export default { … }), not module.exports`,
    },
    {
      source: `export default {\n  description: "x",,\n};`,
      problem: `SyntaxError: invalid property name (index.js:2)`,
    },
  ];
  for (const { source, problem } of cases) {
    await env.writeTool("broken", source);
    const result = await env.run(["tools", "test", "broken"]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(
      result.stderr,
      `rienda: tool "broken": its top-level code failed: ${problem}\n`,
      source,
    );
  }
});
