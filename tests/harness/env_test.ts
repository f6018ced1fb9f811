import assert from "node:assert/strict";
import { checkSession, linesOf, sessionIdOf } from "./assertions.ts";
import { agentText, createTestEnv, defaultConfig } from "./env.ts";
import { DENO_CONFIG, denoDir, riendaDenoArgs, TEST_BUNDLE } from "./rienda.ts";

Deno.test("createTestEnv() writes the default config and coder agent, and disposal removes it all", async () => {
  let root = "";
  {
    await using env = await createTestEnv({ provider: { url: "http://127.0.0.1:5/v1" } });
    root = env.root;
    assert.equal(await Deno.readTextFile(env.configPath), defaultConfig("http://127.0.0.1:5/v1"));
    assert.ok(defaultConfig("u").includes("protocol: openai_chat_completions"));
    assert.equal(
      await Deno.readTextFile(`${env.home}/agents/coder.md`),
      '---\ndescription: "Answers briefly."\ntools: ["shell"]\n---\nYou answer briefly.\n',
    );
    assert.equal(env.workdir, await Deno.realPath(env.workdir));
    assert.ok((await Deno.stat(env.userHome)).isDirectory);
  }
  await assert.rejects(Deno.stat(root), Deno.errors.NotFound);
});

Deno.test("createTestEnv() can leave out the config and the agent", async () => {
  await using env = await createTestEnv({ noConfig: true, noAgent: true });
  await assert.rejects(Deno.stat(env.configPath), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(`${env.home}/agents`), Deno.errors.NotFound);
});

Deno.test("agentText() writes an object frontmatter as one JSON value per key", () => {
  assert.equal(
    agentText({ description: "d", tools: ["a", "b"], config: { x: 1 } }, "Body."),
    '---\ndescription: "d"\ntools: ["a","b"]\nconfig: {"x":1}\n---\nBody.\n',
  );
  assert.equal(agentText("description: raw\n", "B"), "---\ndescription: raw\n---\nB\n");
});

Deno.test("children get only PATH, HOME, RIENDA_HOME, NO_COLOR and DENO_DIR plus the test's additions", async () => {
  await using env = await createTestEnv();
  const result = await env.exec("/usr/bin/env", [], { env: { EXTRA: "1" } });
  const names = linesOf(result.stdout).map((line) => line.slice(0, line.indexOf("="))).sort();
  assert.deepEqual(names, ["DENO_DIR", "EXTRA", "HOME", "NO_COLOR", "PATH", "RIENDA_HOME"]);
  assert.ok(result.stdout.includes(`HOME=${env.userHome}\n`));
  assert.ok(result.stdout.includes(`RIENDA_HOME=${env.home}\n`));
  assert.ok(result.stdout.includes(`DENO_DIR=${await denoDir()}\n`));
  const without = await env.exec("/usr/bin/env", [], { env: { NO_COLOR: undefined } });
  assert.ok(!without.stdout.includes("NO_COLOR="));
});

Deno.test("children run in the workspace with a closed, non-terminal stdin unless text is given", async () => {
  await using env = await createTestEnv();
  const closed = await env.exec("sh", ["-c", 'pwd; [ -t 0 ] && echo tty || echo "notty:$(cat)"']);
  assert.equal(closed.stdout, `${env.workdir}\nnotty:\n`);
  const piped = await env.exec("sh", ["-c", "cat; exit 3"], { stdin: "some input" });
  assert.deepEqual(piped, { code: 3, stdout: "some input", stderr: "" });
});

Deno.test({
  name: "riendaDenoArgs() runs the dev task of this checkout quietly",
  ignore: TEST_BUNDLE !== undefined,
}, () => {
  assert.deepEqual(riendaDenoArgs(["run", "-a", "x"]), [
    "task",
    "-q",
    "--config",
    DENO_CONFIG,
    "dev",
    "run",
    "-a",
    "x",
  ]);
  assert.ok(DENO_CONFIG.endsWith("/deno.json") && !DENO_CONFIG.includes("/tests/"));
});

Deno.test("installWrapper() puts an executable rienda that runs the dev task first on PATH", async () => {
  await using env = await createTestEnv();
  const path = await env.installWrapper();
  assert.ok(path.startsWith(`${env.root}/bin:`));
  const wrapper = `${env.root}/bin/rienda`;
  assert.equal((await Deno.stat(wrapper)).mode! & 0o777, 0o755);
  assert.equal(
    await Deno.readTextFile(wrapper),
    `#!/bin/sh\nexec deno task -q --config '${DENO_CONFIG}' dev "$@"\n`,
  );
  const which = await env.exec("sh", ["-c", "command -v rienda"], { env: { PATH: path } });
  assert.equal(which.stdout, `${wrapper}\n`);
});

Deno.test("sessionFiles() and readSession() find session files by path and by id", async () => {
  await using env = await createTestEnv();
  const id = "01k5aaaaaaaaaaaaaaaaaaaaaa";
  const header = {
    kind: "header",
    version: 1,
    id,
    createdAt: "2026-01-01T00:00:00.000Z",
    agent: "coder",
    model: "fake/m",
    workdir: env.workdir,
  };
  const message = {
    kind: "message",
    id: "e1",
    parentId: "",
    createdAt: "2026-01-01T00:00:01.000Z",
    role: "user",
    blocks: [{ type: "text", text: "hi" }],
  };
  const text = `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`;
  const path = `${env.home}/sessions/proj-1/${id}.jsonl`;
  await env.writeFile(`rienda-home/sessions/proj-1/${id}.jsonl`, text);
  await env.writeFile("rienda-home/sessions/proj-1/notes.txt", "x");
  assert.deepEqual(await env.sessionFiles(), [path]);
  assert.deepEqual(await env.readSession(id), [header, message]);
  assert.deepEqual(await env.readSession(path), [header, message]);
  assert.deepEqual(checkSession([header, message]).entries, [
    { kind: "message", role: "user", blocks: [{ type: "text", text: "hi" }] },
  ]);
  assert.throws(() => checkSession([header, { ...message, parentId: "nope" }]));
  assert.equal(sessionIdOf(`session: ${id}\nmore\n`), id);
  assert.throws(() => sessionIdOf("hello\n"));
});
