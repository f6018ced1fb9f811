import assert from "node:assert/strict";
import { ExtensionHost } from "./host.ts";
import {
  makeContext,
  makeSandbox,
  returned,
  runTool,
  thrown,
} from "../../tests/_testing/extension_fixtures.ts";

const sandbox = await makeSandbox();
const context = makeContext(sandbox);

Deno.test("ExtensionHost", async (t) => {
  using host = new ExtensionHost();

  await t.step("call() returns what execute returned", async () => {
    assert.equal(
      returned(await runTool(host, context, `return "n=" + args.n;`, { args: { n: 3 } })),
      "n=3",
    );
  });

  await t.step("call() gives the guest no ambient globals besides ctx", async () => {
    const body =
      `return [typeof require, typeof process, typeof Deno, typeof fetch, typeof setTimeout,
      typeof setInterval, typeof queueMicrotask, typeof console, typeof host, typeof emit].join(",");`;
    assert.equal(
      returned(await runTool(host, context, body)),
      "undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined",
    );
  });

  await t.step(
    "call() evaluates a static import as an ES module, which cannot load it",
    async () => {
      const result = await host.call({
        source: `// a tool\nimport fs from "fs";\nmodule.exports = {};`,
        entry: "execute",
        args: [{}],
        context,
        output: () => {},
        signal: new AbortController().signal,
      });
      const error = thrown(result);
      assert.equal(error.name, "ReferenceError");
      assert.equal(error.message, "could not load module 'fs'");
    },
  );

  await t.step("call() supports exports.name = … as well as module.exports", async () => {
    const result = await host.call({
      source: `exports.execute = function (ctx, args) { return "via exports " + args.n; };`,
      entry: "execute",
      args: [{ n: 2 }],
      context,
      output: () => {},
      signal: new AbortController().signal,
    });
    assert.equal(returned(result), "via exports 2");
  });

  await t.step("call() runs every invocation in a fresh context", async () => {
    const body =
      `globalThis.count = (globalThis.count || 0) + 1; Object.prototype.leak = 1; return String(globalThis.count);`;
    assert.equal(returned(await runTool(host, context, body)), "1");
    assert.equal(returned(await runTool(host, context, body)), "1");
    assert.equal(returned(await runTool(host, context, `return String({}.leak);`)), "undefined");
  });

  await t.step("call() reports a throw with the message and the line in index.js", async () => {
    const error = thrown(
      await runTool(host, context, `const a = 1;\nthrow new TypeError("bad " + a);`),
    );
    assert.deepEqual(error, { name: "TypeError", message: "bad 1", line: 4 });
  });

  await t.step("call() reports a thrown non-Error value by its text", async () => {
    assert.equal(thrown(await runTool(host, context, `throw "plain";`)).message, "plain");
    assert.equal(thrown(await runTool(host, context, `throw { message: "obj" };`)).message, "obj");
  });

  await t.step("call() settles a promise returned by an async execute", async () => {
    const source = `module.exports = { execute: async function (ctx) {
      await null; const home = ctx.env.get("HOME"); await null; return typeof home; } };`;
    const result = await host.call({
      source,
      entry: "execute",
      args: [{}],
      context,
      output: () => {},
      signal: new AbortController().signal,
    });
    assert.equal(returned(result), "string");
  });

  await t.step("call() reports a promise that never settles", async () => {
    const result = await runTool(host, context, `return new Promise(function () {});`);
    assert.match(thrown(result).message, /never settled/);
  });

  await t.step("call() interrupts while (true) {} within ~100 ms of the abort", async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    const result = await runTool(host, context, `while (true) {}`, { signal: controller.signal });
    const elapsed = performance.now() - started;
    assert.deepEqual(result, { kind: "stopped", reason: "interrupted", message: "interrupted" });
    assert.ok(elapsed < 50 + 150, `stopped after ${elapsed} ms`);
  });

  await t.step("call() interrupts a guest that catches errors in a loop", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const body = `for (;;) { try { ctx.sleep(5); } catch (e) {} }`;
    const result = await runTool(host, context, body, { signal: controller.signal });
    assert.equal(result.kind === "stopped" && result.reason, "interrupted");
  });

  await t.step("call() stops at once when the signal is already aborted", async () => {
    const result = await runTool(host, context, `while (true) {}`, { signal: AbortSignal.abort() });
    assert.equal(result.kind === "stopped" && result.reason, "interrupted");
  });

  await t.step(
    "call() turns deep recursion into a catchable stack overflow (pitfall: module abort)",
    async () => {
      const patterns = [
        `function f(n) { return f(n + 1) + 1; } f(0);`,
        `function f(n) { return [n].map(function (x) { return f(x + 1); }); } f(0);`,
        `JSON.parse("[".repeat(100000) + "]".repeat(100000));`,
        `let a = []; for (let i = 0; i < 100000; i++) a = [a]; JSON.stringify(a);`,
        `const o = { get x() { return this.x; } }; o.x;`,
        `function f(n) { if (n > 300) return ctx.env.get("HOME"); return f(n + 1); } f(0); function g() { g(); } g();`,
      ];
      for (const pattern of patterns) {
        const body =
          `try { ${pattern} } catch (e) { return e.name + ": " + e.message; } return "no error";`;
        assert.match(
          String(returned(await runTool(host, context, body))),
          /stack overflow/,
          pattern,
        );
      }
      assert.equal(returned(await runTool(host, context, `return "still alive";`)), "still alive");
    },
  );

  await t.step("call() keeps ctx working when user code replaces JSON", async () => {
    const body =
      `JSON.stringify = function () { return "x"; }; JSON.parse = null; return ctx.env.get("HOME") !== null;`;
    assert.equal(returned(await runTool(host, context, body)), true);
  });

  await t.step("call() keeps ctx working when user code replaces prototypes", async () => {
    const body = `Array.prototype.push = null; Array.prototype.slice = null;
      Function.prototype.apply = null; Object.prototype.v = "planted";
      return [ctx.env.get("HOME") !== null, ctx.cache.set("k", "v"), typeof ctx.file.exists];`;
    assert.deepEqual(returned(await runTool(host, context, body)), [true, null, "function"]);
  });
});

Deno.test("ExtensionHost runs 2,000 invocations in one worker under a memory limit they would outgrow if any were kept", async () => {
  // Measured by the guest's own limit, not by this process's RSS (which every
  // test sharing the process moves): 2,000 kept invocations of 100 KiB each
  // would need 200 MiB, four times the limit.
  using host = new ExtensionHost({ memoryLimitBytes: 48 * 1024 * 1024 });
  const body = `const big = "x".repeat(100 * 1024); return big.length + ctx.file.exists(".");`;
  for (let i = 0; i < 2000; i++) {
    const result = await runTool(host, context, body);
    if (result.kind !== "value") assert.fail(`invocation ${i + 1}: ${JSON.stringify(result)}`);
  }
  assert.equal(host.workerCount, 1);
});

Deno.test("ExtensionHost with a small memory limit", async (t) => {
  using host = new ExtensionHost({ memoryLimitBytes: 48 * 1024 * 1024 });

  await t.step("call() stops a guest that exhausts memory and replaces its worker", async () => {
    const body = `const a = []; for (;;) a.push(new Array(1000).fill(1));`;
    const result = await runTool(host, context, body);
    assert.deepEqual(result, {
      kind: "stopped",
      reason: "memory",
      message: "exceeded the memory limit of 48 MiB",
    });
    assert.equal(returned(await runTool(host, context, `return "fresh";`)), "fresh");
  });

  await t.step("call() makes a single huge allocation a catchable error", async () => {
    const body =
      `try { new ArrayBuffer(200 * 1024 * 1024); } catch (e) { return e.message; } return "allocated";`;
    assert.match(String(returned(await runTool(host, context, body))), /out of memory/);
  });
});

Deno.test("ExtensionHost starts no worker before the first invocation", () => {
  using host = new ExtensionHost();
  assert.equal(host.workerCount, 0);
});

Deno.test("ExtensionHost replaces a crashed engine silently and exits while idle (pitfalls)", async () => {
  // Pitfalls: an engine abort printed "Aborted(…)" to stderr and poisoned the
  // module; idle workers kept the process alive. A 1 MiB QuickJS stack lets
  // recursion exhaust V8's stack first, which aborts the engine.
  const script = `
    import { ExtensionHost } from "${new URL("./host.ts", import.meta.url).href}";
    const host = new ExtensionHost({ stackBytes: 1024 * 1024 });
    const call = (source) => host.call({ source, entry: "execute", args: [], output: () => {},
      signal: new AbortController().signal, context: { workdir: "/", session: {}, agent: { frontmatter: {} },
      config: {}, secrets: { mask: (text) => text }, cacheDir: "/", storeDir: "/", autoApprove: false,
      notice: () => {} } });
    const crashed = await call("module.exports = { execute() { function f() { return f() + 1; } return f(); } };");
    const next = await call("module.exports = { execute() { return 'ok'; } };");
    Deno.stdout.writeSync(new TextEncoder().encode(crashed.kind + ":" + crashed.reason + " " + next.value.value));
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--no-check",
      `--config=${new URL("../../deno.json", import.meta.url).pathname}`,
      script,
    ],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  });
  const output = await child.output();
  assert.equal(new TextDecoder().decode(output.stderr), "");
  assert.equal(new TextDecoder().decode(output.stdout), "stopped:crashed ok");
  assert.equal(output.code, 0);
});

Deno.test("ExtensionHost reports a thrown value that cannot be shown without failing", async () => {
  using host = new ExtensionHost();
  const body =
    `throw { get message() { throw new Error("nope"); }, toJSON: function () { throw 1; } };`;
  const result = await runTool(host, context, body);
  assert.equal(result.kind, "threw");
  assert.equal(returned(await runTool(host, context, `return "next";`)), "next");
});
