import assert from "node:assert/strict";
import { join } from "node:path";
import type { Tool } from "../tools/tool.ts";
import { ExtensionHost } from "./host.ts";
import {
  ExtensionLoadError,
  loadAgentExtensions,
  loadExtensionCatalog,
  loadHookByName,
  loadToolByName,
} from "./load_extensions.ts";
import { makeContext, makeSandbox } from "../../tests/_testing/extension_fixtures.ts";

const sandbox = await makeSandbox();
const toolsDir = join(sandbox.home, "tools");
const hooksDir = join(sandbox.home, "hooks");
const signal = new AbortController().signal;

async function extension(dir: string, name: string, source: string): Promise<void> {
  await Deno.mkdir(join(dir, name), { recursive: true });
  await Deno.writeTextFile(join(dir, name, "index.js"), source);
}

function builtin(name: string): Tool {
  return {
    name,
    description: `built-in ${name}`,
    parameters: { type: "object" },
    execute: () => Promise.resolve({ text: name, isError: false }),
  };
}

const good = `module.exports = {
  description: "Counts words.",
  parameters: { type: "object", properties: { path: { type: "string" } } },
  execute: function (ctx, args) { return "counted"; },
  helper: 1,
};`;
await extension(toolsDir, "word-count", good);
await extension(toolsDir, "shell", good.replace("Counts words.", "My shell."));
await extension(
  toolsDir,
  "no-execute",
  `module.exports = { description: "x", parameters: { type: "object" } };`,
);
await extension(
  toolsDir,
  "all-wrong",
  `module.exports = { description: "  ", parameters: [], execute: "run" };`,
);
await extension(
  toolsDir,
  "not-object-schema",
  `module.exports = { description: "x", parameters: { type: "string" }, execute() {} };`,
);
await extension(toolsDir, "throws", `const x = 1;\nthrow new Error("top-level failure");`);
await extension(toolsDir, "syntax", `module.exports = {\n  description: "x",,\n};`);
await extension(toolsDir, "loops", `while (true) {}`);
await extension(toolsDir, "exports-string", `module.exports = "tool";`);
await extension(
  hooksDir,
  "guard",
  `module.exports = { beforeToolExecute: function () {}, afterRun: function () {} };`,
);
await extension(
  hooksDir,
  "typo",
  `module.exports = { beforeToolExecution: function () {}, afterRun: function () {} };`,
);
await extension(hooksDir, "empty", `module.exports = {};`);
await extension(hooksDir, "bad-point", `module.exports = { beforeRun: "yes" };`);

Deno.test("loadExtensionCatalog() checks every tool and hook and reports broken ones", async () => {
  using host = new ExtensionHost();
  const catalog = await loadExtensionCatalog({
    host,
    toolsDir,
    hooksDir,
    builtinToolNames: ["http", "shell"],
    signal,
  });
  assert.deepEqual(catalog.tools.map((tool) => [tool.name, tool.description]), [
    ["shell", "My shell."],
    ["word-count", "Counts words."],
  ]);
  assert.deepEqual(catalog.tools[1]?.parameters, {
    type: "object",
    properties: { path: { type: "string" } },
  });
  assert.deepEqual(catalog.hooks.map((hook) => [hook.name, hook.points]), [
    ["guard", ["afterRun", "beforeToolExecute"]],
    ["typo", ["afterRun"]],
  ]);
  assert.deepEqual(catalog.diagnostics, [
    'tool "all-wrong": "description" is blank; "parameters" must be a JSON Schema object (found an array); "execute" must be a function (found a string)',
    'tool "exports-string": module.exports must be an object (found a string)',
    'tool "loops": its top-level code did not finish within 2 s',
    'tool "no-execute": missing "execute" (a function)',
    'tool "not-object-schema": "parameters" must be an object schema ("type": "object")',
    'tool "shell": replaces the built-in tool of the same name',
    'tool "syntax": its top-level code failed: SyntaxError: invalid property name (index.js:2)',
    'tool "throws": its top-level code failed: top-level failure (index.js:2)',
    'hook "bad-point": "beforeRun" must be a function (found a string)',
    'hook "empty": exports no hook point (expected at least one of: beforeRun, beforePrompt, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute, afterToolExecute)',
    'hook "typo": unknown point "beforeToolExecution" ignored (known: beforeRun, beforePrompt, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute, afterToolExecute)',
  ]);
  assert.deepEqual(
    catalog.problems,
    catalog.diagnostics.filter((line) =>
      !line.includes("replaces the built-in") && !line.includes("unknown point")
    ),
  );
});

Deno.test("loadAgentExtensions()", async (t) => {
  using host = new ExtensionHost();
  const base = {
    host,
    toolsDir,
    hooksDir,
    builtinToolNames: ["http", "shell"],
    builtins: [builtin("http"), builtin("shell")],
    agentPath: "/h/agents/coder.md",
    context: makeContext(sandbox),
    signal,
  };

  await t.step("an agent with only built-ins starts no engine", async () => {
    const loaded = await loadAgentExtensions({ ...base, tools: ["http"], hooks: [] });
    assert.deepEqual(loaded.tools.map((tool) => tool.description), ["built-in http"]);
    assert.equal(loaded.hooks.size, 0);
    assert.equal(host.workerCount, 0);
  });

  await t.step("a user tool replaces the built-in of its name, with a diagnostic", async () => {
    const loaded = await loadAgentExtensions({
      ...base,
      tools: ["shell", "http", "word-count"],
      hooks: ["guard"],
    });
    assert.deepEqual(loaded.tools.map((tool) => tool.description), [
      "My shell.",
      "built-in http",
      "Counts words.",
    ]);
    assert.ok(
      loaded.diagnostics.includes('tool "shell": replaces the built-in tool of the same name'),
    );
    assert.deepEqual(loaded.diagnostics, [
      'tool "shell": replaces the built-in tool of the same name',
    ], "undeclared tools are neither loaded nor reported");
    assert.equal(loaded.hooks.get("guard")?.points.includes("beforeToolExecute"), true);
    const result = await loaded.tools[2]?.execute({}, {
      callId: "c",
      workdir: sandbox.workdir,
      signal,
      output: () => {},
    });
    assert.deepEqual(result, { text: "counted", isError: false });
  });

  await t.step("a declared broken tool fails before any request", async () => {
    await assert.rejects(
      loadAgentExtensions({ ...base, tools: ["no-execute"], hooks: [] }),
      new ExtensionLoadError(
        '/h/agents/coder.md: tools: tool "no-execute": missing "execute" (a function)',
      ),
    );
  });

  await t.step("a declared unknown tool or hook fails with the available names", async () => {
    await assert.rejects(
      loadAgentExtensions({ ...base, tools: ["word-count", "grpe"], hooks: [] }),
      new ExtensionLoadError(
        '/h/agents/coder.md: tools: unknown tool "grpe" (available: all-wrong, exports-string, http, loops, no-execute, not-object-schema, shell, syntax, throws, word-count)',
      ),
    );
    await assert.rejects(
      loadAgentExtensions({ ...base, tools: ["grpe"], hooks: [] }),
      new ExtensionLoadError(
        '/h/agents/coder.md: tools: unknown tool "grpe" (available: all-wrong, exports-string, http, loops, no-execute, not-object-schema, shell, syntax, throws, word-count)',
      ),
    );
    await assert.rejects(
      loadAgentExtensions({ ...base, tools: [], hooks: ["audit"] }),
      new ExtensionLoadError(
        '/h/agents/coder.md: hooks: unknown hook "audit" (available: bad-point, empty, guard, typo)',
      ),
    );
  });

  await t.step("a declared tool whose folder lacks index.js fails with that problem", async () => {
    await Deno.mkdir(join(toolsDir, "empty-dir"), { recursive: true });
    try {
      await assert.rejects(
        loadAgentExtensions({ ...base, tools: ["empty-dir"], hooks: [] }),
        new ExtensionLoadError('/h/agents/coder.md: tools: tool "empty-dir": index.js is missing'),
      );
    } finally {
      await Deno.remove(join(toolsDir, "empty-dir"));
    }
  });

  await t.step("a declared broken hook fails before any request", async () => {
    await assert.rejects(
      loadAgentExtensions({ ...base, tools: [], hooks: ["bad-point"] }),
      new ExtensionLoadError(
        '/h/agents/coder.md: hooks: hook "bad-point": "beforeRun" must be a function (found a string)',
      ),
    );
  });
});

Deno.test("loadExtensionCatalog() limited to tools leaves the hooks alone", async () => {
  using host = new ExtensionHost();
  const dirs = { host, toolsDir, hooksDir, builtinToolNames: ["http", "shell"], signal };
  const catalog = await loadExtensionCatalog(dirs, ["tool"]);
  assert.equal(catalog.tools.length, 2);
  assert.deepEqual(catalog.hooks, []);
  assert.ok(
    catalog.diagnostics.every((line) => line.startsWith("tool ")),
    catalog.diagnostics.join("\n"),
  );
  const hooks = await loadExtensionCatalog(dirs, ["hook"]);
  assert.deepEqual([hooks.tools.length, hooks.hooks.length, hooks.diagnostics.length], [0, 2, 3]);
});

Deno.test("loadToolByName() and loadHookByName() load one extension or say why not", async () => {
  using host = new ExtensionHost();
  const dirs = { host, toolsDir, hooksDir, builtinToolNames: ["http", "shell"], signal };
  const builtins = [builtin("http"), builtin("shell")];
  const context = makeContext(sandbox);
  assert.equal(
    (await loadToolByName({ ...dirs, name: "word-count", builtins, context })).description,
    "Counts words.",
  );
  assert.equal(
    (await loadToolByName({ ...dirs, name: "http", builtins, context })).description,
    "built-in http",
  );
  assert.equal(
    (await loadToolByName({ ...dirs, name: "shell", builtins, context })).description,
    "My shell.",
  );
  await assert.rejects(
    loadToolByName({ ...dirs, name: "no-execute", builtins, context }),
    new ExtensionLoadError('tool "no-execute": missing "execute" (a function)'),
  );
  await assert.rejects(
    loadToolByName({ ...dirs, name: "nope", builtins, context }),
    /^ExtensionLoadError: unknown tool "nope" \(available: all-wrong, .*word-count\)$/,
  );
  const { hook, warnings } = await loadHookByName({ ...dirs, name: "typo" });
  assert.deepEqual([hook.name, hook.points, warnings.length], ["typo", ["afterRun"], 1]);
  await assert.rejects(
    loadHookByName({ ...dirs, name: "missing" }),
    new ExtensionLoadError('unknown hook "missing" (available: bad-point, empty, guard, typo)'),
  );
});

Deno.test("loadAgentExtensions() with remembered exports starts no engine before the first call", async () => {
  const cacheDir = join(sandbox.root, "exports-cache");
  const request = (host: ExtensionHost) => ({
    host,
    toolsDir,
    hooksDir,
    builtinToolNames: [],
    exportsCacheDir: cacheDir,
    signal,
    agentPath: "/agents/a.md",
    tools: ["word-count"],
    hooks: [],
    builtins: [],
    context: makeContext(sandbox),
  });
  {
    using host = new ExtensionHost();
    await loadAgentExtensions(request(host));
    assert.equal(host.workerCount, 1, "the first load reads the exports with the engine");
  }
  using host = new ExtensionHost();
  const { tools } = await loadAgentExtensions(request(host));
  assert.equal(host.workerCount, 0);
  assert.equal(tools[0]?.description, "Counts words.");
  const result = await tools[0]?.execute({}, {
    callId: "c",
    workdir: sandbox.workdir,
    signal,
    output: () => {},
  });
  assert.deepEqual(result, { text: "counted", isError: false });
  assert.equal(host.workerCount, 1);
});
