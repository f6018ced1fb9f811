import assert from "node:assert/strict";
import {
  assertNothingSent,
  assistantEntry,
  checkSession,
  lastLine,
  sessionIdOf,
  userPromptEntry,
} from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { chatMessages, modelOf, systemPromptOf } from "./harness/wire.ts";

/** Runs `coder` once on `prompt` and returns the new session's id. */
async function firstRun(env: TestEnv, prompt: string, extra: string[] = []): Promise<string> {
  const result = await env.run(["run", "-a", "coder", ...extra, prompt]);
  assert.equal(result.code, 0, result.stderr);
  return sessionIdOf(result.stderr);
}

/** The conversation of a chat request without its system message. */
function conversation(request: Parameters<typeof chatMessages>[0]) {
  return chatMessages(request).filter((message) => message.role !== "system")
    .map(({ role, content }) => ({ role, content }));
}

Deno.test("run -s ID sends the whole branch again and appends to the same file", async () => {
  await using provider = await startFakeProvider([{ text: "One." }, { text: "Two." }]);
  await using env = await createTestEnv({ provider });
  const id = await firstRun(env, "first");
  const result = await env.run(["run", "-s", id, "second"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Two.\n");
  assert.equal(sessionIdOf(result.stderr), id);
  assert.deepEqual(conversation(provider.requests[1]), [
    { role: "user", content: "first" },
    { role: "assistant", content: "One." },
    { role: "user", content: "second" },
  ]);
  assert.equal((await env.sessionFiles()).length, 1);
  const session = checkSession(await env.readSession(id));
  assert.deepEqual(session.entries, [
    userPromptEntry("first"),
    assistantEntry([{ type: "text", text: "One." }], "end_turn"),
    userPromptEntry("second"),
    assistantEntry([{ type: "text", text: "Two." }], "end_turn"),
  ]);
  const files = await env.sessionFiles();
  await assert.rejects(Deno.stat(`${files[0]}.lock`), Deno.errors.NotFound, "the lock was kept");
});

Deno.test("run -s accepts a unique prefix of the id and refuses an ambiguous one", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  const first = await firstRun(env, "first");
  const second = await firstRun(env, "second");
  let common = 0;
  while (first[common] === second[common]) common++;
  const unique = await env.run(["run", "-s", second.slice(0, common + 1), "more"]);
  assert.equal(unique.code, 0, unique.stderr);
  assert.equal(sessionIdOf(unique.stderr), second);

  const ambiguous = await env.run(["run", "-s", first.slice(0, common), "more"]);
  assert.equal(ambiguous.code, 1);
  assert.match(lastLine(ambiguous.stderr), /^rienda: session id ".*" is ambiguous/);
  assert.equal(provider.requests.length, 3);
});

Deno.test("run -c continues the most recent session of the workspace", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  await firstRun(env, "older");
  const newest = await firstRun(env, "newer");
  const result = await env.run(["run", "-c", "go on"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(sessionIdOf(result.stderr), newest);
  assert.deepEqual(conversation(provider.requests[2]).map((message) => message.content), [
    "newer",
    "b",
    "go on",
  ]);
});

Deno.test("run -c in a workspace without sessions fails before any request", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-c", "hello"]);
  assert.equal(result.code, 1);
  assert.match(lastLine(result.stderr), /^rienda: no session to continue in /);
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("run -s with an unknown id fails before any request", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "never" }]);
  await using env = await createTestEnv({ provider });
  await firstRun(env, "first");
  const result = await env.run(["run", "-s", "zzzz", "hello"]);
  assert.equal(result.code, 1);
  assert.equal(
    lastLine(result.stderr),
    'rienda: no session "zzzz" in this workspace (rienda sessions lists them)',
  );
  assert.equal(provider.requests.length, 1);
});

for (
  const { claim, args } of [
    { claim: "-s together with -c", args: ["-s", "abc", "-c"] },
    { claim: "-s together with --no-session", args: ["-s", "abc", "--no-session"] },
    { claim: "-c together with --no-session", args: ["-c", "--no-session"] },
  ]
) {
  Deno.test(`run with ${claim} is a usage error`, async () => {
    await using provider = await startFakeProvider([{ text: "never" }]);
    await using env = await createTestEnv({ provider });
    const result = await env.run(["run", ...args, "hello"]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(lastLine(result.stderr), /^rienda: .*(--session|--continue|-s)/);
    await assertNothingSent(provider, env, result.stderr);
  });
}

Deno.test("run -s -m appends a model switch that holds for the rest of the branch", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  const id = await firstRun(env, "first");
  const switched = await env.run(["run", "-s", id, "-m", "fake/other", "second"]);
  assert.equal(switched.code, 0, switched.stderr);
  assert.equal(modelOf(provider.requests[1]), "other");
  const kept = await env.run(["run", "-c", "third"]);
  assert.equal(kept.code, 0, kept.stderr);
  assert.equal(modelOf(provider.requests[2]), "other");
  const { header, entries } = checkSession(await env.readSession(id));
  assert.equal(header.model, "fake/m");
  assert.deepEqual(entries.map((entry) => entry.kind), [
    "message",
    "message",
    "model",
    "message",
    "message",
    "message",
    "message",
  ]);
  assert.deepEqual(entries[2], { kind: "model", model: "fake/other" });
});

Deno.test("run -s -a appends an agent switch: its system prompt is used from then on", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("reviewer", { description: "Reviews." }, "You review carefully.");
  const id = await firstRun(env, "first");
  const switched = await env.run(["run", "-s", id, "-a", "reviewer", "second"]);
  assert.equal(switched.code, 0, switched.stderr);
  assert.equal(systemPromptOf(provider.requests[1]), "You review carefully.");
  const kept = await env.run(["run", "-s", id, "third"]);
  assert.equal(kept.code, 0, kept.stderr);
  assert.equal(systemPromptOf(provider.requests[2]), "You review carefully.");
  const { entries } = checkSession(await env.readSession(id));
  assert.deepEqual(entries[2], { kind: "agent", agent: "reviewer" });
  assert.equal(entries.filter((entry) => entry.kind === "agent").length, 1);
});

Deno.test("run -s -f switches to the agent file's id", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  const file = await env.writeFile(
    "elsewhere/review.md",
    "---\ndescription: Reviews.\n---\nFrom a file.\n",
  );
  const id = await firstRun(env, "first");
  const result = await env.run(["run", "-s", id, "-f", file, "second"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(systemPromptOf(provider.requests[1]), "From a file.");
  const { entries } = checkSession(await env.readSession(id));
  assert.deepEqual(entries[2], { kind: "agent", agent: "review", agentFile: file });
});

Deno.test("a switch to an agent or model that does not exist is refused before anything is written", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "never" }]);
  await using env = await createTestEnv({ provider });
  const id = await firstRun(env, "first");
  const path = (await env.sessionFiles())[0] ?? "";
  const before = await Deno.readTextFile(path);
  const agent = await env.run(["run", "-s", id, "-a", "ghost", "second"]);
  assert.equal(agent.code, 1);
  assert.match(lastLine(agent.stderr), /^rienda: agent "ghost" not found/);
  const model = await env.run(["run", "-s", id, "-m", "nowhere/x", "second"]);
  assert.equal(model.code, 1);
  assert.match(lastLine(model.stderr), /^rienda: unknown provider "nowhere"/);
  assert.equal(await Deno.readTextFile(path), before);
  assert.equal(provider.requests.length, 1);
  await assert.rejects(Deno.stat(`${path}.lock`), Deno.errors.NotFound, "the lock was kept");
});

Deno.test("continuing a session whose agent no longer exists says so and suggests -a", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("temp", { description: "Temporary." });
  const result = await env.run(["run", "-a", "temp", "first"]);
  const id = sessionIdOf(result.stderr);
  await Deno.remove(`${env.home}/agents/temp.md`);
  const refused = await env.run(["run", "-s", id, "second"]);
  assert.equal(refused.code, 1);
  assert.match(
    lastLine(refused.stderr),
    new RegExp(`^rienda: session ${id} uses agent "temp", which no longer exists .*pass -a AGENT`),
  );
  const switched = await env.run(["run", "-s", id, "-a", "coder", "second"]);
  assert.equal(switched.code, 0, switched.stderr);
  assert.equal(provider.requests.length, 2);
});

Deno.test("continuing a session whose model no longer exists says so and suggests -m", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  const id = await firstRun(env, "first");
  await env.writeConfig(defaultConfig(provider.url).replaceAll("fake", "renamed"));
  const refused = await env.run(["run", "-s", id, "second"]);
  assert.equal(refused.code, 1);
  assert.match(
    lastLine(refused.stderr),
    new RegExp(`^rienda: session ${id} uses model "fake/m", which is not available .*pass -m`),
  );
  const switched = await env.run(["run", "-s", id, "-m", "renamed/m", "second"]);
  assert.equal(switched.code, 0, switched.stderr);
  assert.equal(provider.requests.length, 2);
});

Deno.test("run -s with --output json reports the continued session id", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  const id = await firstRun(env, "first");
  const result = await env.run(["run", "-c", "--output", "json", "second"]);
  assert.equal(result.code, 0, result.stderr);
  const output: unknown = JSON.parse(result.stdout);
  assert.equal(
    typeof output === "object" && output !== null && "sessionId" in output
      ? output.sessionId
      : undefined,
    id,
  );
});

Deno.test("run -s --thinking appends a thinking switch that later continuations keep", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await using env = await createTestEnv({ provider });
  const id = await firstRun(env, "first");
  const switched = await env.run(["run", "-s", id, "--thinking", "high", "second"]);
  assert.equal(switched.code, 0, switched.stderr);
  const kept = await env.run(["run", "-c", "third"]);
  assert.equal(kept.code, 0, kept.stderr);
  const efforts = provider.requests.map((request) => at(request.body, "reasoning_effort"));
  assert.deepEqual(efforts, [undefined, "high", "high"]);
  const { entries } = checkSession(await env.readSession(id));
  assert.deepEqual(entries.filter((entry) => entry.kind === "thinking"), [
    { kind: "thinking", thinking: "high" },
  ]);
});
