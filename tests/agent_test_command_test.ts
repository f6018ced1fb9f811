import assert from "node:assert/strict";
import { lastLine, linesOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";

/** Refuses every shell command that mentions rm. */
const GUARD = `module.exports = {
  beforeToolExecute: function (ctx, call) {
    if (call.name === "shell" && /\\brm\\b/.test(String(call.arguments.command))) {
      return { allow: false, reason: "no deleting" };
    }
  },
};
`;

const PASSING = `agent: careful
prompt: "fix the notes"
workspace: fixtures/repo
expect:
  exit: 0
  stdout: { contains: "Fixed" }
  tools: [shell, shell]
  refused: [shell]
  files:
    notes.txt: { equals: "fixed\\n" }
    kept.txt: { matches: "^keep" }
`;

const PASSING_TURNS: readonly Turn[] = [
  { toolCalls: [{ name: "shell", arguments: { command: "rm kept.txt" } }] },
  { toolCalls: [{ name: "shell", arguments: { command: "echo fixed > notes.txt" } }] },
  { text: "Fixed the notes." },
];

const FAILING = `agent: careful
prompt: "say hi"
expect:
  stdout: { equals: "bye" }
  tools: [read]
`;

/** An environment with the agent `careful` (shell, guarded), a fixture and two cases. */
async function project(): Promise<TestEnv> {
  const env = await createTestEnv();
  await env.writeHook("guard", GUARD);
  await env.writeAgent("careful", { description: "Careful.", tools: ["shell"], hooks: ["guard"] });
  await env.writeFile("workspace/agent-tests/fixtures/repo/notes.txt", "draft\n");
  await env.writeFile("workspace/agent-tests/fixtures/repo/kept.txt", "keep me\n");
  await env.writeFile("workspace/agent-tests/notes.test.yaml", PASSING);
  await env.writeFile("workspace/agent-tests/greeting.test.yaml", FAILING);
  return env;
}

/** Records the case at `path` (relative to the workspace) on a provider playing `turns`. */
async function record(env: TestEnv, path: string, turns: readonly Turn[]) {
  await using provider = await startFakeProvider(turns);
  await env.writeConfig(defaultConfig(provider.url));
  const result = await env.run(["test", "--record", path]);
  await env.writeConfig(defaultConfig("http://127.0.0.1:1/v1"));
  return { result, requests: provider.requests.length };
}

Deno.test("rienda test --record writes the missing cassettes live, then rienda test replays them offline", async () => {
  await using env = await project();
  const first = await record(env, "agent-tests/notes.test.yaml", PASSING_TURNS);
  assert.equal(first.result.code, 0, first.result.stderr + first.result.stdout);
  assert.equal(first.requests, 3);
  assert.match(
    first.result.stdout,
    /^ok {4}agent-tests\/notes\.test\.yaml \(\d+\.\d s, recorded\)$/m,
  );
  assert.equal(lastLine(first.result.stdout), "1 passed, 0 failed");
  const cassette = await Deno.readTextFile(`${env.workdir}/agent-tests/notes.cassette.jsonl`);
  assert.ok(!cassette.includes("test-key"));
  // The fixture itself is untouched: each case runs on a copy.
  assert.equal(
    await Deno.readTextFile(`${env.workdir}/agent-tests/fixtures/repo/notes.txt`),
    "draft\n",
  );

  // A second --record leaves existing cassettes alone (no provider is running now).
  const again = await env.run(["test", "--record", "agent-tests/notes.test.yaml"]);
  assert.equal(again.code, 0, again.stdout);
  assert.doesNotMatch(again.stdout, /recorded/);

  const greeting = await record(env, "agent-tests/greeting.test.yaml", [{ text: "hi" }]);
  assert.equal(greeting.result.code, 1);

  const offline = await env.run(["test", "--junit", "report.xml"]);
  assert.equal(offline.code, 1, offline.stderr);
  assert.deepEqual(linesOf(offline.stdout).map((line) => line.replace(/\(\d+\.\d s\)/, "(T)")), [
    "FAIL  agent-tests/greeting.test.yaml (T)",
    '      stdout equals: expected "bye", actual "hi\\n"',
    '      tools: expected ["read"], actual []',
    "ok    agent-tests/notes.test.yaml (T)",
    "1 passed, 1 failed",
  ]);
  assert.equal(offline.stderr, "");
  const report = await Deno.readTextFile(`${env.workdir}/report.xml`);
  assert.match(report, /^<\?xml version="1\.0" encoding="UTF-8"\?>/);
  assert.match(report, /<testsuite name="rienda test" tests="2" failures="1" errors="0"/);
  assert.match(
    report,
    /<testcase classname="rienda test" name="agent-tests\/notes\.test\.yaml" time="[\d.]+"\/>/,
  );
  assert.match(
    report,
    /<testcase classname="rienda test" name="agent-tests\/greeting\.test\.yaml" time="[\d.]+">\n {6}<failure message="stdout equals: expected &quot;bye&quot;, actual &quot;hi\\n&quot;">/,
  );

  const one = await env.run(["test", "agent-tests/notes.test.yaml"]);
  assert.equal(one.code, 0, one.stdout);
  assert.equal(lastLine(one.stdout), "1 passed, 0 failed");
});

Deno.test("rienda test --record=all records every case again", async () => {
  await using env = await project();
  await Deno.remove(`${env.workdir}/agent-tests/greeting.test.yaml`);
  await record(env, "agent-tests/notes.test.yaml", PASSING_TURNS);
  await using provider = await startFakeProvider([{ text: "Fixed, without tools." }]);
  await env.writeConfig(defaultConfig(provider.url));
  const all = await env.run(["test", "--record=all"]);
  assert.equal(all.code, 1, all.stdout);
  assert.equal(provider.requests.length, 1);
  assert.match(all.stdout, /FAIL {2}agent-tests\/notes\.test\.yaml \(\d+\.\d s, recorded\)/);
  assert.match(all.stdout, /tools: expected \["shell","shell"\], actual \[\]/);
});

Deno.test("a case whose cassette is missing, whose file is broken or whose args are wrong fails with its reason", async () => {
  await using env = await project();
  await env.writeFile(
    "workspace/agent-tests/broken.test.yaml",
    "agent: careful\nprompt: go\nexpect:\n  stdot: { contains: x }\n",
  );
  await env.writeFile(
    "workspace/agent-tests/flags.test.yaml",
    "prompt: go\ncassette: notes.cassette.jsonl\nargs: [--max-turns, zero]\n",
  );
  await record(env, "agent-tests/notes.test.yaml", PASSING_TURNS);
  const result = await env.run(["test"]);
  assert.equal(result.code, 1);
  const lines = linesOf(result.stdout);
  assert.ok(
    lines.includes(
      `      ${env.workdir}/agent-tests/broken.test.yaml:4: expect.stdot is not a field here (known: exit, stdout, tools, refused, files)`,
    ),
    result.stdout,
  );
  assert.ok(
    lines.includes(
      `      cassette ${env.workdir}/agent-tests/greeting.cassette.jsonl is missing: record it with rienda test --record ${env.workdir}/agent-tests/greeting.test.yaml`,
    ),
    result.stdout,
  );
  assert.ok(
    lines.some((line) =>
      line.startsWith(
        '      exit: expected 0, actual 2 (rienda: --max-turns must be a positive integer (found "zero"))',
      )
    ),
    result.stdout,
  );
  assert.equal(lastLine(result.stdout), "1 passed, 3 failed");
});

Deno.test("rienda test without agent-tests/ says where to put cases", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["test"]);
  assert.equal(result.code, 1);
  assert.equal(
    lastLine(result.stderr),
    `rienda: no agent-tests/ folder in ${env.workdir}: write cases there (rienda init --test writes an example) or pass case files`,
  );
});

Deno.test("an interrupted rienda test stops its cases and exits 130", async () => {
  await using env = await project();
  await Deno.remove(`${env.workdir}/agent-tests/greeting.test.yaml`);
  await record(env, "agent-tests/notes.test.yaml", [
    {
      toolCalls: [{ name: "shell", arguments: { command: `touch ${env.root}/started; sleep 1` } }],
    },
    { text: "Fixed." },
  ]);
  await Deno.remove(`${env.root}/started`);
  const path = `${env.workdir}/agent-tests/notes.cassette.jsonl`;
  await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("sleep 1", "sleep 30"));
  await using child = await env.start(["test"]);
  // The case's run keeps its output to itself: wait until its shell started.
  await waitForFile(`${env.root}/started`);
  const signalled = performance.now();
  child.kill("SIGINT");
  const result = await child.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - signalled < 5_000, "the interrupt took too long");
  assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
  assert.equal(lastLine(result.stdout), "0 passed, 0 failed");
});

/** Waits until `path` exists. */
async function waitForFile(path: string): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (!(await Deno.stat(path).then(() => true, () => false))) {
    if (performance.now() > deadline) throw new Error(`${path} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("rienda init --test writes an example case that records and then passes offline", async () => {
  await using env = await createTestEnv();
  const init = await env.run(["init", "--test"]);
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /created {2}.*\/agent-tests\/assistant\.test\.yaml/);
  const missing = await env.run(["test"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /cassette .*assistant\.cassette\.jsonl is missing/);
  const recorded = await record(env, "agent-tests", [
    { toolCalls: [{ name: "word-count", arguments: { path: "notes.txt" } }] },
    { text: "4" },
  ]);
  assert.equal(recorded.result.code, 0, recorded.result.stdout);
  const offline = await env.run(["test"]);
  assert.equal(offline.code, 0, offline.stdout);
  assert.equal(lastLine(offline.stdout), "1 passed, 0 failed");
  const again = await env.run(["init", "--test"]);
  assert.match(again.stdout, /kept {5}.*\/agent-tests\/assistant\.test\.yaml \(exists\)/);
});

Deno.test("a files expectation never reads through a link the run left to a file outside the workspace", async () => {
  await using env = await createTestEnv();
  await env.writeFile("outside/secret.txt", "do not show me\n");
  await env.writeFile(
    "workspace/agent-tests/leak.test.yaml",
    'prompt: go\nexpect:\n  files:\n    leak.txt: { equals: "x" }\n    ../../outside/secret.txt: { equals: "x" }\n',
  );
  const recorded = await record(env, "agent-tests/leak.test.yaml", [
    {
      toolCalls: [{
        name: "shell",
        arguments: { command: `ln -s ${env.root}/outside/secret.txt leak.txt` },
      }],
    },
    { text: "linked" },
  ]);
  assert.equal(recorded.result.code, 1);
  assert.ok(!recorded.result.stdout.includes("do not show me"), recorded.result.stdout);
  assert.ok(
    linesOf(recorded.result.stdout).includes(
      '      files["leak.txt"] equals: expected "x", actual no such file in the workspace',
    ),
    recorded.result.stdout,
  );
  assert.ok(
    linesOf(recorded.result.stdout).includes(
      '      files["../../outside/secret.txt"] equals: expected "x", actual no such file in the workspace',
    ),
    recorded.result.stdout,
  );
});
