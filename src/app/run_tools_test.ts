import assert from "node:assert/strict";
import { parseAgentFile } from "../agents/agent_file.ts";
import { textResult, type Tool } from "../tools/tool.ts";
import { callableTools } from "./run_tools.ts";

const shell: Tool = {
  name: "shell",
  description: "Runs a command.",
  parameters: {
    type: "object",
    properties: { command: { type: "string" } },
    required: ["command"],
  },
  execute: (args) => Promise.resolve(textResult(`ran ${String(args["command"])}`)),
};

const context = {
  callId: "c1",
  workdir: "/w",
  signal: new AbortController().signal,
  output: () => {},
};

Deno.test("callableTools() checks arguments and applies the agent's permission rules", async () => {
  const agent = parseAgentFile(
    '---\ndescription: d\ntools: [shell]\npermission:\n  bash:\n    "*": allow\n    "rm *": deny\n---\nBody.\n',
    "/a/x.md",
    "x",
  );
  const [tool] = callableTools([shell], agent, { autoApprove: false });
  assert.equal(tool?.name, "shell");
  const bad = await tool!.check({ command: 1 });
  assert.equal(bad.ok, false);
  assert.deepEqual(await tool!.run({ command: "ls" }, context), { text: "ran ls", isError: false });
  const refused = await tool!.run({ command: "rm -rf /" }, context);
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^refused shell/);
});
