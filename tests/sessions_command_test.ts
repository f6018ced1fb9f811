import assert from "node:assert/strict";
import { lastLine, linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";

async function started(env: TestEnv, args: string[]): Promise<string> {
  const result = await env.run(["run", ...args]);
  assert.equal(result.code, 0, result.stderr);
  return sessionIdOf(result.stderr);
}

/**
 * The columns of a `sessions` line: id, agent, model, age, title. The listing
 * shows short ids (an end of the id, at least 4 characters): `id` is the one
 * of `ids` it names.
 */
function columns(
  line: string,
  ids: readonly string[],
): { id: string; agent: string; model: string; rest: string } {
  const [short = "", agent = "", model = "", ...rest] = line.split(/\s{2,}/);
  const named = ids.filter((id) => short.length >= 4 && id.endsWith(short));
  assert.equal(named.length, 1, `"${short}" names ${named.length} of ${ids.join(", ")}`);
  return { id: named[0] ?? short, agent, model, rest: rest.join("  ") };
}

Deno.test("rienda sessions lists the workspace's sessions newest first with agent, model, age and title", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("reviewer", { description: "Reviews." });
  const long = `review   the\n\ndiff ${"x".repeat(100)}`;
  const first = await started(env, ["-a", "coder", "first prompt"]);
  const second = await started(env, ["-a", "reviewer", "-m", "fake/other", long]);
  const result = await env.run(["sessions"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  // The age is "just now" on a quiet machine; a loaded one may take seconds between the runs
  // (formatAge itself is unit-tested in src/cli/sessions_test.ts).
  const lines = linesOf(result.stdout).map((line) => line.replace(/\b\d+s ago\b/, "just now"));
  assert.equal(lines.length, 2);
  assert.deepEqual(columns(lines[0] ?? "", [first, second]), {
    id: second,
    agent: "reviewer",
    model: "fake/other",
    rest: `just now  ${`review the diff ${"x".repeat(100)}`.slice(0, 80)}`,
  });
  assert.deepEqual(columns(lines[1] ?? "", [first, second]), {
    id: first,
    agent: "coder",
    model: "fake/m",
    rest: "just now  first prompt",
  });

  // Continuing the older session makes it the newest.
  const continued = await env.run(["run", "-s", first, "again"]);
  assert.equal(continued.code, 0, continued.stderr);
  const after = linesOf((await env.run(["sessions", "list"])).stdout);
  assert.deepEqual(after.map((line) => columns(line, [first, second]).id), [first, second]);
});

Deno.test("rienda sessions shows a title entry instead of the first prompt", async () => {
  await using provider = await startFakeProvider([{ text: "a" }]);
  await using env = await createTestEnv({ provider });
  const id = await started(env, ["-a", "coder", "first prompt"]);
  const [path = ""] = await env.sessionFiles();
  const lines = await env.readSession(path);
  const last = lines.at(-1);
  const title = {
    kind: "title",
    id: "t1",
    parentId: last?.id,
    createdAt: new Date().toISOString(),
    title: "Release prep",
  };
  await Deno.writeTextFile(path, `${JSON.stringify(title)}\n`, { append: true });
  const result = await env.run(["sessions"]);
  assert.equal(result.code, 0, result.stderr);
  // One session: its short id is its last 4 characters.
  assert.match(
    result.stdout,
    new RegExp(`^${id.slice(-4)}\\s+coder\\s+fake/m\\s+\\S.*\\s+Release prep\\n$`),
  );
});

Deno.test("rienda sessions -C DIR lists another workspace's sessions", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  const other = await env.makeDir("other");
  const here = await started(env, ["-a", "coder", "here"]);
  const there = await started(env, ["-a", "coder", "-C", other, "there"]);
  const local = await env.run(["sessions"]);
  assert.deepEqual(linesOf(local.stdout).map((line) => columns(line, [here, there]).id), [here]);
  const remote = await env.run(["sessions", "-C", other]);
  assert.equal(remote.code, 0, remote.stderr);
  assert.deepEqual(linesOf(remote.stdout).map((line) => columns(line, [here, there]).id), [there]);
  const fromThere = await env.run(["sessions", "list"], { cwd: other });
  assert.deepEqual(linesOf(fromThere.stdout).map((line) => columns(line, [here, there]).id), [
    there,
  ]);
});

Deno.test("rienda sessions in a workspace without sessions prints nothing on stdout and exits 0", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["sessions"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^no sessions in /);
});

Deno.test("rienda sessions show prints the transcript: prompts, answers, tool calls and results", async () => {
  await using provider = await startFakeProvider([
    { text: "Looking.", toolCalls: [{ name: "shell", arguments: { command: "echo listed" } }] },
    { text: "One file." },
  ]);
  await using env = await createTestEnv({ provider });
  const id = await started(env, ["-a", "coder", "list the files"]);
  const result = await env.run(["sessions", "show", id.slice(0, 12)]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout.slice(result.stdout.indexOf("\n\n") + 2),
    [
      "── user ──",
      "list the files",
      "",
      "── assistant (fake-model) ──",
      "Looking.",
      'tool call shell {"command":"echo listed"}',
      "",
      "── tool results ──",
      "shell:",
      "listed",
      "",
      "── assistant (fake-model) ──",
      "One file.",
      "",
    ].join("\n"),
  );
  assert.ok(result.stdout.startsWith(`session ${id}\nagent coder, model fake/m, started `));
});

Deno.test("rienda sessions show and rm of an unknown id fail with exit 1", async () => {
  await using env = await createTestEnv();
  for (const command of ["show", "rm"]) {
    const result = await env.run(["sessions", command, "nope"]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, "");
    assert.equal(
      lastLine(result.stderr),
      'rienda: no session "nope" in this workspace (rienda sessions lists them)',
    );
  }
});

Deno.test("rienda sessions rm deletes one session", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  const keep = await started(env, ["-a", "coder", "keep"]);
  const drop = await started(env, ["-a", "coder", "drop"]);
  const result = await env.run(["sessions", "rm", drop]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `removed session ${drop}\n`);
  const files = await env.sessionFiles();
  assert.equal(files.length, 1);
  assert.ok(files[0]?.endsWith(`/${keep}.jsonl`));
  const listed = await env.run(["sessions"]);
  assert.deepEqual(linesOf(listed.stdout).map((line) => columns(line, [keep, drop]).id), [keep]);
});

for (
  const args of [["sessions", "--help"], ["sessions", "show", "--help"], ["sessions", "rm", "-h"]]
) {
  Deno.test(`rienda ${args.join(" ")} prints help with examples on stdout`, async () => {
    await using env = await createTestEnv();
    const result = await env.run(args);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /Examples:\n {2}rienda sessions/);
  });
}

Deno.test("rienda sessions show without an id is a usage error", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["sessions", "show"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(lastLine(result.stderr), /^rienda: .*id/);
});
