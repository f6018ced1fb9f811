import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { systemPromptOf, toolNamesOf } from "./harness/wire.ts";

/**
 * The corpus of agent files written for other tools (tests/testdata/agent_dialects):
 * Claude Code subagents in `.claude/agents/`, opencode agents in
 * `.opencode/agent/`, Anthropic plugin agents copied into the rienda home.
 * Every file loads, with exactly the warnings of expected.json, and runs
 * with the tools it maps to.
 */
const CORPUS = join(dirname(fileURLToPath(import.meta.url)), "testdata", "agent_dialects");

interface Expected {
  readonly tools: readonly string[];
  readonly warnings: readonly string[];
  readonly runWarnings?: readonly string[];
  readonly temperature?: number;
}

const EXPECTED: Readonly<Record<string, Expected>> = JSON.parse(
  await Deno.readTextFile(join(CORPUS, "expected.json")),
);

/** Where each folder of the corpus goes, relative to the test root. */
function target(env: TestEnv, file: string): string {
  const [dialect = "", name = ""] = file.split("/");
  const dir = dialect === "claude"
    ? join(env.workdir, ".claude", "agents")
    : dialect === "opencode"
    ? join(env.workdir, ".opencode", "agent")
    : join(env.home, "agents");
  return join(dir, name);
}

async function corpusEnv(env: TestEnv): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const file of Object.keys(EXPECTED)) {
    const path = target(env, file);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.copyFile(join(CORPUS, file), path);
    paths.set(file, path);
  }
  return paths;
}

function warningLine(path: string, warning: string): string {
  return warning.startsWith(":") ? `${path}${warning}` : `${path}: ${warning}`;
}

Deno.test("every agent file of the corpus is listed, with exactly its warnings", async () => {
  await using env = await createTestEnv();
  const paths = await corpusEnv(env);
  const result = await env.run(["agents"]);
  assert.equal(result.code, 0, result.stderr);
  for (const file of Object.keys(EXPECTED)) {
    const id = basename(file, ".md");
    assert.match(result.stdout, new RegExp(`^${id} `, "m"), `${file} is not listed`);
  }
  const expected = Object.entries(EXPECTED).flatMap(([file, { warnings }]) =>
    warnings.map((warning) => `  ${warningLine(paths.get(file) ?? "", warning)}`)
  );
  const actual = result.stderr.split("\n").filter((line) => line.startsWith("  "));
  assert.deepEqual(actual.sort(), expected.sort());
  assert.match(result.stdout, /^silent-failure-hunter .*\(no tools\) +home$/m);
  assert.match(result.stdout, /^code-reviewer .* +\.claude\/agents \(untrusted\)$/m);
  assert.match(result.stdout, /^review .* +\.opencode\/agent \(untrusted\)$/m);
  assert.match(result.stdout, /^no-description .* \(no description\) +\.opencode\/agent/m);
});

Deno.test("every agent file of the corpus runs with the tools it maps to, its notes left to rienda agents", async () => {
  const files = Object.keys(EXPECTED);
  await using provider = await startFakeProvider(files.map(() => ({ text: "ok" })));
  await using env = await createTestEnv({ provider });
  const paths = await corpusEnv(env);
  for (const [index, file] of files.entries()) {
    const expected = EXPECTED[file];
    assert.ok(expected !== undefined);
    const result = await env.run(["run", "-a", basename(file, ".md"), "-m", "fake/m", "hi"]);
    assert.equal(result.code, 0, `${file}: ${result.stderr}`);
    assert.equal(result.stdout, "ok\n", file);
    const request = provider.requests[index];
    assert.deepEqual(toolNamesOf(request), expected.tools, file);
    const path = paths.get(file) ?? "";
    // What a file sets that rienda ignores is for rienda agents and doctor, never a run's stderr.
    for (const warning of expected.warnings) {
      assert.ok(!result.stderr.includes(warningLine(path, warning)), `${file}: ${result.stderr}`);
    }
    for (const warning of expected.runWarnings ?? []) {
      assert.ok(result.stderr.includes(warningLine(path, warning)), `${file}: ${result.stderr}`);
    }
    const body = await Deno.readTextFile(join(CORPUS, file));
    const firstBodyLine = body.split("---\n")[2]?.trim().split("\n")[0] ?? "";
    assert.ok(systemPromptOf(request).startsWith(firstBodyLine), file);
    const sent = (request?.body as Record<string, unknown> | undefined)?.["temperature"];
    assert.equal(sent, expected.temperature, file);
  }
});
