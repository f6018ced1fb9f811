import assert from "node:assert/strict";
import { linesOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { peakProcessResidentBytes } from "./harness/process_memory.ts";

/** A tool whose `execute(ctx, args)` runs `body`; `attempt(f)` returns f's value or `"<name>: <message>"`. */
function tool(body: string): string {
  return `function attempt(f) {
  try { return f(); } catch (e) { return e.name + ": " + e.message; }
}
module.exports = {
  description: "Probes a limit.",
  parameters: { type: "object" },
  execute: function (ctx, args) {
${body}
  },
};
`;
}

Deno.test(
  "ctx.store and ctx.cache entries are 0600 files in 0700 folders; a wider folder is narrowed",
  { ignore: Deno.build.os === "windows" },
  async () => {
    await using env = await createTestEnv();
    // An older rienda left the cache folder and an entry readable by everyone.
    await Deno.mkdir(`${env.home}/cache`, { mode: 0o755 });
    await Deno.chmod(`${env.home}/cache`, 0o755);
    await Deno.writeTextFile(`${env.home}/cache/old`, "{}", { mode: 0o644 });
    await env.writeTool(
      "keep",
      tool(
        `ctx.store.set("token", "secret"); ctx.cache.set("odd name/..", "x", 60); return "kept";`,
      ),
    );
    const result = await env.run(["tools", "test", "keep", "--args", "{}"]);
    assert.equal(result.code, 0, result.stderr);
    // Folders down to the tool's namespace are 0700, entries 0600 (the old one moved to shared/).
    const modes: Record<string, number> = {};
    const walk = async (path: string) => {
      const info = await Deno.stat(`${env.home}/${path}`);
      modes[path] = info.mode! & 0o777;
      if (!info.isDirectory) return;
      for await (const entry of Deno.readDir(`${env.home}/${path}`)) {
        await walk(`${path}/${entry.name}`);
      }
    };
    for (const dir of ["store", "cache"]) await walk(dir);
    const names = Object.keys(modes).sort();
    assert.deepEqual(names.filter((path) => modes[path] === 0o700), [
      "cache",
      "cache/shared",
      "cache/tool",
      "cache/tool/keep",
      "store",
      "store/tool",
      "store/tool/keep",
    ]);
    assert.equal(names.filter((path) => modes[path] !== 0o700 && modes[path] !== 0o600).length, 0);
    assert.equal(modes["cache/shared/old"], 0o600);
    assert.equal(modes["store/tool/keep/token"], 0o600);
  },
);

Deno.test(
  "ctx.file.read counts what it reads: an endless device stops at 32 MiB with a catchable RangeError",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using env = await createTestEnv();
    await env.writeTool(
      "zero",
      tool(`var failure = attempt(function () { return ctx.file.read("/dev/zero").length; });
    ctx.file.write("small.txt", "still fine");
    return JSON.stringify([failure, ctx.file.read("small.txt")]);`),
    );
    const result = await env.run(["tools", "test", "zero", "--args", "{}"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), [
      "RangeError: ctx.file.read: file too large: /dev/zero (more than 33554432 bytes, the most it reads)",
      "still fine",
    ]);
  },
);

Deno.test("waits above 2^31−1 ms are a catchable RangeError naming the limit, never a runtime warning", async () => {
  await using env = await createTestEnv();
  await env.writeTool(
    "waits",
    tool(`return JSON.stringify([
      attempt(function () { return ctx.sleep(Math.pow(2, 31)); }),
      attempt(function () { return ctx.system.exec("sleep 1", { timeout_ms: 3e9 }); }),
      attempt(function () { return ctx.http.fetch("http://127.0.0.1:1/", { timeout_ms: 3e9 }); }),
    ]);`),
  );
  const result = await env.run(["tools", "test", "waits", "--args", "{}"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "", "no TimeoutOverflowWarning or other runtime warning");
  const limit = "must be at most 2147483647 ms, about 24.8 days";
  assert.deepEqual(JSON.parse(result.stdout), [
    `RangeError: ctx.sleep: ms ${limit} (found 2147483648)`,
    `RangeError: ctx.system.exec: timeout_ms ${limit} (found 3000000000)`,
    `RangeError: ctx.http.fetch: timeout_ms ${limit} (found 3000000000)`,
  ]);

  const shell = await env.run([
    "tools",
    "test",
    "shell",
    "--args",
    JSON.stringify({ command: "sleep 1; echo finished", timeout_ms: 3e9 }),
  ]);
  assert.equal(shell.code, 1);
  assert.equal(
    shell.stdout,
    'the tool was not executed: "timeout_ms" must be <= 1800000 (found 3000000000)\n',
  );
  assert.equal(shell.stderr, "");
});

Deno.test("a returned value JSON cannot encode is named with the right article", async () => {
  await using env = await createTestEnv();
  await env.writeTool("cycle", tool(`var o = { text: "x" }; o.self = o; return o;`));
  const result = await env.run(["tools", "test", "cycle", "--args", "{}"]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    "execute returned an object that cannot be encoded as JSON: return a string or { text: string, isError?: boolean }\n",
  );
  await env.writeHook(
    "cycle",
    `module.exports = { beforeRun: function () { var o = {}; o.self = o; return o; } };`,
  );
  const hook = await env.run(["hooks", "test", "cycle", "beforeRun", "--payload", "{}"]);
  assert.equal(hook.code, 0, hook.stderr);
  assert.match(
    hook.stderr,
    /beforeRun: must return an object or nothing \(returned an object that cannot be encoded as JSON\)/,
  );
});

Deno.test(
  "a guest allocating 2 GB stops at the 256 MiB memory limit while rienda stays under 400 MiB",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using env = await createTestEnv();
    const allocations = {
      strings:
        `var keep = []; for (var i = 0; i < 30; i++) keep.push("x".repeat(64 * 1024 * 1024) + i); return "kept";`,
      buffers:
        `var keep = []; for (var i = 0; i < 40; i++) keep.push(new ArrayBuffer(50 * 1024 * 1024)); return "kept";`,
      // Catching the engine's out-of-memory error does not get past the limit.
      caught:
        `var keep = []; try { for (;;) keep.push(new Array(100000).fill(keep.length)); } catch (e) { keep = null; return "caught " + e.message; }`,
    };
    for (const [name, body] of Object.entries(allocations)) {
      await env.writeTool(name, tool(body));
      await using process = await env.start(["tools", "test", name, "--args", "{}"]);
      const finished = process.wait();
      const peak = await peakProcessResidentBytes(process.pid, finished);
      const result = await finished;
      assert.equal(result.stdout, "the tool exceeded the memory limit of 256 MiB\n", name);
      assert.equal(result.code, 1, name);
      const peakMiB = Math.round(peak / (1024 * 1024));
      assert.ok(peakMiB < 400, `${name}: the process peaked at ${peakMiB} MiB`);
    }
  },
);

Deno.test("code nested too deeply for the engine is a clear load problem, or a worded engine failure in eval", async () => {
  await using env = await createTestEnv();
  await env.writeTool(
    "generated",
    `module.exports = {\n  table: ${"[".repeat(600)}${"]".repeat(600)},\n};\n`,
  );
  const listing = await env.run(["tools"]);
  assert.equal(listing.code, 1);
  assert.match(
    listing.stderr,
    /^tool "generated": its top-level code failed: SyntaxError: brackets nested more than 256 levels deep, more than the engine can compile \(index\.js:2\)$/m,
  );

  await env.writeTool(
    "deep",
    tool(`function deep(n) { return "(".repeat(n) + "1" + ")".repeat(n); }
    return String(eval(deep(200)) + new Function("return " + deep(200))() + attempt(function () {
      return eval("!".repeat(20000) + "1");
    }) + attempt(function () { return eval(deep(args.depth)); }));`),
  );
  const shallow = await env.run(["tools", "test", "deep", "--args", '{"depth":1}']);
  assert.equal(
    shallow.stdout,
    "2SyntaxError: stack overflow1\n",
    "QuickJS's own checks are catchable",
  );
  const result = await env.run(["tools", "test", "deep", "--args", '{"depth":100000}']);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    "the tool stopped: the JavaScript engine failed: it ran out of stack: code nested too deeply, such as brackets more than about 500 levels deep in eval or new Function\n",
  );
});

Deno.test("argument validation is linear: a catastrophic pattern or uniqueItems never stalls a call", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "strict",
    `module.exports = {
  description: "Validates hard.",
  parameters: {
    type: "object",
    properties: {
      word: { type: "string", pattern: "^(a+)+$" },
      list: { type: "array", uniqueItems: true },
      tags: { type: "object", patternProperties: { "^(x+x+)+y$": { type: "string" } } },
    },
  },
  execute: function (ctx, args) {
    if (args.list) ctx.file.write("ran.txt", String(args.list.length));
    return "ran";
  },
};
`,
  );
  // Before: 41 characters kept the main thread busy for over three minutes (SIGINT ignored).
  const word = await env.run([
    "tools",
    "test",
    "strict",
    "--args",
    JSON.stringify({ word: `${"a".repeat(40)}!` }),
  ]);
  assert.equal(word.code, 1, word.stderr);
  assert.equal(
    word.stdout,
    `the tool was not executed: "word" must match pattern "^(a+)+$" (found "${"a".repeat(40)}!")\n`,
  );
  // Before: ajv compared 100,000 distinct items pairwise (5·10⁹ comparisons, minutes). The
  // arguments are too long for a command line, so a model sends them (and the run compacts).
  const list = Array.from({ length: 100_000 }, (_, i) => i);
  provider.push(
    { toolCalls: [{ name: "strict", arguments: { list } }] },
    { text: "a summary" },
    { text: "done" },
    { text: "done" },
  );
  await env.writeAgent("strict", { description: "Validates.", tools: ["strict"] });
  const distinct = await env.run(["run", "-a", "strict", "go"]);
  assert.equal(distinct.code, 0, distinct.stderr.slice(-500));
  assert.equal(await Deno.readTextFile(`${env.workdir}/ran.txt`), "100000");
  const repeated = await env.run([
    "tools",
    "test",
    "strict",
    "--args",
    JSON.stringify({
      list: [{ a: 1, b: [2] }, 3, { b: [2], a: 1 }],
      tags: { [`${"x".repeat(30)}`]: "t" },
    }),
  ]);
  assert.equal(
    repeated.stdout,
    'the tool was not executed: "list" must NOT have duplicate items (items ## 0 and 2 are identical) (found [{"a":1,"b":[2]},3,{"b":[2],"a":1}])\n',
  );
});

Deno.test("rienda tools and doctor report a parameters schema that does not compile, before any call", async () => {
  await using env = await createTestEnv();
  await env.writeTool(
    "lookahead",
    `module.exports = { description: "x", parameters: { type: "object", properties: { a: { type: "string", pattern: "^(?=a)\\\\w+$" } } }, execute: function () {} };`,
  );
  await env.writeTool(
    "typo",
    `module.exports = { description: "x", parameters: { type: "object", properties: { a: { type: "strng" } } }, execute: function () {} };`,
  );
  const listing = await env.run(["tools"]);
  assert.equal(listing.code, 1);
  assert.deepEqual(linesOf(listing.stderr), [
    'tool "lookahead": the "parameters" schema is invalid: pattern "^(?=a)\\\\w+$" cannot run in linear time (no lookaround or backreferences): invalid or unsupported Perl syntax: `(?=`',
    'tool "typo": the "parameters" schema is invalid: schema is invalid: data/properties/a/type must be equal to one of the allowed values, data/properties/a/type must be array, data/properties/a/type must match a schema in anyOf',
  ]);
  const doctor = await env.run(["doctor"]);
  assert.equal(doctor.code, 1);
  assert.match(doctor.stdout, /^fail +extensions +0 tools, 0 hooks, 2 broken$/m);
  assert.match(doctor.stdout, /tool "lookahead": the "parameters" schema is invalid/);
});
