import assert from "node:assert/strict";
import { checkSession, linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, DEFAULT_AGENT_BODY } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { isRecord } from "./harness/json.ts";
import { systemPromptOf } from "./harness/wire.ts";

Deno.test("AGENTS.md is added after the agent body, labelled with its file name", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/AGENTS.md", "Always use tabs.\n");
  await env.writeFile("workspace/CLAUDE.md", "Never read me.\n");
  const result = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(system.startsWith(`${DEFAULT_AGENT_BODY}\n\n`), system);
  assert.ok(system.includes("AGENTS.md"), system);
  assert.ok(
    system.includes(
      '<project-instructions file="AGENTS.md">\nAlways use tabs.\n</project-instructions>',
    ),
    system,
  );
  assert.ok(!system.includes("Never read me."), system);
});

Deno.test("CLAUDE.md is used when there is no AGENTS.md", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/CLAUDE.md", "Prefer small diffs.\n");
  const result = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(
    systemPromptOf(provider.requests[0]).includes(
      '<project-instructions file="CLAUDE.md">\nPrefer small diffs.\n</project-instructions>',
    ),
  );
});

Deno.test("instructions come from the -C workspace, not the current directory", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const other = await env.makeDir("other");
  await env.writeFile("other/AGENTS.md", "Other rules.\n");
  await env.writeFile("workspace/AGENTS.md", "Local rules.\n");
  const result = await env.run(["run", "-a", "coder", "-C", other, "hi"]);
  assert.equal(result.code, 0, result.stderr);
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(system.includes("Other rules."), system);
  assert.ok(!system.includes("Local rules."), system);
});

Deno.test("without instructions or skills the system prompt is the agent body alone", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(systemPromptOf(provider.requests[0]), DEFAULT_AGENT_BODY);
});

Deno.test("skills are listed by name, description and path, and their bodies are never inlined", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile(
    "workspace/.agents/skills/release/SKILL.md",
    "---\nname: release\ndescription: Cuts a release of the project.\n---\nSECRET-STEPS\n",
  );
  await env.writeFile(
    "workspace/.agents/skills/db-migrate/SKILL.md",
    "---\nname: db-migrate\ndescription: Writes a database migration.\n---\nMORE-STEPS\n",
  );
  const result = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(
    system.includes(
      "- db-migrate: Writes a database migration. (file: .agents/skills/db-migrate/SKILL.md)\n" +
        "- release: Cuts a release of the project. (file: .agents/skills/release/SKILL.md)",
    ),
    system,
  );
  assert.match(system, /read its file/);
  assert.ok(!system.includes("SECRET-STEPS") && !system.includes("MORE-STEPS"), system);
  assert.deepEqual(linesOf(result.stderr), [`session: ${sessionIdOf(result.stderr)}`]);
});

Deno.test("broken skills are diagnostics printed once after the session line", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "true" } }] },
    { text: "ok" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/.agents/skills/lint/SKILL.md", "---\nname: lint\n---\nbody\n");
  await env.writeFile(
    "workspace/.agents/skills/deploy/SKILL.md",
    "---\nname: ship\ndescription: Deploys.\n---\n",
  );
  await env.writeFile("workspace/.agents/skills/notes/SKILL.md", "---\ndescription: Notes.\n---\n");
  const result = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  const id = sessionIdOf(result.stderr);
  assert.deepEqual(linesOf(result.stderr).slice(0, 4), [
    `session: ${id}`,
    'skill "deploy": name "ship" does not match its folder (rename one to the other) (.agents/skills/deploy/SKILL.md)',
    'skill "lint": missing description (the skill is left out until it has one) (.agents/skills/lint/SKILL.md)',
    'skill "notes": missing name (add "name: notes") (.agents/skills/notes/SKILL.md)',
  ]);
  assert.equal(result.stderr.split('skill "lint"').length, 2, "a diagnostic was repeated");
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(system.includes("- ship: Deploys."), system);
  assert.ok(system.includes("- notes: Notes."), system);
  assert.ok(!system.includes("- lint"), system);
  const stored = JSON.stringify(checkSession(await env.readSession(id)).entries);
  assert.ok(!stored.includes("missing description"), "a diagnostic was stored");
});

Deno.test("stream-json carries skill diagnostics in run_start", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/.agents/skills/lint/SKILL.md", "---\nname: lint\n---\n");
  const result = await env.run(["run", "-a", "coder", "--output", "stream-json", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  const first: unknown = JSON.parse(linesOf(result.stdout)[0] ?? "");
  assert.ok(isRecord(first) && first.type === "run_start", result.stdout);
  assert.deepEqual(first.diagnostics, [
    'skill "lint": missing description (the skill is left out until it has one) (.agents/skills/lint/SKILL.md)',
  ]);
});

Deno.test("edits to instructions and skills apply to the next run, also when continuing", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/AGENTS.md", "Version one.\n");
  const first = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(first.code, 0, first.stderr);
  await env.writeFile("workspace/AGENTS.md", "Version two.\n");
  await env.writeFile(
    "workspace/.agents/skills/new/SKILL.md",
    "---\nname: new\ndescription: A new skill.\n---\n",
  );
  const second = await env.run(["run", "-c", "again"]);
  assert.equal(second.code, 0, second.stderr);
  const before = systemPromptOf(provider.requests[0]);
  const after = systemPromptOf(provider.requests[1]);
  assert.ok(before.includes("Version one.") && !before.includes("A new skill."), before);
  assert.ok(after.includes("Version two.") && after.includes("- new: A new skill."), after);
  assert.ok(!after.includes("Version one."), after);
});

Deno.test("instructions come from every folder from the project root down to the workspace, root first", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }, { text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.makeDir("workspace/.git");
  const deep = await env.makeDir("workspace/packages/api");
  await env.writeFile("workspace/AGENTS.md", "Root rules.\n");
  await env.writeFile("workspace/packages/CLAUDE.md", "Package rules.\n");
  await env.writeFile("workspace/packages/api/AGENTS.md", "API rules.\n");
  await env.writeFile("AGENTS.md", "Above the project: never read.\n");
  const result = await env.run(["run", "-a", "coder", "hi"], { cwd: deep });
  assert.equal(result.code, 0, result.stderr);
  const system = systemPromptOf(provider.requests[0]);
  const blocks = [
    '<project-instructions file="../../AGENTS.md">\nRoot rules.\n</project-instructions>',
    '<project-instructions file="../CLAUDE.md">\nPackage rules.\n</project-instructions>',
    '<project-instructions file="AGENTS.md">\nAPI rules.\n</project-instructions>',
  ];
  assert.ok(system.includes(blocks.join("\n")), system);
  assert.ok(!system.includes("never read"), system);
  // Without .git the workspace is the project: only its own file counts.
  await Deno.remove(`${env.workdir}/.git`);
  const alone = await env.run(["run", "-a", "coder", "hi"], { cwd: deep });
  assert.equal(alone.code, 0, alone.stderr);
  const own = systemPromptOf(provider.requests[1]);
  assert.ok(own.includes('<project-instructions file="AGENTS.md">\nAPI rules.'), own);
  assert.ok(!own.includes("Root rules.") && !own.includes("Package rules."), own);
});

Deno.test("an AGENTS.md over 256 KiB and a SKILL.md over 1 MiB are left out with a diagnostic, read no further", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/AGENTS.md", `# Rules\n${"Always be careful. ".repeat(20_000)}\n`);
  await env.writeFile(
    "workspace/.agents/skills/big/SKILL.md",
    `---\nname: big\ndescription: Big.\n---\n${"x".repeat(1_100_000)}\n`,
  );
  const result = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /instructions: .*AGENTS\.md is larger than 256 KiB, so it was left out \(keep instructions short\)/,
  );
  assert.match(result.stderr, /skill "big": the file is larger than 1 MiB, so it was left out/);
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(!system.includes("Always be careful"), "the oversized instructions were sent");
  assert.ok(!system.includes("- big"), system);
});

async function mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(made.success, new TextDecoder().decode(made.stderr));
}

Deno.test("an AGENTS.md or CLAUDE.md that leads out of the project is left out with a diagnostic naming the link", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await env.makeDir("workspace/.git");
  const key = await env.writeFile("user/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
  const sub = await env.makeDir("workspace/sub");
  await Deno.symlink(key, `${env.workdir}/AGENTS.md`);
  await Deno.symlink("../../user/.ssh/id_rsa", `${sub}/CLAUDE.md`);
  await env.writeFile("workspace/docs/RULES.md", "Inside rules.\n");
  await Deno.symlink("../docs/RULES.md", `${sub}/AGENTS.md`);
  const result = await env.run(["run", "-a", "coder", "hi"], { cwd: sub });
  assert.equal(result.code, 0, result.stderr);
  const system = systemPromptOf(provider.requests[0]);
  assert.ok(!system.includes("PRIVATE KEY"), system);
  assert.ok(system.includes('<project-instructions file="AGENTS.md">\nInside rules.'), system);
  assert.ok(
    result.stderr.includes(
      `instructions: ${env.workdir}/AGENTS.md leads to ${key}, outside the project ${env.workdir}, so it was left out`,
    ),
    result.stderr,
  );
});

Deno.test("a named pipe in place of AGENTS.md or a SKILL.md never blocks the start", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await mkfifo(`${env.workdir}/AGENTS.md`);
  await env.writeFile("workspace/CLAUDE.md", "Claude rules.\n");
  await env.makeDir("workspace/.agents/skills/pipe");
  await mkfifo(`${env.workdir}/.agents/skills/pipe/SKILL.md`);
  const result = await env.run(["run", "-a", "coder", "hi"], { timeoutMs: 20_000 });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(
    result.stderr.includes(
      `instructions: ${env.workdir}/AGENTS.md is not a regular file, so it was left out`,
    ),
    result.stderr,
  );
  assert.match(result.stderr, /skill "pipe": the file is not a regular file, so it was left out/);
  assert.ok(systemPromptOf(provider.requests[0]).includes("Claude rules."));
});
