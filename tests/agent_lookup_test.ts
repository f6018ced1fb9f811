import assert from "node:assert/strict";
import { assertNothingSent, lastLine } from "./harness/assertions.ts";
import { agentText, createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import type { Turn } from "./harness/turn.ts";
import { systemPromptOf, toolNamesOf } from "./harness/wire.ts";

Deno.test("-a finds project agents from a subfolder, .rienda first, and once trusted they shadow the home's", async () => {
  await using provider = await startFakeProvider([{ text: "1" }, { text: "2" }, { text: "3" }]);
  await using env = await createTestEnv({ provider });
  await env.makeDir("workspace/.git");
  assert.equal((await env.run(["trust"])).code, 0);
  const sub = await env.makeDir("workspace/src/deep");
  await env.writeFile(
    "workspace/.claude/agents/coder.md",
    agentText({ description: "Claude coder." }, "You are the Claude coder."),
  );
  await env.writeFile(
    "workspace/.rienda/agents/coder.md",
    agentText({ description: "Project coder.", tools: ["ls"] }, "You are the project coder."),
  );
  await env.writeFile(
    "workspace/.opencode/agent/helper.md",
    agentText({ description: "Helps." }, "You help."),
  );
  const run = await env.run(["run", "-a", "coder", "hi"], { cwd: sub });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(systemPromptOf(provider.requests[0]), "You are the project coder.");
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["ls"]);
  const helper = await env.run(["run", "-a", "helper", "hi"], { cwd: sub });
  assert.equal(helper.code, 0, helper.stderr);
  assert.equal(systemPromptOf(provider.requests[1]), "You help.");
  assert.deepEqual(
    toolNamesOf(provider.requests[1]),
    ["read", "write", "edit", "grep", "find", "ls", "shell"],
    "no tools: in a peer folder means the default agent's tools",
  );
  const listing = await env.run(["agents"], { cwd: sub });
  assert.equal(listing.code, 0, listing.stderr);
  assert.match(
    listing.stdout,
    new RegExp(
      `^coder +fake/m \\(default\\) +Project coder\\. +\\.rienda/agents \\(shadows ` +
        `${env.workdir}/\\.claude/agents/coder\\.md, ${env.home}/agents/coder\\.md\\)$`,
      "m",
    ),
  );
  assert.match(listing.stdout, /^helper .* +\.opencode\/agent$/m);
  // Outside the project (no .git upward) only the home's agents count.
  const other = await env.makeDir("elsewhere");
  const outside = await env.run(["run", "-a", "coder", "hi"], { cwd: other });
  assert.equal(outside.code, 0, outside.stderr);
  assert.equal(systemPromptOf(provider.requests[2]), "You answer briefly.");
});

Deno.test("-a accepts the name: of a file, and two files with that name are an error listing both", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("cr", { name: "code-reviewer", description: "Reviews." }, "You review.");
  const run = await env.run(["run", "-a", "code-reviewer", "hi"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(systemPromptOf(provider.requests[0]), "You review.");
  const second = await env.writeFile(
    "workspace/.claude/agents/reviewer2.md",
    agentText({ name: "code-reviewer", description: "Also reviews." }),
  );
  assert.equal((await env.run(["trust"])).code, 0, "an untrusted project cannot claim the name");
  const ambiguous = await env.run(["run", "-a", "code-reviewer", "hi"]);
  assert.equal(ambiguous.code, 1, ambiguous.stderr);
  const last = lastLine(ambiguous.stderr);
  assert.match(last, /^rienda: agent name "code-reviewer" is ambiguous: /);
  assert.ok(last.includes(second) && last.includes(`${env.home}/agents/cr.md`), last);
  assert.equal(provider.requests.length, 1, "nothing sent for the ambiguous name");
});

Deno.test("every unknown tool of an agent is named at once, each at its line", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const path = await env.writeAgentFile(
    "typos",
    "---\ndescription: Typos.\ntools:\n  - shell\n  - grpe\n  - Read\n  - fnd\n---\nBody.\n",
  );
  const result = await env.run(["run", "-a", "typos", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stderr.trimEnd().split("\n").slice(-2);
  assert.match(
    lines[0] ?? "",
    new RegExp(`^rienda: ${path}:5: tools: unknown tool "grpe" \\(available: `),
  );
  assert.match(lines[1] ?? "", new RegExp(`^${path}:7: tools: unknown tool "fnd" \\(available: `));
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("a key close to a rienda key fails with a suggestion; other unknown keys are one note of rienda agents and doctor, not of runs", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const typo = await env.writeAgentFile("typo", "---\ndescripton: x\ntools: [shell]\n---\nB\n");
  const failed = await env.run(["run", "-a", "typo", "hi"]);
  assert.equal(failed.code, 1);
  assert.ok(
    failed.stderr.includes(`${typo}:2: descripton: unknown key (did you mean \`description\`?)`),
    failed.stderr,
  );
  const path = await env.writeAgentFile(
    "odd",
    "---\ndescription: Odd.\nflavour: sweet\ncolor: red\n---\nB\n",
  );
  const run = await env.run(["run", "-a", "odd", "hi"]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(!run.stderr.includes("ignored"), `a run repeats the file's notes: ${run.stderr}`);
  const listing = await env.run(["agents"]);
  const notes = listing.stderr.split("\n").filter((line) => line.includes("ignored"));
  assert.deepEqual(notes, [`  ${path}: ignored unknown keys: flavour`], "color is cosmetic");
  const doctor = await env.run(["doctor", "--offline"]);
  assert.ok(doctor.stdout.includes(`${path}: ignored unknown keys: flavour`), doctor.stdout);
});

function shellTurn(command: string): Turn {
  return { toolCalls: [{ name: "shell", arguments: { command } }] };
}

Deno.test("max_turns, thinking and temperature of the frontmatter are the run's defaults", async () => {
  await using provider = await startFakeProvider([shellTurn("echo 1"), shellTurn("echo 2")]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url, "anthropic").replace(
      "        id: fake-model\n",
      "        id: fake-model\n        thinking_levels: [low, high]\n",
    ),
  );
  await env.writeAgent("bounded", {
    description: "Bounded.",
    tools: ["shell"],
    max_turns: 1,
    thinking: "low",
    temperature: 0.3,
  });
  const result = await env.run(["run", "-a", "bounded", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(provider.requests.length, 1, "max_turns: 1 stops after one model call");
  assert.ok(lastLine(result.stderr).includes("max-turns"), result.stderr);
  const body = provider.requests[0]?.body;
  assert.deepEqual(at(body, "thinking"), { type: "enabled", budget_tokens: 2048 });
  assert.equal(at(body, "temperature"), undefined, "dropped with thinking on anthropic");
  provider.push({ text: "ok" });
  const flags = await env.run([
    "run",
    "-a",
    "bounded",
    "--thinking",
    "off",
    "--max-turns",
    "3",
    "go",
  ]);
  assert.equal(flags.code, 0, flags.stderr);
  assert.equal(at(provider.requests.at(-1)?.body, "thinking"), undefined);
  assert.equal(at(provider.requests.at(-1)?.body, "temperature"), 0.3);
});
