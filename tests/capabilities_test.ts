import assert from "node:assert/strict";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { toolResultsOf } from "./harness/wire.ts";

/**
 * A tool declaring `capabilities` whose `execute` returns, as JSON, each
 * probe's value or `"<Error name>: <message>"`.
 */
function probeTool(capabilities: unknown, probes: Record<string, string>): string {
  const entries = Object.entries(probes)
    .map(([name, body]) => `    ${JSON.stringify(name)}: attempt(function () { return ${body}; }),`)
    .join("\n");
  return `function attempt(f) {
  try { return f(); } catch (e) { return e.name + ": " + e.message; }
}
module.exports = {
  description: "Probes capabilities.",
  parameters: { type: "object" },
${
    capabilities === undefined
      ? ""
      : `  capabilities: ${JSON.stringify(capabilities)},\n`
  }  execute: function (ctx) {
    return JSON.stringify({
${entries}
    });
  },
};
`;
}

/** Runs `rienda tools test NAME` in the workspace and parses its JSON output. */
async function toolsTest(env: TestEnv, name: string): Promise<Record<string, unknown>> {
  const result = await env.run(["tools", "test", name], { env: { PROBE_VAR: "probe value" } });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** A workspace with `notes.txt`, an outside folder with `secret.txt`, and links into it. */
async function layout(env: TestEnv): Promise<string> {
  const outside = await env.makeDir("outside");
  await Deno.writeTextFile(`${outside}/secret.txt`, "secret");
  await Deno.writeTextFile(`${env.workdir}/notes.txt`, "notes");
  await Deno.mkdir(`${env.workdir}/.cache/probe`, { recursive: true });
  await Deno.symlink(outside, `${env.workdir}/linked`);
  await Deno.symlink(`${outside}/planted.txt`, `${env.workdir}/.cache/probe/dangling`);
  await Deno.symlink(outside, `${env.workdir}/.cache/probe/escape`);
  return outside;
}

Deno.test("file capabilities: granted paths work; outside, .. and symbolic links are catchable errors naming the grant", async () => {
  await using env = await createTestEnv();
  const outside = await layout(env);
  const path = await env.writeTool(
    "probe",
    probeTool({ file: { read: ["."], write: [".cache/probe"] } }, {
      read: `ctx.file.read("notes.txt")`,
      exists: `ctx.file.exists("missing.txt")`,
      list: `ctx.file.list(".cache").length > 0`,
      write: `ctx.file.write(".cache/probe/out.txt", "ok")`,
      writeNested: `ctx.file.write(".cache/probe/deep/er.txt", "ok")`,
      readOutside: `ctx.file.read(${JSON.stringify(`${outside}/secret.txt`)})`,
      readDotDot: `ctx.file.read("../outside/secret.txt")`,
      readLinked: `ctx.file.read("linked/secret.txt")`,
      listLinked: `ctx.file.list("linked")`,
      writeRead: `ctx.file.write("notes.txt", "overwritten")`,
      writeDotDot: `ctx.file.write(".cache/probe/../../notes.txt", "overwritten")`,
      writeDangling: `ctx.file.write(".cache/probe/dangling", "planted")`,
      writeThroughLink: `ctx.file.write(".cache/probe/escape/planted.txt", "planted")`,
      writeHardLink: `ctx.file.write(".cache/probe/hard", "overwritten")`,
      appendHardLink: `ctx.file.write(".cache/probe/hard", "more", { append: true })`,
    }),
  );
  await Deno.link(`${outside}/secret.txt`, `${env.workdir}/.cache/probe/hard`);
  const results = await toolsTest(env, "probe");
  const hardLinked = `Error: ctx.file.write: .cache/probe/hard is a file with 2 names (hard ` +
    "links), and another of them may lie outside this tool's capabilities, so it is not " +
    "written: write another path, or remove the other names first";
  const denied = (fn: string, given: string, category: string, granted: string, real?: string) =>
    `Error: ctx.file.${fn}: path ${JSON.stringify(given)}` +
    (real === undefined ? "" : ` (${real} once its symbolic links are followed)`) +
    ` is not in this tool's capabilities (file.${category}: ${granted}); to grant it, add ` +
    `${JSON.stringify(real ?? given)} to capabilities.file.${category} in ${path}`;
  assert.deepEqual(results, {
    read: "notes",
    exists: false,
    list: true,
    readOutside: denied("read", `${outside}/secret.txt`, "read", "."),
    readDotDot: denied("read", "../outside/secret.txt", "read", "."),
    readLinked: denied("read", "linked/secret.txt", "read", ".", `${outside}/secret.txt`),
    listLinked: denied("list", "linked", "read", ".", outside),
    writeRead: denied("write", "notes.txt", "write", ".cache/probe"),
    writeDotDot: denied("write", ".cache/probe/../../notes.txt", "write", ".cache/probe"),
    writeDangling: denied(
      "write",
      ".cache/probe/dangling",
      "write",
      ".cache/probe",
      `${outside}/planted.txt`,
    ),
    writeThroughLink: denied(
      "write",
      ".cache/probe/escape/planted.txt",
      "write",
      ".cache/probe",
      `${outside}/planted.txt`,
    ),
    writeHardLink: hardLinked,
    appendHardLink: hardLinked,
  });
  assert.equal(await Deno.readTextFile(`${outside}/secret.txt`), "secret");
  assert.equal(await Deno.readTextFile(`${env.workdir}/notes.txt`), "notes");
  assert.equal(await Deno.readTextFile(`${env.workdir}/.cache/probe/out.txt`), "ok");
  assert.equal(await Deno.readTextFile(`${env.workdir}/.cache/probe/deep/er.txt`), "ok");
  assert.deepEqual([...Deno.readDirSync(outside)].map((entry) => entry.name), ["secret.txt"]);
});

Deno.test("env, exec and http capabilities: granted names pass, others are refused with the fix", async () => {
  await using env = await createTestEnv();
  const hits: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    hits.push(url.pathname);
    if (url.pathname === "/away") {
      return Response.redirect(`http://localhost:${url.port}/landed`, 302);
    }
    if (url.pathname === "/here") return Response.redirect(`${url.origin}/landed`, 302);
    return new Response("landed");
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const evil = await env.writeFile("evil/echo", "#!/bin/sh\necho evil\n", 0o755);
  const swappedPath = `${evil.replace(/\/echo$/, "")}:${Deno.env.get("PATH")}`;
  const path = await env.writeTool(
    "probe",
    probeTool({ http: ["127.0.0.1"], exec: ["echo"], env: ["PROBE_VAR"] }, {
      env: `ctx.env.get("PROBE_VAR")`,
      envDenied: `ctx.env.get("PATH")`,
      fetch: `ctx.http.fetch(${JSON.stringify(`${base}/here`)}).body`,
      fetchDenied: `ctx.http.fetch("http://evil.example/")`,
      redirectDenied: `ctx.http.fetch(${JSON.stringify(`${base}/away`)})`,
      argv: `ctx.system.exec(["echo", "a b", "$PROBE_VAR"], { quiet: true }).stdout`,
      argvPathSwap: `ctx.system.exec(["echo", "swapped"], { quiet: true, env: { PATH: ${
        JSON.stringify(swappedPath)
      } } }).stdout`,
      shell: `ctx.system.exec("echo hi")`,
      program: `ctx.system.exec(["cat", "/etc/passwd"])`,
    }),
  );
  const results = await toolsTest(env, "probe");
  const fix = (category: string, value: string) =>
    `; to grant it, add ${JSON.stringify(value)} to capabilities.${category} in ${path}`;
  assert.deepEqual(results, {
    env: "probe value",
    envDenied: "Error: ctx.env.get: variable PATH is not in this tool's capabilities " +
      `(env: PROBE_VAR)${fix("env", "PATH")}`,
    fetch: "landed",
    fetchDenied: "Error: ctx.http.fetch: host evil.example is not in this tool's capabilities " +
      `(http: 127.0.0.1)${fix("http", "evil.example")}`,
    redirectDenied: `Error: ctx.http.fetch: a redirect to host localhost:${server.addr.port} ` +
      `is not in this tool's capabilities (http: 127.0.0.1)${fix("http", "localhost")}`,
    argv: "a b $PROBE_VAR\n",
    argvPathSwap: "swapped\n",
    shell: "Error: ctx.system.exec: a shell command (the string form; the argv form runs a " +
      "listed program) is not in this tool's capabilities (exec: echo); to grant it, set " +
      `capabilities.exec to true in ${path}`,
    program: `Error: ctx.system.exec: program "cat" is not in this tool's capabilities ` +
      `(exec: echo)${fix("exec", "cat")}`,
  });
  assert.deepEqual(hits, ["/here", "/landed", "/away"], "the refused redirect was not followed");
});

Deno.test("exec with env: { PATH } that holds neither sh nor rm: both forms run, on that PATH", async () => {
  await using env = await createTestEnv();
  const bin = await env.makeDir("bin");
  await Deno.writeTextFile(`${bin}/hello`, "#!/bin/sh\necho hello from bin\n", { mode: 0o755 });
  const run = (command: unknown, options: Record<string, unknown>) =>
    `(function () { var r = ctx.system.exec(${JSON.stringify(command)}, ${
      JSON.stringify({ quiet: true, ...options })
    }); return [r.code, r.stdout, r.stderr]; })()`;
  const probes = {
    argvOnGivenPath: run(["hello"], { env: { PATH: bin } }),
    argvAbsolute: run(["/bin/echo", "a"], { env: { PATH: "/nonexistent" } }),
    argvWithStdin: run(["/bin/cat"], { stdin: "piped", env: { PATH: "/nonexistent" } }),
    shellSeesPath: run("echo $PATH", { env: { PATH: "/nonexistent" } }),
    emptyPath: run(["/bin/echo", "b"], { env: { PATH: "" } }),
  };
  await env.writeTool("free", probeTool(undefined, probes));
  await env.writeTool(
    "listed",
    probeTool({ exec: ["echo"] }, {
      listed: run(["echo", "c"], { env: { PATH: "/nonexistent" } }),
    }),
  );
  assert.deepEqual(await toolsTest(env, "free"), {
    argvOnGivenPath: [0, "hello from bin\n", ""],
    argvAbsolute: [0, "a\n", ""],
    argvWithStdin: [0, "piped", ""],
    shellSeesPath: [0, "/nonexistent\n", ""],
    emptyPath: [0, "b\n", ""],
  });
  assert.deepEqual(await toolsTest(env, "listed"), { listed: [0, "c\n", ""] });
});

Deno.test("ctx.store and ctx.cache: each extension its own namespace, a shared area by capability, quotas", async () => {
  await using env = await createTestEnv();
  // An entry of an older version, when all extensions shared one namespace.
  await env.writeFile(
    "rienda-home/store/allow",
    JSON.stringify({ name: "allow", expiresAt: null, value: "ls" }),
  );
  await env.writeTool(
    "keeper",
    probeTool(undefined, {
      migrated: `ctx.store.shared.get("allow")`,
      ownBefore: `ctx.store.get("allow")`,
      set: `(ctx.store.set("allow", "git status"), "set")`,
      cache: `(ctx.cache.set("token", "t1", 60), "set")`,
    }),
  );
  assert.deepEqual(await toolsTest(env, "keeper"), {
    migrated: "ls",
    ownBefore: null,
    set: "set",
    cache: "set",
  });
  const mib = "x".repeat(1024 * 1024 - 64);
  await env.writeTool(
    "intruder",
    probeTool({}, {
      read: `ctx.store.get("allow")`,
      cacheRead: `ctx.cache.get("token")`,
      write: `(ctx.store.set("allow", "rm -rf /"), "set")`,
      shared: `ctx.store.shared.get("allow")`,
      sharedCache: `ctx.cache.shared.set("allow", "rm")`,
      huge: `ctx.store.set("huge", "x".repeat(2 * 1024 * 1024))`,
      fill: `(function () { for (var i = 0; ; i++) ctx.store.set("fill" + i, ${
        JSON.stringify(mib)
      }); })()`,
    }),
  );
  const intruder = await toolsTest(env, "intruder");
  const path = `${env.home}/tools/intruder/index.js`;
  assert.deepEqual(intruder, {
    read: null,
    cacheRead: null,
    write: "set",
    shared: "Error: ctx.store.shared.get: the shared area is not in this tool's capabilities " +
      `(shared: none); to grant it, set capabilities.shared to true in ${path}`,
    sharedCache: "Error: ctx.cache.shared.set: the shared area is not in this tool's " +
      `capabilities (shared: none); to grant it, set capabilities.shared to true in ${path}`,
    huge:
      "RangeError: ctx.store.set: the text is 2.0 MiB, more than the 1.0 MiB one entry may hold",
    fill: 'RangeError: ctx.store.set: the tool "intruder"\'s store is full (16.0 MiB in 17 ' +
      "entries; at most 16.0 MiB and 10000 entries): delete entries with ctx.store.del first",
  });
  await env.writeTool(
    "sharer",
    probeTool({ shared: true }, {
      write: `(ctx.store.shared.set("note", "for all"), "set")`,
      read: `ctx.store.shared.get("allow")`,
    }),
  );
  assert.deepEqual(await toolsTest(env, "sharer"), { write: "set", read: "ls" });
  await env.writeTool(
    "keeper",
    probeTool(undefined, {
      own: `ctx.store.get("allow")`,
      token: `ctx.cache.get("token")`,
      note: `ctx.store.shared.get("note")`,
    }),
  );
  assert.deepEqual(await toolsTest(env, "keeper"), {
    own: "git status",
    token: "t1",
    note: "for all",
  });
  const listing = await env.run(["tools"]);
  assert.match(
    listing.stdout,
    /sharer .*\n\s+capabilities: .*env: none; shared: store and cache\n/,
  );
  await assert.rejects(Deno.stat(`${env.home}/store/allow`), Deno.errors.NotFound);
});

Deno.test("config.yaml: require_capabilities gives undeclared extensions nothing; a grant there narrows a declaration", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await Deno.writeTextFile(`${env.workdir}/notes.txt`, "notes");
  await env.writeTool("open", probeTool(undefined, { read: `ctx.file.read("notes.txt")` }));
  const narrowedPath = await env.writeTool(
    "narrowed",
    probeTool({ file: { read: ["."] }, env: ["PROBE_VAR", "HOME"] }, {
      read: `ctx.file.read("notes.txt")`,
      env: `ctx.env.get("PROBE_VAR")`,
      home: `ctx.env.get("HOME")`,
    }),
  );
  await env.writeConfig(
    `${defaultConfig(provider.url)}extensions:\n  narrowed:\n    capabilities:\n` +
      `      file: { read: ["."] }\n      env: [PROBE_VAR]\n`,
  );
  const narrowed = await toolsTest(env, "narrowed");
  assert.deepEqual(narrowed, {
    read: "notes",
    env: "probe value",
    home: `Error: ctx.env.get: variable HOME is not in what config.yaml grants tool "narrowed" ` +
      `(extensions.narrowed.capabilities.env: PROBE_VAR); to grant it, add "HOME" to ` +
      `extensions.narrowed.capabilities.env in config.yaml`,
  });
  assert.deepEqual(await toolsTest(env, "open"), { read: "notes" });

  await env.writeConfig(
    `${defaultConfig(provider.url)}extensions:\n  require_capabilities: true\n`,
  );
  const open = await toolsTest(env, "open");
  assert.equal(
    open.read,
    `Error: ctx.file.read: path "notes.txt" is not allowed: tool "open" declares no ` +
      `capabilities and config.yaml sets extensions.require_capabilities; to grant it, add ` +
      `"notes.txt" to capabilities.file.read in ${env.home}/tools/open/index.js, or declare it ` +
      `in config.yaml (extensions.open.capabilities.file.read)`,
  );
  // A declared extension keeps its grant; the run of an agent applies the same rules.
  assert.equal((await toolsTest(env, "narrowed")).read, "notes");
  assert.ok(narrowedPath.endsWith("/tools/narrowed/index.js"));
  await env.writeAgent("probe", { description: "Probes.", tools: ["open"] });
  provider.push({ toolCalls: [{ name: "open", arguments: {} }] }, { text: "done" });
  const run = await env.run(["run", "-a", "probe", "go"]);
  assert.equal(run.code, 0, run.stderr);
  const [result] = toolResultsOf(provider.requests[1]).map((item) => String(item.content));
  assert.match(result ?? "", /ctx\.file\.read: path \\"notes\.txt\\" is not allowed/);
});

Deno.test("config.yaml: a malformed extensions section is an error naming the field", async () => {
  await using env = await createTestEnv();
  await env.writeConfig(
    `extensions:\n  require_capabilities: yes please\n  my-tool:\n    capabilities:\n` +
      `      http: ["https://api.github.com"]\n      exec: 3\n`,
  );
  const result = await env.run(["tools"]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /extensions\.require_capabilities: must be a boolean/);
  assert.match(result.stderr, /extensions\.my-tool\.capabilities\.exec: must be/);
});

Deno.test("a module's malformed capabilities break the extension; listings show each grant", async () => {
  await using env = await createTestEnv();
  await env.writeTool(
    "bad",
    probeTool({ http: ["https://api.github.com"], file: { read: "." }, net: true }, {}),
  );
  await env.writeTool("open", probeTool(undefined, {}));
  await env.writeTool(
    "scoped",
    probeTool({ file: { read: ["."], write: [".cache/x"] }, http: ["api.github.com"] }, {}),
  );
  await env.writeHook(
    "guard",
    `module.exports = { capabilities: { exec: true }, beforeToolExecute: function () {} };\n`,
  );
  await env.writeHook("audit", `module.exports = { afterRun: function () {} };\n`);
  await env.writeConfig(`extensions:\n  audit:\n    capabilities:\n      env: [HOME]\n`);
  const tools = await env.run(["tools"]);
  assert.equal(tools.code, 1);
  assert.match(
    tools.stderr,
    /tool "bad": "capabilities\.net" unknown capability \(expected: file, http, exec, env, shared\); "capabilities\.file\.read" must be a list of strings \(found a string\); "capabilities\.http\.0" must be a host, not a URL: a host pattern/,
  );
  assert.match(
    tools.stdout,
    /^open +user +Probes capabilities\.\n {2}capabilities: full access\n/m,
  );
  assert.match(
    tools.stdout,
    /^scoped +user +Probes capabilities\.\n {2}capabilities: file read: \.; file write: \.cache\/x; http: api\.github\.com; exec: none; env: none\n/m,
  );
  const hooks = await env.run(["hooks"]);
  assert.equal(hooks.code, 0, hooks.stderr);
  assert.match(
    hooks.stdout,
    /^guard +beforeToolExecute\n {2}capabilities: file read: none; .*exec: any command; env: none\n/m,
  );
  assert.match(
    hooks.stdout,
    /^audit +afterRun\n {2}capabilities: undeclared, config\.yaml grants: .*env: HOME\n/m,
  );
  const doctor = await env.run(["doctor", "--offline"]);
  assert.match(doctor.stdout, /tool "open": capabilities: full access/);
  assert.match(doctor.stdout, /hook "guard": capabilities: .*exec: any command/);
  assert.doesNotMatch(hooks.stderr, /unknown point "capabilities"/);
});

Deno.test("a hook's capabilities are enforced like a tool's: the refusal is its notice", async () => {
  await using env = await createTestEnv();
  const path = await env.writeHook(
    "scoped",
    `module.exports = {
  capabilities: { env: ["PROBE_VAR"] },
  beforeToolExecute: function (ctx) {
    return { reason: ctx.env.get("PROBE_VAR") + " " + ctx.system.exec("echo hi").stdout };
  },
};
`,
  );
  const result = await env.run(
    [
      "hooks",
      "test",
      "scoped",
      "beforeToolExecute",
      "--payload",
      '{"name": "shell", "arguments": {}}',
    ],
    { env: { PROBE_VAR: "probe value" } },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "null\n");
  assert.match(
    result.stderr,
    new RegExp(
      `hook "scoped": beforeToolExecute: ctx\\.system\\.exec: a shell command .* is not in this hook's capabilities \\(exec: none\\); to grant it, set capabilities\\.exec to true in ${path}`,
    ),
  );
});
