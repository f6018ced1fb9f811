/**
 * Fail-closed hooks (docs/extensions.md, "Policy"): every way a guard can
 * fail to give a verdict, at every point that has something to refuse, is a
 * refusal; without `failClosed` the same failures stay notices and "no
 * opinion".
 */

import assert from "node:assert/strict";
import { lastLine } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { toolResultsOf } from "./harness/wire.ts";

const SECRET = "SECRET-4242";

type Point =
  | "beforeRun"
  | "beforeModelRequest"
  | "afterModelResponse"
  | "beforeToolExecute"
  | "afterToolExecute";

const POINTS: readonly Point[] = [
  "beforeRun",
  "beforeModelRequest",
  "afterModelResponse",
  "beforeToolExecute",
  "afterToolExecute",
];

/** How a hook fails to give a verdict: its body, and the words of the reason. */
const MODES = {
  throw: { body: `throw new Error("boom");`, why: "boom (index.js:4)" },
  timeout: { body: `while (true) {}`, why: "did not finish within 300 ms (timeout_ms)" },
  memory: {
    body: `var kept = []; for (;;) kept.push(new Array(100000).fill("x" + kept.length));`,
    why: "exceeded the memory limit of 256 MiB",
  },
  "invalid return": {
    body: `return "yes";`,
    why: "must return an object or nothing (returned a string)",
  },
} as const;

function guard(point: Point, body: string, failClosed = true): string {
  return `module.exports = {
  ${failClosed ? "failClosed: true," : ""}
  ${point}: function (ctx) {
    ${body}
  },
};
`;
}

/** The command prints {@link SECRET} without containing it. */
const COMMAND = "touch ran && echo SECRET-$((4000 + 242))";

/** A provider that calls shell once (touching `ran` and printing the secret), then answers. */
function script() {
  return [
    { toolCalls: [{ name: "shell", arguments: { command: COMMAND } }] },
    { text: `the answer is ${SECRET}` },
  ];
}

async function ran(env: TestEnv): Promise<boolean> {
  return await Deno.stat(`${env.workdir}/ran`).then(() => true, () => false);
}

async function stored(env: TestEnv): Promise<string> {
  const files = await env.sessionFiles();
  return (await Promise.all(files.map((file) => Deno.readTextFile(file)))).join("");
}

for (const [mode, { body, why }] of Object.entries(MODES)) {
  for (const point of POINTS) {
    Deno.test(`a fail-closed ${point} hook that fails (${mode}) refuses`, async () => {
      await using provider = await startFakeProvider(script());
      await using env = await createTestEnv({ provider });
      await env.writeHook("guard", guard(point, body));
      const entry = mode === "timeout" ? { name: "guard", timeout_ms: 300 } : "guard";
      await env.writeAgent("guarded", {
        description: "Guarded.",
        tools: ["shell"],
        hooks: [entry],
      });
      const result = await env.run(["run", "-a", "guarded", "go"]);
      const reason = `hook "guard" failed closed: ${why}`;
      switch (point) {
        case "beforeRun":
        case "beforeModelRequest":
          assert.equal(result.code, 1, result.stderr);
          assert.ok(lastLine(result.stderr).startsWith(`rienda: ${reason}`), result.stderr);
          assert.equal(provider.requests.length, 0, "no request after a refusal");
          break;
        case "afterModelResponse":
          assert.equal(result.code, 1, result.stderr);
          assert.ok(
            lastLine(result.stderr).startsWith(
              `rienda: the answer was neither printed nor stored: ${reason}`,
            ),
            result.stderr,
          );
          assert.equal(provider.requests.length, 1);
          assert.equal(await ran(env), false, "the withheld answer's tool call ran");
          break;
        case "beforeToolExecute": {
          assert.equal(result.code, 0, result.stderr);
          assert.equal(await ran(env), false, "the refused tool ran");
          const [content] = toolResultsOf(provider.requests[1]).map((item) => item.content);
          assert.ok(String(content).startsWith(reason), String(content));
          break;
        }
        case "afterToolExecute": {
          assert.equal(result.code, 0, result.stderr);
          const [content] = toolResultsOf(provider.requests[1]).map((item) => item.content);
          assert.ok(
            String(content).startsWith(`withheld: hook "guard" failed: ${why}`),
            String(content),
          );
          assert.ok(!JSON.stringify(provider.requests[1]?.body).includes(SECRET));
          break;
        }
      }
      if (point !== "afterToolExecute" && point !== "beforeToolExecute") {
        assert.ok(!result.stdout.includes(SECRET), result.stdout);
        assert.ok(!(await stored(env)).includes(`the answer is ${SECRET}`));
      }
    });
  }
}

Deno.test("without failClosed the same failures are notices and no opinion", async () => {
  for (const [mode, { body, why }] of Object.entries(MODES)) {
    if (mode === "memory") continue; // as slow as the fail-closed case, and the same path
    await using provider = await startFakeProvider(script());
    await using env = await createTestEnv({ provider });
    await env.writeHook("guard", guard("beforeToolExecute", body, false));
    const entry = mode === "timeout" ? { name: "guard", timeout_ms: 300 } : "guard";
    await env.writeAgent("guarded", { description: "Guarded.", tools: ["shell"], hooks: [entry] });
    const result = await env.run(["run", "-a", "guarded", "go"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await ran(env), true, `${mode}: the tool did not run`);
    assert.ok(result.stderr.includes(`hook "guard": beforeToolExecute: ${why}`), result.stderr);
  }
});

Deno.test("the agent's fail_closed overrides the module's, both ways", async () => {
  await using provider = await startFakeProvider([...script(), ...script()]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("open", guard("beforeToolExecute", `throw new Error("boom");`, false));
  await env.writeHook("closed", guard("beforeToolExecute", `throw new Error("boom");`, true));
  await env.writeAgent("strict", {
    description: "Strict.",
    tools: ["shell"],
    hooks: [{ name: "open", fail_closed: true }],
  });
  await env.writeAgent("lax", {
    description: "Lax.",
    tools: ["shell"],
    hooks: [{ name: "closed", fail_closed: false }],
  });
  const strict = await env.run(["run", "-a", "strict", "go"]);
  assert.equal(strict.code, 0, strict.stderr);
  assert.equal(await ran(env), false, "fail_closed: true let the call run");
  const lax = await env.run(["run", "-a", "lax", "go"]);
  assert.equal(lax.code, 0, lax.stderr);
  assert.equal(await ran(env), true, "fail_closed: false refused the call");
});

Deno.test("a fail-closed hook that is missing or cannot load fails the run before any request", async () => {
  await using provider = await startFakeProvider(script());
  await using env = await createTestEnv({ provider });
  await Deno.mkdir(`${env.home}/hooks/missing`, { recursive: true });
  await env.writeHook("broken", `module.exports = { failClosed: true, beforeToolExecute: 1 };`);
  await env.writeHook("throws", `throw new Error("cannot start");`);
  for (const name of ["missing", "broken", "throws"]) {
    await env.writeAgent("guarded", {
      description: "Guarded.",
      tools: ["shell"],
      hooks: [{ name, fail_closed: true }],
    });
    const result = await env.run(["run", "-a", "guarded", "go"]);
    assert.equal(result.code, 1, result.stderr);
    assert.ok(lastLine(result.stderr).includes(`hook "${name}"`), result.stderr);
    assert.equal(provider.requests.length, 0, `${name}: a request was sent`);
  }
});

/** A guard at `point` that marks the workspace, then spins until interrupted. */
function spinning(point: Point): string {
  return guard(point, `ctx.file.write("guarding", "1"); while (true) {}`);
}

async function waitForFile(path: string): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (!(await Deno.stat(path).then(() => true, () => false))) {
    if (performance.now() > deadline) throw new Error(`${path} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const point of POINTS) {
  Deno.test(`an interrupt during a fail-closed ${point} hook is never a pass`, async () => {
    await using provider = await startFakeProvider(script());
    await using env = await createTestEnv({ provider });
    await env.writeHook("guard", spinning(point));
    await env.writeAgent("guarded", {
      description: "Guarded.",
      tools: ["shell"],
      hooks: ["guard"],
    });
    await using process = await env.start(["run", "-a", "guarded", "go"]);
    await waitForFile(`${env.workdir}/guarding`);
    process.kill("SIGINT");
    const result = await process.wait();
    assert.equal(result.code, 130, result.stderr);
    assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
    if (point !== "afterToolExecute") assert.equal(await ran(env), false, "the tool ran");
    assert.ok(!result.stdout.includes(SECRET), result.stdout);
    // The shell's live output is on stderr before afterToolExecute runs, as for any hook.
    if (point !== "afterToolExecute") assert.ok(!result.stderr.includes(SECRET), result.stderr);
    const sent = provider.requests.map((request) => JSON.stringify(request.body)).join("");
    assert.ok(!sent.includes(SECRET), "the raw tool output reached the model");
    if (point === "beforeRun" || point === "beforeModelRequest") {
      assert.equal(provider.requests.length, 0);
    }
  });
}

Deno.test("timeout_ms of a tools: entry stops a user tool and a built-in one", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "spin", arguments: {} },
        { name: "shell", arguments: { command: "sleep 30" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "spin",
    `module.exports = { description: "Spins.", parameters: { type: "object" },
  execute: function () { while (true) {} } };`,
  );
  await env.writeAgent("timed", {
    description: "Timed.",
    tools: [{ name: "spin", timeout_ms: 300 }, { name: "shell", timeout_ms: 300 }],
  });
  const started = performance.now();
  const result = await env.run(["run", "-a", "timed", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(performance.now() - started < 25_000, "the shell call was not stopped");
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    "the tool did not finish within 300 ms (timeout_ms)",
    "the tool did not finish within 300 ms (timeout_ms)",
  ]);
});

Deno.test("rienda hooks shows which hooks fail closed and the agents' timeouts", async () => {
  await using env = await createTestEnv();
  await env.writeHook("guard", guard("beforeToolExecute", "return;"));
  await env.writeHook("audit", guard("afterToolExecute", "return;", false));
  await env.writeAgent("careful", {
    description: "Careful.",
    hooks: [{ name: "guard", timeout_ms: 5000 }, { name: "audit", fail_closed: true }],
  });
  const result = await env.run(["hooks"]);
  assert.equal(result.code, 0, result.stderr);
  const installed = result.stdout.slice(result.stdout.indexOf("\ninstalled in ") + 1);
  assert.deepEqual(installed.split("\n").filter((line) => !line.startsWith(" ")), [
    `installed in ${env.home}/hooks:`,
    "audit  afterToolExecute   agent careful: fail-closed",
    "guard  beforeToolExecute  fail-closed; agent careful: timeout 5000 ms",
    "",
  ]);
});

Deno.test("ctx.agent.tools and ctx.agent.hooks list names whichever form the entries take", async () => {
  await using provider = await startFakeProvider([{ text: "done" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "audit",
    `module.exports = { beforeRun: function (ctx) {
  ctx.file.write("seen.json", JSON.stringify([ctx.agent.tools, ctx.agent.hooks]));
} };`,
  );
  await env.writeAgent("mixed", {
    description: "Mixed.",
    tools: ["shell", { name: "read", timeout_ms: 1000 }],
    hooks: [{ name: "audit", timeout_ms: 5000 }],
  });
  const result = await env.run(["run", "-a", "mixed", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    await Deno.readTextFile(`${env.workdir}/seen.json`),
    JSON.stringify([["shell", "read"], ["audit"]]),
  );
});
