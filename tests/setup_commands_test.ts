import assert from "node:assert/strict";
import { assertNoAnsi, linesOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";

Deno.test("rienda agents lists each agent with its model and description", async () => {
  await using env = await createTestEnv();
  await env.writeAgent("reviewer", { description: "Reviews a diff.", model: "fake/big" });
  const result = await env.run(["agents"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(linesOf(result.stdout), [
    "coder     fake/m (default)  Answers briefly.                                       home",
    "default   fake/m (default)  A concise coding assistant for the current workspace.  built-in",
    "reviewer  fake/big          Reviews a diff. (no tools)                             home",
  ]);
  assert.equal(result.stderr, "");
});

Deno.test("rienda agents reports a broken agent file and exits 1", async () => {
  await using env = await createTestEnv();
  const path = await env.writeAgentFile("broken", "---\nmodel: fake/m\n---\nbody\n");
  const result = await env.run(["agents"]);
  assert.equal(result.code, 1);
  assert.match(result.stdout, /^coder /);
  assert.ok(result.stderr.includes(path), result.stderr);
  assert.match(result.stderr, /description/);
});

Deno.test("rienda init creates the home with examples and never overwrites", async () => {
  await using env = await createTestEnv({ noConfig: true, noAgent: true });
  const first = await env.run(["init"]);
  assert.equal(first.code, 0, first.stderr);
  for (
    const file of [
      "config.yaml",
      "agents/default.md",
      "agents/assistant.md",
      "tools/word-count/index.js",
      "hooks/guard/index.js",
      "rienda.d.ts",
      "jsconfig.json",
    ]
  ) {
    assert.ok(first.stdout.includes(`created  ${env.home}/${file}`), first.stdout);
  }
  await Deno.writeTextFile(`${env.home}/agents/assistant.md`, "mine");
  const second = await env.run(["init"]);
  assert.equal(second.code, 0, second.stderr);
  assert.ok(second.stdout.includes(`kept     ${env.home}/agents/assistant.md (exists)`));
  assert.equal(await Deno.readTextFile(`${env.home}/agents/assistant.md`), "mine");
});

Deno.test("the files of rienda init form a valid installation", async () => {
  await using env = await createTestEnv({ noConfig: true, noAgent: true });
  assert.equal((await env.run(["init"])).code, 0);
  const agents = await env.run(["agents"], { env: { OPENAI_API_KEY: "sk-test" } });
  assert.equal(agents.code, 0, agents.stderr);
  assert.match(agents.stdout, /^assistant +openai\/gpt-5 \(key found\) +A careful assistant/);
  const doctor = await env.run(["doctor", "--offline"], { env: { OPENAI_API_KEY: "sk-test" } });
  assert.equal(doctor.code, 0, doctor.stdout);
  assert.match(doctor.stdout, /^ok +extensions +1 tool, 1 hook$/m);
});

Deno.test("rienda doctor passes on a working installation and reaches the provider without a key", async () => {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  const result = await env.run(["doctor"]);
  assert.equal(result.code, 0, result.stdout);
  assertNoAnsi(result.stdout);
  assert.match(result.stdout, /^rienda \d+\.\d+\.\d+ \(deno /);
  assert.match(result.stdout, new RegExp(`^ok +config +${env.configPath}$`, "m"));
  assert.match(result.stdout, /^ok +agents +1 agent in /m);
  assert.match(result.stdout, /^ok +provider +fake: .*reachable \(HTTP 404\)$/m);
  assert.equal(provider.requests.length, 1);
  assert.equal(provider.requests[0]?.headers["authorization"], undefined);
  assert.ok(!result.stdout.includes("test-key"), "a key was printed");
});

Deno.test("rienda doctor checks the project's agent folders too, and fails on a broken file there", async () => {
  await using env = await createTestEnv();
  await Deno.mkdir(`${env.workdir}/.git`);
  await env.writeFile(
    "workspace/.claude/agents/reviewer.md",
    "---\nname: reviewer\ndescription: Reviews code.\ntools: Read, Grep\n---\nReview.\n",
  );
  await env.writeFile("workspace/.claude/agents/broken.md", "---\ndescription: [unclosed\n---\n");
  const sub = `${env.workdir}/src`;
  await Deno.mkdir(sub);
  const result = await env.run(["doctor", "--offline"], { cwd: sub });
  assert.equal(result.code, 1, result.stdout);
  assert.match(
    result.stdout,
    /^fail +agents +1 agent in \S+ \(and 1 in \.claude\/agents of the project\) and the built-in default, 1 broken$/m,
  );
  assert.match(result.stdout, /broken\.md/);
});

Deno.test("rienda doctor fails with the config error and the missing key", async () => {
  await using env = await createTestEnv();
  await env.writeConfig("providers:\n  work:\n    protocol: anthropic\n    base_url: 42\n");
  const broken = await env.run(["doctor", "--offline"]);
  assert.equal(broken.code, 1);
  assert.match(broken.stdout, /^fail +config +config.yaml does not load$/m);
  assert.match(broken.stdout, /providers\.work\.base_url/);

  await env.writeConfig("providers:\n  work:\n    preset: anthropic\n");
  const missing = await env.run(["doctor", "--offline"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /^fail +provider +work: .*ANTHROPIC_API_KEY/m);
});

Deno.test("rienda doctor fails on a broken tool and names it", async () => {
  await using env = await createTestEnv();
  await env.writeTool("broken", "module.exports = { description: 'x' };");
  const result = await env.run(["doctor", "--offline"]);
  assert.equal(result.code, 1, result.stdout);
  assert.match(result.stdout, /^fail +extensions +0 tools, 0 hooks, 1 broken$/m);
  assert.match(result.stdout, /tool "broken": /);
});
