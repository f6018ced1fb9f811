import assert from "node:assert/strict";
import {
  assertNothingSent,
  checkSession,
  lastLine,
  linesOf,
  sessionIdOf,
} from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { chatMessages, systemPromptOf, toolResultsOf } from "./harness/wire.ts";

/** The guard hook of the hooks reference page, verbatim. */
const GUARD = `module.exports = {
  beforeToolExecute: function(ctx, call) {
    if (
      call.name === "shell" &&
      /\\brm\\s+-rf\\b/.test(call.arguments.command || "")
    ) {
      if (
        !ctx.confirm({
          title: "Dangerous command",
          body: call.arguments.command,
        })
      ) {
        return { allow: false, reason: "refused by the user" };
      }
    }
  },
  afterRun: function(ctx, event) {
    ctx.notify({ title: "rienda", body: "run finished: " + event.reason });
  },
};
`;

/** An audit hook: appends each run's end reason to audit.log in the workspace. */
const AUDIT = `module.exports = {
  afterRun: function(ctx, event) {
    ctx.file.write("audit.log", event.reason + "\\n", { append: true });
  },
};
`;

/** A hook with one point: `<point>: function (ctx, a, b) { <body> }`. */
function hookSource(point: string, body: string): string {
  return `module.exports = {\n  ${point}: function (ctx, a, b) {\n${body}\n  },\n};\n`;
}

for (const autoApprove of [false, true]) {
  Deno.test(`the guard hook ${autoApprove ? "lets rm -rf run with -y" : "refuses rm -rf without a person"}`, async () => {
    await using provider = await startFakeProvider([
      {
        toolCalls: [
          { name: "shell", arguments: { command: "echo safe" } },
          { name: "shell", arguments: { command: "rm -rf build" } },
        ],
      },
      { text: "done" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeHook("guard", GUARD);
    await env.writeAgent("careful", {
      description: "Careful.",
      tools: ["shell"],
      hooks: ["guard"],
    });
    await Deno.mkdir(`${env.workdir}/build`);
    const result = await env.run([
      "run",
      "-a",
      "careful",
      ...(autoApprove ? ["-y"] : []),
      "clean up",
    ]);
    assert.equal(result.code, 0, result.stderr);
    const contents = toolResultsOf(provider.requests[1]).map((item) => item.content);
    const buildExists = await Deno.stat(`${env.workdir}/build`).then(() => true, () => false);
    if (autoApprove) {
      assert.deepEqual(contents, ["safe", "(no output)"]);
      assert.equal(buildExists, false);
    } else {
      // The refusal names the hook, for the model and on stderr.
      assert.deepEqual(contents, ["safe", 'hook "guard" refused the call: refused by the user']);
      assert.equal(buildExists, true);
      assert.ok(
        result.stderr.includes('tool failed: hook "guard" refused the call: refused by the user\n'),
        result.stderr,
      );
    }
    // docs/extensions.md: ctx.notify without a UI shows nothing.
    assert.ok(!result.stderr.includes("run finished"), result.stderr);
  });
}

Deno.test("an audit hook sees every end reason in afterRun", async () => {
  await using provider = await startFakeProvider([
    { text: "fine" },
    { status: 400, errorMessage: "bad request" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("audit", AUDIT);
  await env.writeAgent("audited", { description: "Audited.", hooks: ["audit"] });
  const ok = await env.run(["run", "-a", "audited", "one"]);
  assert.equal(ok.code, 0, ok.stderr);
  const failed = await env.run(["run", "-a", "audited", "two"]);
  assert.equal(failed.code, 1, failed.stderr);
  assert.equal(await Deno.readTextFile(`${env.workdir}/audit.log`), "end_turn\nerror\n");
});

Deno.test("beforeModelRequest injects the date into every request's system prompt, never stored", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo hi" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "date",
    `module.exports = {
  beforeModelRequest: function (ctx, request) {
    const today = new Date().toISOString().slice(0, 10);
    return { system: request.system + "\\n\\nToday is " + today + "." };
  },
};
`,
  );
  await env.writeAgent("dated", { description: "Dated.", tools: ["shell"], hooks: ["date"] });
  const before = new Date().toISOString().slice(0, 10);
  const result = await env.run(["run", "-a", "dated", "what day is it?"]);
  const after = new Date().toISOString().slice(0, 10);
  assert.equal(result.code, 0, result.stderr);
  for (const request of provider.requests) {
    const system = systemPromptOf(request);
    const match = /^You answer briefly\.\n\nToday is (\d{4}-\d{2}-\d{2})\.$/.exec(system);
    assert.ok(match, system);
    assert.ok(match[1] === before || match[1] === after, system);
  }
  assert.equal(provider.requests.length, 2);
  const [file] = await env.sessionFiles();
  assert.ok(!(await Deno.readTextFile(file ?? "")).includes("Today is"), "the system was stored");
});

Deno.test("afterModelResponse redacts the answer before it is printed and stored", async () => {
  await using provider = await startFakeProvider([
    { text: "your card 1234567812345678 is on file", chunks: 4 },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "redact",
    hookSource(
      "afterModelResponse",
      `    return { text: a.text.replace(/\\b\\d{16}\\b/g, "[redacted]") };`,
    ),
  );
  await env.writeAgent("discreet", { description: "Discreet.", hooks: ["redact"] });
  const result = await env.run(["run", "-a", "discreet", "my card?"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "your card [redacted] is on file\n");
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.deepEqual(at(session.entries[1], "blocks"), [
    { type: "text", text: "your card [redacted] is on file" },
  ]);
  assert.ok(!result.stderr.includes("1234567812345678"), result.stderr);
});

Deno.test("beforeToolExecute rewrites http:// to https:// (the reference example)", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "http", arguments: { url: "http://example.test/page" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  // A user "http" tool that only echoes the URL it received (no network in tests).
  await env.writeTool(
    "http",
    `module.exports = {
  description: "Echoes the URL.",
  parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  execute: function (ctx, args) { return "fetched " + args.url; },
};
`,
  );
  await env.writeHook(
    "https",
    `module.exports = {
  beforeToolExecute: function (ctx, call) {
    if (call.name !== "http") return;
    return { arguments: { ...call.arguments, url: call.arguments.url.replace("http://", "https://") } };
  },
};
`,
  );
  await env.writeAgent("web", { description: "Web.", tools: ["http"], hooks: ["https"] });
  const result = await env.run(["run", "-a", "web", "fetch"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "fetched https://example.test/page" },
  ]);
});

Deno.test("afterToolExecute upper-cases the result the model reads (the reference example)", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo quiet words" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "upper",
    `module.exports = {
  afterToolExecute: function (ctx, call, result) {
    return { text: result.text.toUpperCase() };
  },
};
`,
  );
  await env.writeAgent("loud", { description: "Loud.", tools: ["shell"], hooks: ["upper"] });
  const result = await env.run(["run", "-a", "loud", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [{ id: "call_1", content: "QUIET WORDS" }]);
});

Deno.test("hooks chain in the agent's order, each seeing the previous output", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "echo out" } },
        { name: "missing", arguments: {} },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  for (const name of ["one", "two", "three"]) {
    await env.writeHook(
      name,
      `module.exports = {
  beforeModelRequest: function (ctx, r) { return { system: r.system + " ${name}" }; },
  beforeToolExecute: function (ctx, call) {
    if (call.name !== "shell") return null;
    return { arguments: { command: call.arguments.command + " ${name}" } };
  },
  afterToolExecute: function (ctx, call, result) {
    return { text: result.text + " ${name}", isError: ${name === "two" ? "undefined" : "null"} };
  },
};
`,
    );
  }
  await env.writeAgent("chained", {
    description: "Chained.",
    tools: ["shell"],
    hooks: ["two", "one", "three"],
  });
  const result = await env.run(["run", "-a", "chained", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(systemPromptOf(provider.requests[0]), "You answer briefly. two one three");
  assert.equal(systemPromptOf(provider.requests[1]), "You answer briefly. two one three");
  assert.ok(result.stderr.includes('tool: shell {"command":"echo out"}\n'), result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    // the tool ran with the arguments of the whole chain, then each hook appended to its result
    { id: "call_1", content: "out two one three two one three" },
    { id: "call_2", content: 'unknown tool "missing" (available: shell) two one three' },
  ]);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.equal(at(session.entries[3], "blocks", 1, "toolResultIsError"), true);
});

Deno.test("a refusal ends the beforeToolExecute chain and afterToolExecute still sees it", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: "touch first" } },
        { name: "shell", arguments: { command: "touch second" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "gate",
    hookSource(
      "beforeToolExecute",
      `    return a.arguments.command === "touch first" ? { allow: false, reason: "not this one" } : { allow: false };`,
    ),
  );
  await env.writeHook(
    "later",
    `module.exports = {
  beforeToolExecute: function (ctx) { ctx.file.write("later-consulted", "yes"); },
  afterToolExecute: function (ctx, call, result) {
    return { text: "after: " + result.text + " (" + result.isError + ")" };
  },
};
`,
  );
  await env.writeAgent("gated", {
    description: "Gated.",
    tools: ["shell"],
    hooks: ["gate", "later"],
  });
  const result = await env.run(["run", "-a", "gated", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: 'after: hook "gate" refused the call: not this one (true)' },
    { id: "call_2", content: 'after: hook "gate" refused the call (true)' },
  ]);
  for (const name of ["first", "second", "later-consulted"]) {
    await assert.rejects(Deno.stat(`${env.workdir}/${name}`), Deno.errors.NotFound, name);
  }
});

Deno.test("beforeToolExecute may repair arguments that were not valid JSON", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", rawArguments: '{"command": "echo fix' }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "repair",
    hookSource(
      "beforeToolExecute",
      `    if (typeof a.arguments === "string") return { arguments: JSON.parse(a.arguments + '"}') };`,
    ),
  );
  await env.writeAgent("repaired", {
    description: "Repaired.",
    tools: ["shell"],
    hooks: ["repair"],
  });
  const result = await env.run(["run", "-a", "repaired", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [{ id: "call_1", content: "fix" }]);
});

Deno.test("throws, bad returns, ctx.log and exec output of hooks are notices; the run goes on", async () => {
  await using provider = await startFakeProvider([{ text: "still fine" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "noisy",
    `module.exports = {
  beforeRun: function (ctx) {
    throw new Error("kaboom");
  },
  beforeModelRequest: function (ctx) {
    ctx.log("thinking about it");
    ctx.system.exec("echo from exec; echo second line");
    return 42;
  },
  afterModelResponse: function (ctx) { return { text: 7 }; },
  afterRun: function (ctx) { undefinedFunction(); },
};
`,
  );
  await env.writeAgent("noisy", { description: "Noisy.", hooks: ["noisy"] });
  const result = await env.run(["run", "-a", "noisy", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "still fine\n");
  const id = sessionIdOf(result.stderr);
  assert.deepEqual(linesOf(result.stderr), [
    `session: ${id}`,
    'hook "noisy": beforeRun: kaboom (index.js:3)',
    'hook "noisy": thinking about it',
    'hook "noisy": from exec',
    'hook "noisy": second line',
    'hook "noisy": beforeModelRequest: must return an object or nothing (returned a number)',
    'hook "noisy": afterModelResponse: "text" must be a string (found a number), ignored',
    `hook "noisy": afterRun: ReferenceError: 'undefinedFunction' is not defined (index.js:11)`,
  ]);
});

Deno.test("declaring a broken or unknown hook fails before any request; undeclared ones do not matter", async (t) => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("audit", AUDIT);
  await env.writeHook("bad-point", `module.exports = { beforeRun: "yes" };`);
  await env.writeHook("throws", `throw new Error("at load");`);
  const cases = [
    ["bad-point", 'hook "bad-point": "beforeRun" must be a function (found a string)'],
    ["throws", 'hook "throws": its top-level code failed: at load (index.js:1)'],
    ["nope", 'unknown hook "nope" (available: audit, bad-point, throws)'],
  ] as const;
  for (const [name, problem] of cases) {
    await t.step(name, async () => {
      const agentPath = await env.writeAgent("broken", {
        description: "Broken.",
        hooks: ["audit", name],
      });
      const result = await env.run(["run", "-a", "broken", "go"]);
      assert.equal(result.code, 1, result.stderr);
      // An unknown name is reported at its line of the agent file.
      const where = name === "nope" ? `${agentPath}:3` : agentPath;
      assert.equal(lastLine(result.stderr), `rienda: ${where}: hooks: ${problem}`);
      await assertNothingSent(provider, env, result.stderr);
    });
  }
  await t.step("undeclared", async () => {
    await env.writeAgent("fine", { description: "Fine.", hooks: ["audit"] });
    const result = await env.run(["run", "-a", "fine", "go"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(linesOf(result.stderr).slice(1), []);
    assert.equal(await Deno.readTextFile(`${env.workdir}/audit.log`), "end_turn\n");
    assert.deepEqual(chatMessages(provider.requests[0]).map((message) => message.role), [
      "system",
      "user",
    ]);
  });
});

Deno.test("every point receives the payload of the reference, as fresh copies", async () => {
  await using provider = await startFakeProvider([
    {
      text: "Looking.",
      thinking: "hmm",
      toolCalls: [{ id: "call_a", name: "shell", arguments: { command: "echo seen" } }],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const points = [
    "beforeRun",
    "beforeModelRequest",
    "afterModelResponse",
    "beforeToolExecute",
    "afterToolExecute",
    "afterRun",
  ];
  await env.writeHook(
    "recorder",
    `function record(ctx, point, args) {
  ctx.file.write("payloads.jsonl", JSON.stringify([point].concat(args)) + "\\n", { append: true });
  // Mutating a payload without returning it changes nothing (docs/extensions.md).
  if (args[0] && typeof args[0] === "object") args[0].text = "mutated";
}
module.exports = {
${
      points.map((point) =>
        `  ${point}: function (ctx, a, b) { record(ctx, "${point}", [a, b]); },`
      ).join("\n")
    }
};
`,
  );
  await env.writeAgent("recorded", {
    description: "Recorded.",
    tools: ["shell"],
    hooks: ["recorder"],
  });
  const result = await env.run(["run", "-a", "recorded", "look"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Looking.\n\ndone\n");
  const id = sessionIdOf(result.stderr);
  const lines = (await Deno.readTextFile(`${env.workdir}/payloads.jsonl`)).trim().split("\n")
    .map((line) => JSON.parse(line));
  const call = { id: "call_a", name: "shell", arguments: { command: "echo seen" } };
  const system = "You answer briefly.";
  assert.deepEqual(lines, [
    ["beforeRun", { sessionId: id, agentId: "recorded", modelId: "fake/m" }, null],
    [
      "beforeModelRequest",
      { system, model: "fake/m", messages: [{ role: "user", text: "look" }] },
      null,
    ],
    ["afterModelResponse", { text: "Looking.", thinking: "hmm", toolCalls: [call] }, null],
    ["beforeToolExecute", call, null],
    ["afterToolExecute", call, { text: "seen", isError: false }],
    [
      "beforeModelRequest",
      {
        system,
        model: "fake/m",
        messages: [
          { role: "user", text: "look" },
          { role: "assistant", text: "Looking." },
          // The results message: its text is the engine's projection (not pinned here).
          { role: "user", text: lines[5]?.[1]?.messages?.[2]?.text },
        ],
      },
      null,
    ],
    ["afterModelResponse", { text: "done", thinking: "", toolCalls: [] }, null],
    ["afterRun", { reason: "end_turn" }, null],
  ]);
});

Deno.test("with --output stream-json, hook notices are notice events and diagnostics are in run_start", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "chatty",
    `module.exports = {
  beforeRun: function (ctx) { ctx.log("starting"); },
  beforeToolExecution: function () {},
};
`,
  );
  await env.writeAgent("chatty", { description: "Chatty.", hooks: ["chatty"] });
  const result = await env.run(["run", "-a", "chatty", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const events = linesOf(result.stdout).map((line) => JSON.parse(line));
  const start = events.find((event) => event.type === "run_start");
  assert.deepEqual(start?.diagnostics, [
    'hook "chatty": unknown point "beforeToolExecution" ignored (known: beforeRun, beforePrompt, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute, afterToolExecute)',
  ]);
  assert.deepEqual(events.filter((event) => event.type === "notice"), [
    { type: "notice", text: 'hook "chatty": starting' },
  ]);
  assert.ok(
    events.findIndex((event) => event.type === "notice") > events.indexOf(start),
    "the notice follows run_start",
  );
});
