import assert from "node:assert/strict";
import {
  assistantEntry,
  checkSession,
  sessionIdOf,
  userPromptEntry,
} from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";

function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

async function modeOf(path: string): Promise<number> {
  return ((await Deno.stat(path)).mode ?? 0) & 0o777;
}

/** Runs the coder agent on one scripted turn and returns the checked session. */
async function storedTurn(turn: Turn) {
  await using provider = await startFakeProvider([turn]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  return checkSession(await env.readSession(sessionIdOf(result.stderr)));
}

Deno.test("a run writes sessions/<project-id>/<session-id>.jsonl in 0700 folders as a 0600 file", async () => {
  await using provider = await startFakeProvider([{ text: "Hi." }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "hello"]);
  assert.equal(result.code, 0, result.stderr);
  const id = sessionIdOf(result.stderr);
  const files = await env.sessionFiles();
  assert.equal(files.length, 1);
  const file = files[0] ?? "";
  const projectDir = dirOf(file);
  assert.equal(file, `${projectDir}/${id}.jsonl`);
  assert.equal(dirOf(projectDir), `${env.home}/sessions`);
  assert.equal(await modeOf(file), 0o600);
  assert.equal(await modeOf(projectDir), 0o700);
  assert.equal(await modeOf(`${env.home}/sessions`), 0o700);
});

Deno.test("a session file holds the header and the chained messages of docs/formats.md", async () => {
  await using provider = await startFakeProvider([{ text: "Hi.", chunks: 2 }]);
  await using env = await createTestEnv({ provider });
  const before = Date.now();
  const result = await env.run(["run", "-a", "coder", "hello"]);
  assert.equal(result.code, 0, result.stderr);
  const id = sessionIdOf(result.stderr);
  const lines = await env.readSession(id);
  const { header, entries } = checkSession(lines);
  const { createdAt, ...rest } = header;
  assert.deepEqual(rest, {
    kind: "header",
    version: 1,
    id,
    agent: "coder",
    model: "fake/m",
    workdir: env.workdir,
  });
  assert.ok(Date.parse(String(createdAt)) >= before - 1000);
  assert.deepEqual(entries, [
    userPromptEntry("hello"),
    assistantEntry([{ type: "text", text: "Hi." }], "end_turn"),
  ]);
  const raw = await Deno.readTextFile((await env.sessionFiles())[0] ?? "");
  assert.ok(raw.endsWith("}\n"), "the last entry is not a complete line");
  assert.equal(raw.split("\n").length, lines.length + 1);
});

Deno.test("responseUsage stores input without cached reads, cached reads and reasoning apart", async () => {
  const { entries } = await storedTurn({
    text: "x",
    usage: { input: 100, output: 20, cachedInput: 40, reasoning: 5 },
  });
  assert.deepEqual(entries[1]?.responseUsage, {
    inputTokens: 100,
    outputTokens: 20,
    reasoningTokens: 5,
    cacheReadTokens: 40,
    cacheWriteTokens: 0,
  });
});

Deno.test("responseUsage is null when the provider reports no usage", async () => {
  const { entries } = await storedTurn({ text: "x", usage: null });
  assert.equal(entries[1]?.responseUsage, null);
});

Deno.test("a response cut by the token limit is stored with responseStopReason max_tokens", async () => {
  const { entries } = await storedTurn({ text: "trunc", finishReason: "length" });
  assert.equal(entries[1]?.responseStopReason, "max_tokens");
  assert.deepEqual(entries[1]?.blocks, [{ type: "text", text: "trunc" }]);
});

Deno.test("responseModel is the model the stream reports", async () => {
  const { entries } = await storedTurn({ text: "x", model: "fake-model-2026-01-01" });
  assert.equal(entries[1]?.responseModel, "fake-model-2026-01-01");
});

Deno.test("each run writes its own session file in the workspace's folder", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "two" }]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "first"]);
  const second = await env.run(["run", "-a", "coder", "second"]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(second.code, 0, second.stderr);
  const ids = [sessionIdOf(first.stderr), sessionIdOf(second.stderr)];
  assert.notEqual(ids[0], ids[1]);
  assert.ok((ids[0] ?? "") < (ids[1] ?? ""), `session ids are not time-sortable: ${ids}`);
  const files = await env.sessionFiles();
  assert.equal(files.length, 2);
  assert.equal(dirOf(files[0] ?? ""), dirOf(files[1] ?? ""));
  assert.deepEqual(
    checkSession(await env.readSession(ids[1] ?? "")).entries[0],
    userPromptEntry("second"),
  );
});

Deno.test("two workspaces keep their sessions in two project folders", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "two" }]);
  await using env = await createTestEnv({ provider });
  const other = await env.makeDir("other-space");
  const first = await env.run(["run", "-a", "coder", "first"]);
  const second = await env.run(["run", "-a", "coder", "second"], { cwd: other });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(second.code, 0, second.stderr);
  const firstDir = dirOf(
    (await env.sessionFiles()).find((f) => f.includes(sessionIdOf(first.stderr))) ?? "",
  );
  const secondDir = dirOf(
    (await env.sessionFiles()).find((f) => f.includes(sessionIdOf(second.stderr))) ?? "",
  );
  assert.notEqual(firstDir, secondDir);
  assert.ok(firstDir.split("/").at(-1)?.includes("workspace"), firstDir);
  assert.ok(secondDir.split("/").at(-1)?.includes("other-space"), secondDir);
  const header = (await env.readSession(sessionIdOf(second.stderr)))[0];
  assert.equal(header?.workdir, other);
});

Deno.test("--no-session keeps nothing on disk", async () => {
  await using provider = await startFakeProvider([{ text: "ephemeral" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "--no-session", "hello"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "ephemeral\n");
  assert.ok(
    !result.stderr.includes("session:"),
    `a session line for nothing kept: ${result.stderr}`,
  );
  assert.deepEqual(await env.sessionFiles(), []);
  await assert.rejects(Deno.stat(`${env.home}/sessions`), Deno.errors.NotFound);
});

Deno.test("sessions live under RIENDA_HOME, never under HOME", async () => {
  await using provider = await startFakeProvider([{ text: "x" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "hello"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal((await env.sessionFiles()).length, 1);
  await assert.rejects(Deno.stat(`${env.userHome}/.rienda`), Deno.errors.NotFound);
});
