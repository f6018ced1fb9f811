import assert from "node:assert/strict";
import { linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { type FakeProvider, startFakeProvider } from "./harness/fake_provider.ts";
import { toolResultsOf } from "./harness/wire.ts";

/**
 * A tool whose `execute(ctx, args)` runs `body` and returns `JSON.stringify`
 * of what it builds; `attempt(f)` returns f's value or `"<Error name>: <message>"`.
 */
function probe(body: string): string {
  return `function attempt(f) {
  try { return f(); } catch (e) { return e.name + ": " + e.message; }
}
module.exports = {
  description: "Probes ctx.",
  parameters: { type: "object" },
  execute: function (ctx, args) {
${body}
  },
};
`;
}

/** Runs agent `probe` calling each tool once (with `args`), then answering "done"; returns the parsed results. */
async function runProbes(
  env: TestEnv,
  provider: FakeProvider,
  calls: readonly { name: string; arguments?: Record<string, unknown> }[],
  extraArgs: readonly string[] = [],
): Promise<{ results: unknown[]; stderr: string }> {
  provider.push({ toolCalls: calls.map((call) => ({ arguments: {}, ...call })) }, { text: "done" });
  const before = provider.requests.length;
  const result = await env.run(["run", "-a", "probe", ...extraArgs, "probe"], {
    env: { PROBE_VAR: "probe value" },
  });
  assert.equal(result.code, 0, result.stderr);
  const contents = toolResultsOf(provider.requests[before + 1]).map((item) => item.content);
  return {
    results: contents.map((content) => {
      try {
        return JSON.parse(String(content));
      } catch {
        throw new Error(`not JSON: ${content}\n${result.stderr}`);
      }
    }),
    stderr: result.stderr,
  };
}

Deno.test("ctx.workdir, session, agent and config describe the run; config is read-only", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    `${defaultConfig(provider.url)}config:\n  probe:\n    greeting: hello\n`,
  );
  await env.writeTool(
    "info",
    probe(`    ctx.config.default_model = "changed";
    return JSON.stringify({
      workdir: ctx.workdir,
      session: ctx.session,
      agent: ctx.agent,
      config: ctx.config,
      frozen: [Object.isFrozen(ctx.config), Object.isFrozen(ctx.agent.config)],
    });`),
  );
  await env.writeAgent(
    "probe",
    { description: "Probes.", tools: ["info"], config: { level: 2 } },
    "You probe.",
  );
  const { results, stderr } = await runProbes(env, provider, [{ name: "info" }]);
  assert.deepEqual(results, [{
    workdir: env.workdir,
    session: {
      id: sessionIdOf(stderr),
      agentId: "probe",
      modelId: "fake/m",
      workdir: env.workdir,
    },
    agent: {
      name: "probe",
      description: "Probes.",
      tools: ["info"],
      hooks: [],
      config: { level: 2 },
      systemPrompt: "You probe.",
    },
    config: {
      default_model: "fake/m",
      environment_context: false,
      providers: {
        fake: {
          protocol: "openai_chat_completions",
          base_url: provider.url,
          api_key: "[redacted]", // keys are masked (test-key is too short to show its ends)
          models: { m: { id: "fake-model" } },
        },
      },
      config: { probe: { greeting: "hello" } },
    },
    frozen: [true, true],
  }]);
});

Deno.test("ctx.file reads, writes, checks and lists relative to the workdir, with clear errors", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  const outside = await env.writeFile("outside/abs.txt", "absolute");
  await env.writeTool(
    "files",
    probe(`    ctx.file.write("notes/a.txt", "one");
    ctx.file.write("notes/a.txt", " two", { append: true });
    ctx.file.write("notes/b.txt", "first");
    ctx.file.write("notes/b.txt", "replaced");
    return JSON.stringify({
      read: ctx.file.read("notes/a.txt"),
      replaced: ctx.file.read("notes/b.txt"),
      absolute: ctx.file.read(args.outside),
      invalidUtf8: ctx.file.read("latin1.txt"),
      exists: [ctx.file.exists("notes"), ctx.file.exists("notes/a.txt"), ctx.file.exists("nope")],
      listed: ctx.file.list(".").map(function (e) { return e.path + (e.isDir ? "/" : ""); }),
      flat: ctx.file.list("notes", { recursive: false }).map(function (e) { return e.name; }),
      everything: ctx.file.list("src", { respectIgnoreFiles: false }).map(function (e) { return e.path; }),
      missing: attempt(function () { return ctx.file.read("missing.txt"); }),
      wrongType: attempt(function () { return ctx.file.read(42); }),
      directory: attempt(function () { return ctx.file.read("notes"); }),
      listFile: attempt(function () { return ctx.file.list("notes/a.txt"); }),
      writeType: attempt(function () { return ctx.file.write("x.txt", 5); }),
    });`),
  );
  await env.writeAgent("probe", { description: "Probes.", tools: ["files"] });
  await Deno.writeFile(`${env.workdir}/latin1.txt`, new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  await Deno.mkdir(`${env.workdir}/.git`);
  await Deno.writeTextFile(`${env.workdir}/.git/HEAD`, "ref");
  await Deno.writeTextFile(`${env.workdir}/.gitignore`, "*.log\nbuild/\n");
  await Deno.mkdir(`${env.workdir}/src/gen`, { recursive: true });
  await Deno.mkdir(`${env.workdir}/build`);
  await Deno.writeTextFile(`${env.workdir}/build/out.js`, "");
  await Deno.writeTextFile(`${env.workdir}/debug.log`, "");
  await Deno.writeTextFile(`${env.workdir}/src/.ignore`, "gen/\n");
  await Deno.writeTextFile(`${env.workdir}/src/main.js`, "");
  await Deno.writeTextFile(`${env.workdir}/src/gen/out.js`, "");
  const { results } = await runProbes(env, provider, [
    { name: "files", arguments: { outside } },
  ]);
  assert.deepEqual(results, [{
    read: "one two",
    replaced: "replaced",
    absolute: "absolute",
    invalidUtf8: "caf\ufffd",
    exists: [true, true, false],
    listed: [
      ".gitignore",
      "latin1.txt",
      "notes/",
      "notes/a.txt",
      "notes/b.txt",
      "src/",
      "src/.ignore",
      "src/main.js",
    ],
    flat: ["a.txt", "b.txt"],
    everything: ["src/.ignore", "src/gen", "src/gen/out.js", "src/main.js"],
    missing: "Error: ctx.file.read: no such file: missing.txt",
    wrongType: "TypeError: ctx.file.read: path must be a string (found number)",
    directory: "Error: ctx.file.read: is a directory: notes",
    listFile: "Error: ctx.file.list: not a directory: notes/a.txt",
    writeType: "TypeError: ctx.file.write: data must be a string (found number)",
  }]);
});

Deno.test("ctx.env.get reads the environment and returns null when unset", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "envs",
    probe(`    return JSON.stringify([
      ctx.env.get("PROBE_VAR"),
      ctx.env.get("PROBE_UNSET"),
      attempt(function () { return ctx.env.get(); }),
    ]);`),
  );
  await env.writeAgent("probe", { description: "Probes.", tools: ["envs"] });
  const { results } = await runProbes(env, provider, [{ name: "envs" }]);
  assert.deepEqual(results, [[
    "probe value",
    null,
    "TypeError: ctx.env.get: name must be a string (found undefined)",
  ]]);
});

Deno.test("ctx.http.fetch returns any status with lower-cased headers, sends bodies, caps and times out", async () => {
  const received: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      received.push(
        `${request.method} ${path} ${request.headers.get("x-token")} ${await request.text()}`,
      );
      // Longer than the probe's timeout_ms (100), short enough not to hold the server's close.
      if (path === "/slow") await new Promise((resolve) => setTimeout(resolve, 600));
      if (path === "/big") return new Response("x".repeat(300 * 1024));
      return new Response("not here", { status: 404, headers: { "X-Custom": "Yes" } });
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "web",
    probe(`    const missing = ctx.http.fetch(args.base + "/missing");
    const posted = ctx.http.fetch(args.base + "/post", {
      method: "POST",
      headers: { "X-Token": "secret" },
      body: "payload",
    });
    return JSON.stringify({
      missing: [missing.status, missing.headers["x-custom"], missing.body],
      posted: posted.status,
      big: ctx.http.fetch(args.base + "/big").body.length,
      slow: attempt(function () { return ctx.http.fetch(args.base + "/slow", { timeout_ms: 100 }); }),
      scheme: attempt(function () { return ctx.http.fetch("ftp://example.test/"); }),
    });`),
  );
  await env.writeAgent("probe", { description: "Probes.", tools: ["web"] });
  const { results } = await runProbes(env, provider, [{ name: "web", arguments: { base } }]);
  assert.deepEqual(results, [{
    missing: [404, "Yes", "not here"],
    posted: 404,
    big: 256 * 1024,
    slow: `Error: ctx.http.fetch: the request timed out after 100 ms: GET ${base}/slow`,
    scheme:
      'TypeError: ctx.http.fetch: only http and https URLs are supported (found "ftp://example.test/")',
  }]);
  assert.deepEqual(received.slice(0, 2), ["GET /missing null ", "POST /post secret payload"]);
});

Deno.test("ctx.system.exec runs sh -c with cwd, env and timeout, streaming live; which finds executables", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await Deno.mkdir(`${env.workdir}/sub`);
  await env.writeTool(
    "system",
    probe(`    return JSON.stringify({
      failed: ctx.system.exec("echo out; echo err >&2; exit 3"),
      cwd: ctx.system.exec("pwd", { cwd: "sub" }).stdout,
      env: ctx.system.exec("echo $EXTRA-$PROBE_VAR", { env: { EXTRA: "added" } }).stdout,
      timeout: ctx.system.exec("echo started; sleep 10", { timeout_ms: 300 }).code,
      which: [ctx.system.which("sh").indexOf("/"), ctx.system.which("no-such-tool-here")],
      badCommand: attempt(function () { return ctx.system.exec(42); }),
    });`),
  );
  await env.writeAgent("probe", { description: "Probes.", tools: ["system"] });
  const started = performance.now();
  const { results, stderr } = await runProbes(env, provider, [{ name: "system" }]);
  assert.ok(performance.now() - started < 8_000, "the timeout did not stop sleep 10");
  assert.deepEqual(results, [{
    failed: { code: 3, stdout: "out\n", stderr: "err\n" },
    cwd: `${env.workdir}/sub\n`,
    env: "added-probe value\n",
    timeout: -1,
    which: [0, null],
    badCommand:
      "TypeError: ctx.system.exec: command must be a string or an array of strings (found number)",
  }]);
  // docs/extensions.md: exec output of a tool streams live to the front end.
  assert.ok(linesOf(stderr).includes("started"), stderr);
  assert.ok(linesOf(stderr).includes("out"), stderr);
});

Deno.test("ctx.cache and ctx.store keep text between invocations under the rienda home", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await env.writeTool(
    "keeper",
    probe(`    if (args.mode === "write") {
      ctx.cache.set("greeting", "hello", 3600);
      ctx.cache.set("gone", "soon");
      ctx.store.set("counter", "1");
      return JSON.stringify({
        deleted: [ctx.cache.del("gone"), ctx.cache.del("gone")],
        badTtl: attempt(function () { ctx.cache.set("x", "y", -1); }),
        badName: attempt(function () { ctx.store.get(""); }),
      });
    }
    return JSON.stringify({
      cache: [ctx.cache.get("greeting"), ctx.cache.has("greeting"), ctx.cache.has("gone")],
      store: [ctx.store.get("counter"), ctx.store.get("never"), ctx.store.has("counter")],
    });`),
  );
  await env.writeAgent("probe", { description: "Probes.", tools: ["keeper"] });
  const { results } = await runProbes(env, provider, [
    { name: "keeper", arguments: { mode: "write" } },
    { name: "keeper", arguments: { mode: "read" } },
  ]);
  assert.deepEqual(results, [
    {
      deleted: [true, false],
      badTtl: "TypeError: ctx.cache.set: ttl_seconds must be a positive number (found number)",
      badName: "TypeError: ctx.store.get: name must be 1 to 1024 characters",
    },
    { cache: ["hello", true, false], store: ["1", null, true] },
  ]);
  // The tool's own namespace: a folder named after its kind and name.
  const own = `${env.home}/store/tool/keeper`;
  assert.deepEqual(await Array.fromAsync(Deno.readDir(own), (e) => e.name), ["counter"]);
  // A second run (a new process) still sees them.
  const again = await runProbes(env, provider, [{ name: "keeper", arguments: { mode: "read" } }]);
  assert.deepEqual(again.results, [{ cache: ["hello", true, false], store: ["1", null, true] }]);
});

for (const autoApprove of [false, true]) {
  Deno.test(`ctx.log streams, ctx.sleep waits, ctx.confirm is ${autoApprove} ${autoApprove ? "with" : "without"} -y, ctx.notify shows nothing`, async () => {
    await using provider = await startFakeProvider();
    await using env = await createTestEnv({ provider });
    await env.writeTool(
      "ui",
      probe(`    ctx.log("first line");
    ctx.log("second line\\n");
    const started = Date.now();
    ctx.sleep(120);
    ctx.notify({ title: "hey", body: "look" });
    return JSON.stringify({
      slept: Date.now() - started >= 100,
      confirmed: ctx.confirm({ title: "Sure?", body: "Really?" }),
      badSleep: attempt(function () { ctx.sleep("soon"); }),
      badConfirm: attempt(function () { return ctx.confirm("sure?"); }),
    });`),
    );
    await env.writeAgent("probe", { description: "Probes.", tools: ["ui"] });
    const { results, stderr } = await runProbes(
      env,
      provider,
      [{ name: "ui" }],
      autoApprove ? ["-y"] : [],
    );
    assert.deepEqual(results, [{
      slept: true,
      confirmed: autoApprove,
      badSleep: "TypeError: ctx.sleep: ms must be a non-negative number (found string)",
      badConfirm:
        "TypeError: ctx.confirm: the question must be an object { title, body } (found string)",
    }]);
    assert.deepEqual(linesOf(stderr).slice(1), [
      "tool: ui {}",
      "first line",
      "second line",
      // Nobody could be asked: the notice names -y.
      ...(autoApprove
        ? []
        : ['ctx.confirm "Sure?" was answered no: nobody could be asked (pass -y to answer yes)']),
      // The result, one line: its JSON, cut.
      `tool done: ${JSON.stringify(results[0]).slice(0, 99)}…`,
    ]);
  });
}

Deno.test("ctx.system.exec: stdin text reaches the command, quiet keeps output off the front end, argv runs without a shell", async () => {
  await using env = await createTestEnv();
  await env.writeTool(
    "system",
    probe(`    const big = "x".repeat(300 * 1024);
    return JSON.stringify({
      stdin: ctx.system.exec("wc -c; echo streamed", { stdin: big }).stdout,
      quiet: ctx.system.exec("echo hidden-out; echo hidden-err >&2", { quiet: true }),
      argv: ctx.system.exec(["sh", "-c", 'printf "%s|" "$@"; cat', "sh", "a;b", "$(id)", "*"], { stdin: "in" }).stdout,
      missing: ctx.system.exec(["no-such-program-here"]),
      empty: attempt(function () { return ctx.system.exec([]); }),
      badItem: attempt(function () { return ctx.system.exec(["echo", 3]); }),
      badStdin: attempt(function () { return ctx.system.exec("cat", { stdin: 3 }); }),
    });`),
  );
  const tmp = await env.makeDir("tmp");
  const result = await env.run(["tools", "test", "system"], { env: { TMPDIR: tmp } });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), {
    stdin: `${300 * 1024}\nstreamed\n`,
    quiet: { code: 0, stdout: "hidden-out\n", stderr: "hidden-err\n" },
    argv: "a;b|$(id)|*|in",
    missing: { code: 127, stdout: "", stderr: "no-such-program-here: no such program\n" },
    empty: "TypeError: ctx.system.exec: command[0] must be a program name (found an empty array)",
    badItem: "TypeError: ctx.system.exec: command[1] must be a string (found number)",
    badStdin: "TypeError: ctx.system.exec: stdin must be a string (found number)",
  });
  assert.ok(linesOf(result.stderr).includes("streamed"), result.stderr);
  assert.doesNotMatch(result.stderr, /hidden/);
  assert.deepEqual([...Deno.readDirSync(tmp)], [], "the stdin file is removed");
});
