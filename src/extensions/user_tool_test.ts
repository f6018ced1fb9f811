import assert from "node:assert/strict";
import { ExtensionHost } from "./host.ts";
import type { LoadedTool } from "./load_module.ts";
import { makeContext, makeSandbox } from "../../tests/_testing/extension_fixtures.ts";
import { createUserTool, toToolResult } from "./user_tool.ts";

const sandbox = await makeSandbox();
const context = makeContext(sandbox);

function loaded(execute: string): LoadedTool {
  return {
    kind: "tool",
    name: "probe",
    path: "/home/u/.rienda/tools/probe/index.js",
    source:
      `module.exports = {\n  description: "d",\n  parameters: { type: "object" },\n  execute: ${execute},\n};\n`,
    description: "d",
    parameters: { type: "object" },
  };
}

Deno.test("toToolResult() types returns exactly as the reference says", () => {
  const value = (v: unknown) => toToolResult({ kind: "value", value: { kind: "json", value: v } });
  assert.deepEqual(value("words: 3"), { text: "words: 3", isError: false });
  assert.deepEqual(value({ text: "bad", isError: true }), { text: "bad", isError: true });
  assert.deepEqual(value({ text: "fine" }), { text: "fine", isError: false });
  const expected = "return a string or { text: string, isError?: boolean }";
  assert.deepEqual(value(3), { text: `execute returned a number: ${expected}`, isError: true });
  assert.deepEqual(value(false), {
    text: `execute returned a boolean: ${expected}`,
    isError: true,
  });
  assert.deepEqual(value(["a"]), { text: `execute returned an array: ${expected}`, isError: true });
  assert.deepEqual(value(null), { text: `execute returned null: ${expected}`, isError: true });
  assert.deepEqual(value({ count: 1 }), {
    text: `execute returned an object without a text string: ${expected}`,
    isError: true,
  });
  assert.deepEqual(value({ text: "t", isError: "yes" }), {
    text: `execute returned an object whose isError is not a boolean: ${expected}`,
    isError: true,
  });
  assert.deepEqual(toToolResult({ kind: "value", value: { kind: "undefined" } }), {
    text: `execute returned undefined: ${expected}`,
    isError: true,
  });
});

Deno.test("createUserTool()", async (t) => {
  using host = new ExtensionHost();
  const call = (
    tool: LoadedTool,
    args: Record<string, unknown>,
    output: (text: string) => void = () => {},
  ) =>
    createUserTool(tool, { host, context }).execute(args, {
      callId: "call_1",
      workdir: sandbox.workdir,
      signal: new AbortController().signal,
      output,
    });

  await t.step("execute() gets the arguments and its string is the result", async () => {
    const tool = createUserTool(loaded(`function (ctx, args) { return "hi " + args.name; }`), {
      host,
      context,
    });
    assert.deepEqual([tool.name, tool.description, tool.parameters], ["probe", "d", {
      type: "object",
    }]);
    assert.deepEqual(
      await call(loaded(`function (ctx, args) { return "hi " + args.name; }`), { name: "ann" }),
      {
        text: "hi ann",
        isError: false,
      },
    );
  });

  await t.step("a throw is an error result with the message and the line in index.js", async () => {
    const result = await call(loaded(`function () {\n    throw new Error("no input");\n  }`), {});
    assert.deepEqual(result, { text: "no input (index.js:5)", isError: true });
  });

  await t.step("ctx.log and exec output reach the call's output", async () => {
    const output: string[] = [];
    const tool = loaded(
      `function (ctx) { ctx.log("step 1"); ctx.system.exec("echo from-shell"); return "ok"; }`,
    );
    assert.deepEqual(await call(tool, {}, (text) => output.push(text)), {
      text: "ok",
      isError: false,
    });
    assert.deepEqual(output, ["step 1\n", "from-shell\n"]);
  });

  await t.step("an interrupted call is an error result", async () => {
    const tool = createUserTool(loaded(`function () { while (true) {} }`), { host, context });
    const result = await tool.execute({}, {
      callId: "c",
      workdir: sandbox.workdir,
      signal: AbortSignal.timeout(50),
      output: () => {},
    });
    assert.deepEqual(result, { text: "the tool was interrupted", isError: true });
  });
});
