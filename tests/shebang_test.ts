import assert from "node:assert/strict";
import { sessionIdOf } from "./harness/assertions.ts";
import { agentText, createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { promptOf, systemPromptOf, toolNamesOf } from "./harness/wire.ts";

const SHEBANG = "#!/usr/bin/env -S rienda run -f";

Deno.test("an executable agent file with a shebang line runs with the given prompt", async () => {
  await using provider = await startFakeProvider([{ text: "looks good" }]);
  await using env = await createTestEnv({ provider });
  const PATH = await env.installWrapper();
  const text = `${SHEBANG}\n${
    agentText({ description: "Reviews.", tools: ["shell"] }, "You review diffs.")
  }`;
  await Deno.writeTextFile(`${env.workdir}/review.md`, text, { mode: 0o755 });
  await Deno.chmod(`${env.workdir}/review.md`, 0o755);
  const result = await env.exec("./review.md", ["check the diff"], { env: { PATH } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "looks good\n");
  assert.equal(provider.requests.length, 1);
  assert.equal(promptOf(provider.requests[0]), "check the diff");
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(system.includes("You review diffs."), system);
  assert.ok(!system.includes("#!") && !system.includes("env -S"), system);
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["shell"]);
  const header = (await env.readSession(sessionIdOf(result.stderr)))[0];
  assert.equal(header?.agent, "review");
  assert.equal(header?.workdir, env.workdir);
});

Deno.test("a shebang agent file reads its prompt from a pipe", async () => {
  await using provider = await startFakeProvider([{ text: "piped ok" }]);
  await using env = await createTestEnv({ provider });
  const PATH = await env.installWrapper();
  await env.writeFile(
    "bin-agents/summarise.md",
    `${SHEBANG}\n${agentText({ description: "Summarises." }, "You summarise.")}`,
    0o755,
  );
  const result = await env.exec(`${env.root}/bin-agents/summarise.md`, [], {
    env: { PATH },
    stdin: "summarise this text",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "piped ok\n");
  assert.equal(promptOf(provider.requests[0]), "summarise this text");
});

Deno.test("an agent file with a shebang line also runs through run -f", async () => {
  await using provider = await startFakeProvider([{ text: "plain ok" }]);
  await using env = await createTestEnv({ provider });
  const path = await env.writeFile(
    "review.md",
    `${SHEBANG}\n${agentText({ description: "Reviews." }, "You review.")}`,
  );
  const result = await env.run(["run", "-f", path, "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "plain ok\n");
  assert.ok(!systemPromptOf(provider.requests[0]).includes("#!"));
});

Deno.test("./agent.md --help shows the agent's description, model and tools, and the run flags", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const PATH = await env.installWrapper();
  const text = `${SHEBANG}\n${
    agentText(
      {
        description: "Reviews the staged diff for bugs.",
        model: "fake/m",
        tools: ["read", "grep"],
      },
      "You review diffs.",
    )
  }`;
  await Deno.writeTextFile(`${env.workdir}/review.md`, text, { mode: 0o755 });
  await Deno.chmod(`${env.workdir}/review.md`, 0o755);
  for (const flag of ["--help", "-h"]) {
    const result = await env.exec("./review.md", [flag], { env: { PATH } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    const lines = result.stdout.split("\n");
    // The kernel passes the path as the caller gave it (Deno.Command makes it absolute).
    assert.match(
      lines[0] ?? "",
      /^Usage: (\S*)\/review\.md \[PROMPT\.\.\.\] \[options\] {3}\(rienda run -f \1\/review\.md\)$/,
    );
    assert.ok(lines.includes("Reviews the staged diff for bugs."), result.stdout);
    assert.ok(lines.includes("model: fake/m"), result.stdout);
    assert.ok(lines.includes("tools: read, grep"), result.stdout);
    for (const option of ["--prompt", "--model", "--output", "--no-session", "--continue"]) {
      assert.ok(result.stdout.includes(option), `${option} missing: ${result.stdout}`);
    }
    assert.ok(!result.stdout.includes("--agent-file"), result.stdout);
  }
  assert.equal(provider.requests.length, 0);
});

Deno.test("./agent.md --help on a broken agent file names the problem", async () => {
  await using env = await createTestEnv();
  const PATH = await env.installWrapper();
  await Deno.writeTextFile(`${env.workdir}/broken.md`, `${SHEBANG}\n---\ntols: [x]\n---\nhi\n`, {
    mode: 0o755,
  });
  await Deno.chmod(`${env.workdir}/broken.md`, 0o755);
  const result = await env.exec("./broken.md", ["--help"], { env: { PATH } });
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^rienda: .*broken\.md/m);
});
