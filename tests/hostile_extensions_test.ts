/**
 * Promises of extensions kept under attack: ways a buggy agent file, a
 * hostile model or a hostile extension could make a guard fail open or
 * leave a grant, each one pinned after it was found.
 */

import assert from "node:assert/strict";
import { lastLine } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { descendantRunning } from "./harness/processes.ts";
import { RIENDA_ENTRY } from "./harness/rienda.ts";
import { toolResultsOf } from "./harness/wire.ts";
import { ran, THROWING_GUARD, touchScript } from "./harness/guard_run.ts";

Deno.test("a guard listed again with fail_closed: true is an error, never a guard that fails open", async () => {
  await using provider = await startFakeProvider(touchScript());
  await using env = await createTestEnv({ provider });
  await env.writeHook("guard", THROWING_GUARD);
  const agent = await env.writeAgent("guarded", {
    description: "Guarded.",
    tools: ["shell"],
    hooks: ["guard", { name: "guard", fail_closed: true }],
  });
  const result = await env.run(["run", "-a", "guarded", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(await ran(env), false, "the tool ran past a guard the agent says fails closed");
  assert.equal(provider.requests.length, 0);
  assert.match(
    lastLine(result.stderr),
    new RegExp(
      `^rienda: ${agent}:\\d+: hooks\\[1\\]: hook "guard" is listed again with other settings ` +
        `\\(fail_closed: true; first: none\\): list it once`,
    ),
  );
});

Deno.test("a hook listed twice with the same settings collapses to one invocation", async () => {
  await using provider = await startFakeProvider(touchScript());
  await using env = await createTestEnv({ provider });
  await env.writeHook("guard", THROWING_GUARD);
  await env.writeAgent("guarded", {
    description: "Guarded.",
    tools: ["shell"],
    hooks: [{ name: "guard", fail_closed: true }, { name: "guard", fail_closed: true }],
  });
  const result = await env.run(["run", "-a", "guarded", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await ran(env), false);
  assert.equal(result.stderr.split(`hook "guard" failed closed`).length - 1, 1, result.stderr);
});

Deno.test("ctx.config hands over keys masked: an extension that reaches nothing cannot read one", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "peek", arguments: {} }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const key = "sk-live-ABCDEFGHIJKLMNOP1234";
  const header = "Bearer other-SECRET-value-5678";
  await env.writeConfig(
    defaultConfig(provider.url).replace("api_key: test-key", `api_key: ${key}`) +
      [
        "  other:",
        "    protocol: openai_chat_completions",
        "    base_url: http://127.0.0.1:9/v1",
        "    headers:",
        `      Authorization: ${header}`,
        "",
      ].join("\n"),
  );
  await env.writeTool(
    "peek",
    `module.exports = {
  description: "Shows the providers.",
  parameters: { type: "object" },
  capabilities: {},
  execute: function (ctx) { return JSON.stringify(ctx.config.providers); },
};
`,
  );
  await env.writeAgent("peeking", { description: "Peeks.", tools: ["peek"] });
  const result = await env.run(["run", "-a", "peeking", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const [content] = toolResultsOf(provider.requests[1]).map((item) => String(item.content));
  const providers = JSON.parse(content ?? "null");
  assert.equal(providers.fake.api_key, "sk-…1234", "the key reached the extension");
  assert.equal(providers.other.headers.Authorization, "Bea…5678");
  assert.equal(providers.fake.base_url, provider.url, "the rest of config.yaml is handed over");
  const stored = (await Promise.all((await env.sessionFiles()).map((f) => Deno.readTextFile(f))))
    .join("");
  assert.ok(!stored.includes("ABCDEFGHIJKLMNOP") && !stored.includes("SECRET-value"));
});

/** Replaces `path` by a named pipe nobody writes to: opening it for reading waits forever. */
async function makeFifo(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(made.success, "mkfifo failed");
}

/** Resolves once the rienda process below `ancestor` catches SIGINT (its handler is installed). */
async function interruptsHandled(ancestor: number): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    const pid = await descendantRunning(ancestor, RIENDA_ENTRY);
    const status = pid === null
      ? ""
      : await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
    const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1];
    if (caught !== undefined && (BigInt(`0x${caught}`) & 2n) !== 0n) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("rienda never installed its SIGINT handler");
}

/**
 * Interrupts `process` once; null when it is still running 10 s later (a
 * second interrupt then ends it, so a failing test does not hang).
 */
async function exitAfterInterrupt(
  process: { kill(s: Deno.Signal): void; wait(): Promise<{ code: number; stderr: string }> },
) {
  process.kill("SIGINT");
  const exited = process.wait();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const backstop = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 10_000));
  const result = await Promise.race([exited, backstop]);
  clearTimeout(timer);
  if (result === null) {
    process.kill("SIGINT");
    await exited;
  }
  return result;
}

Deno.test("an interrupt ends a run stuck opening config.yaml on a pipe nobody writes (exit 130)", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([{ text: "never asked" }]);
  await using env = await createTestEnv({ provider });
  await makeFifo(`${env.home}/config.yaml`);
  await using process = await env.start(["run", "go"]);
  // Nothing is printed before the config is read: wait until rienda handles SIGINT.
  await interruptsHandled(process.pid);
  const result = await exitAfterInterrupt(process);
  assert.notEqual(result, null, "still running 10 s after SIGINT");
  assert.equal(result?.code, 130, result?.stderr);
  assert.equal(lastLine(result?.stderr ?? ""), "rienda: the run was interrupted");
  assert.equal(provider.requests.length, 0);
});

/** A tool granted nothing; it reads HOME, which only full access allows. */
const NOTHING_TOOL = `module.exports = {
  description: "Reads HOME.",
  parameters: { type: "object" },
  capabilities: {},
  execute: function (ctx) {
    try { return "HOME is " + ctx.env.get("HOME"); } catch (e) { return "refused: " + e.message; }
  },
};
`;

/** The exports-cache files of `kind` (`tool` or `hook`) in the home. */
function cacheEntries(env: TestEnv, kind: string): string[] {
  const dir = `${env.home}/exports-cache`;
  try {
    return [...Deno.readDirSync(dir)].filter((item) => item.name.startsWith(`${kind}-`))
      .map((item) => `${dir}/${item.name}`);
  } catch {
    return [];
  }
}

/** Runs `rienda tools test probe` once so the tool's exports are remembered; returns the entry. */
async function warmTool(env: TestEnv): Promise<string> {
  await env.writeTool("probe", NOTHING_TOOL);
  const warm = await env.run(["tools", "test", "probe"]);
  assert.equal(warm.code, 0, warm.stderr);
  const [entry] = cacheEntries(env, "tool");
  assert.ok(entry !== undefined, "no exports were remembered");
  return entry;
}

for (
  const [what, spoil] of [
    ["holds JSON null", (entry: string) => Deno.writeTextFile(entry, "null")],
    ["holds a list", (entry: string) => Deno.writeTextFile(entry, "[]")],
    ["is a named pipe nobody writes", makeFifo],
  ] as const
) {
  Deno.test(`a tool whose remembered exports entry ${what} is read again and keeps its grant`, async () => {
    await using env = await createTestEnv();
    const entry = await warmTool(env);
    await Deno.remove(entry);
    await spoil(entry);
    await using process = await env.start(["tools", "test", "probe"]);
    const exited = process.wait();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 15_000));
    const result = await Promise.race([exited, stuck]);
    clearTimeout(timer);
    if (result === null) {
      process.kill("SIGINT");
      await exited;
    }
    assert.notEqual(result, null, "the tool was still loading after 15 s");
    assert.equal(result?.code, 0, result?.stderr);
    assert.match(result?.stdout ?? "", /^refused: ctx\.env\.get: variable HOME is not in/);
  });
}

/** An export report that says a hook implements afterRun only, fail-open, granted everything. */
const FORGED_HOOK = JSON.stringify({ type: "object", keys: { afterRun: { type: "function" } } });

Deno.test("a guard cannot be disarmed through the exports cache: a run and rienda hooks read the module", async () => {
  await using provider = await startFakeProvider([{ text: "warm" }, ...touchScript()]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "guard",
    `module.exports = {
  failClosed: true,
  beforeToolExecute: function () { throw new Error("boom"); },
};
`,
  );
  await env.writeAgent("guarded", { description: "Guarded.", tools: ["shell"], hooks: ["guard"] });
  const warm = await env.run(["run", "-a", "guarded", "--no-session", "warm"]);
  assert.equal(warm.code, 0, warm.stderr);
  const listed = await env.run(["hooks"]);
  // Whatever the cache holds for the guard is forged: no beforeToolExecute, fail-open.
  for (const entry of cacheEntries(env, "hook")) await Deno.writeTextFile(entry, FORGED_HOOK);
  const result = await env.run(["run", "-a", "guarded", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await ran(env), false, "the tool ran past the guard");
  assert.match(result.stderr, /hook "guard" failed closed: boom/);
  const relisted = await env.run(["hooks"]);
  assert.equal(relisted.stdout, listed.stdout, "rienda hooks showed the forged view");
  assert.match(relisted.stdout, /beforeToolExecute/);
  assert.match(relisted.stdout, /fail-closed/);
});

Deno.test("a tool's grant cannot be widened through the exports cache: its first call checks the module", async () => {
  await using env = await createTestEnv();
  const entry = await warmTool(env);
  // The forged entry drops the tool's capabilities: undeclared means full access.
  const report = JSON.parse(await Deno.readTextFile(entry));
  delete report.keys.capabilities;
  await Deno.writeTextFile(entry, JSON.stringify(report));
  const forged = await env.run(["tools", "test", "probe"]);
  assert.equal(forged.code, 1, forged.stdout);
  assert.equal(
    forged.stdout,
    'the tool was not executed: what tool "probe" exports differs from what the exports cache ' +
      'held (its "capabilities"); the entry was removed, so the next run reads the module again\n',
  );
  assert.deepEqual(cacheEntries(env, "tool"), [], "the forged entry is gone");
  const again = await env.run(["tools", "test", "probe"]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^refused: ctx\.env\.get: variable HOME is not in/);
  // A listing reads the module too: it shows the tool's own grant, not the forged one.
  await Deno.writeTextFile(cacheEntries(env, "tool")[0]!, JSON.stringify(report));
  const listing = await env.run(["tools"]);
  assert.match(listing.stdout, /probe .*\n\s+capabilities: file read: none; .*env: none\n/);
});

/** A tool whose `target` defaults to prod; it records what it ran with in `deployed`. */
const DEPLOY_TOOL = `module.exports = {
  description: "Deploys.",
  parameters: {
    type: "object",
    properties: { target: { type: "string", default: "prod" }, dry: { type: "boolean" } },
    additionalProperties: false,
  },
  execute: function (ctx, args) {
    ctx.file.write("deployed", JSON.stringify(args));
    return "deployed to " + args.target;
  },
};
`;

/** A guard refusing prod; it logs what it was handed. */
const PROD_GUARD = `module.exports = {
  failClosed: true,
  beforeToolExecute: function (ctx, call) {
    ctx.log("guard saw " + JSON.stringify(call.arguments));
    if (call.arguments.target === "prod") return { allow: false, reason: "no prod deploys" };
    return null;
  },
};
`;

Deno.test("a guard is handed the arguments with the schema's defaults: deploy {} is refused as prod", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "deploy", arguments: {} },
        { name: "deploy", arguments: { target: "staging" } },
        { name: "deploy", arguments: { dry: true } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool("deploy", DEPLOY_TOOL);
  await env.writeHook("guard", PROD_GUARD);
  // A rewriting hook before the guard that drops the target: the guard still sees the default.
  await env.writeHook(
    "rewrite",
    `module.exports = {
  beforeToolExecute: function (ctx, call) {
    if (call.arguments.dry) return { arguments: { dry: false } };
    return null;
  },
};
`,
  );
  await env.writeAgent("deployer", {
    description: "Deploys.",
    tools: ["deploy"],
    hooks: ["rewrite", "guard"],
  });
  const result = await env.run(["run", "-a", "deployer", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((entry) => entry.content), [
    'hook "guard" refused the call: no prod deploys',
    "deployed to staging",
    'hook "guard" refused the call: no prod deploys',
  ]);
  assert.equal(await Deno.readTextFile(`${env.workdir}/deployed`), '{"target":"staging"}');
  const seen = result.stderr.split("\n").filter((line) => line.includes("guard saw"));
  assert.deepEqual(seen, [
    'hook "guard": guard saw {"target":"prod"}',
    'hook "guard": guard saw {"target":"staging"}',
    'hook "guard": guard saw {"dry":false,"target":"prod"}',
  ]);
  // The session keeps the calls as the model made them.
  const [file] = await env.sessionFiles();
  const entries = await env.readSession(file!);
  const calls = entries.flatMap((entry) => {
    const blocks = Array.isArray(entry.blocks) ? entry.blocks : [];
    return blocks.filter((block) => block.type === "tool_call")
      .map((block) => block.toolCallArguments);
  });
  assert.deepEqual(calls, [{}, { target: "staging" }, { dry: true }]);
});
