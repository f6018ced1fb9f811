import assert from "node:assert/strict";
import { checkSession, lastLine, linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { type RecordedRequest, startFakeProvider } from "./harness/fake_provider.ts";
import { at, isRecord } from "./harness/json.ts";
import { chatMessages, systemPromptOf } from "./harness/wire.ts";

const OLD_PROMPT = `OLD-PROMPT ${"x".repeat(2000)}`;
const SECTIONS = [
  "Objective",
  "Constraints and decisions",
  "Progress",
  "Next steps",
  "Exact details",
];

/** A config whose model has a tiny context window, so a second turn needs compaction. */
function tinyWindowConfig(
  url: string,
  compaction = "  reserve_tokens: 100\n  keep_recent_tokens: 10\n",
) {
  return defaultConfig(url).replace(
    "        id: fake-model\n",
    "        id: fake-model\n        context_window: 400\n",
  ) +
    `compaction:\n${compaction}`;
}

async function setUp(env: TestEnv, url: string, compaction?: string): Promise<void> {
  await env.writeConfig(tinyWindowConfig(url, compaction));
  await env.writeAgent("plain", { description: "No tools." }, "You are plain.");
}

/** The conversation of a chat request without its system message, as role + text. */
function conversation(request: RecordedRequest | undefined) {
  return chatMessages(request).filter((message) => message.role !== "system")
    .map(({ role, content }) => ({ role, content }));
}

/** The first run: an oversized prompt and its answer, stored in a new session. */
async function oversizedSession(env: TestEnv): Promise<string> {
  const first = await env.run(["run", "-a", "plain", OLD_PROMPT]);
  assert.equal(first.code, 0, first.stderr);
  assert.ok(!first.stderr.includes("compaction"), "a lone prompt cannot be compacted");
  return sessionIdOf(first.stderr);
}

Deno.test("compaction summarises the older history, stores an entry and sends summary + kept messages", async () => {
  await using provider = await startFakeProvider([
    { text: "old answer" },
    { text: "THE SUMMARY" },
    { text: "new answer" },
    { text: "third answer" },
  ]);
  await using env = await createTestEnv({ provider });
  await setUp(env, provider.url);
  const id = await oversizedSession(env);

  const second = await env.run(["run", "-c", "new question"]);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout, "new answer\n");
  assert.deepEqual(linesOf(second.stderr), [
    `session: ${id}`,
    "compaction: the conversation was compacted",
  ]);

  // The summary request: the five-section prompt, the old conversation as text, no tools.
  const summaryRequest = provider.requests[1];
  const system = systemPromptOf(summaryRequest);
  for (const section of SECTIONS) assert.ok(system.includes(`## ${section}`), section);
  const asked = conversation(summaryRequest);
  assert.equal(asked.length, 1);
  assert.ok(String(asked[0]?.content).includes(OLD_PROMPT));
  assert.ok(String(asked[0]?.content).includes("old answer"));
  assert.ok(
    !String(asked[0]?.content).includes("You are plain."),
    "the system prompt was summarised",
  );
  assert.equal(at(summaryRequest?.body, "tools"), undefined);

  // The next request: the summary, then the kept prompt; the old prompt is gone.
  const next = provider.requests[2];
  assert.equal(systemPromptOf(next), "You are plain.");
  const sent = conversation(next);
  assert.equal(sent.length, 2);
  assert.match(String(sent[0]?.content), /^Summary of the earlier conversation.*:\n\nTHE SUMMARY$/);
  assert.deepEqual(sent[1], { role: "user", content: "new question" });
  assert.ok(!next?.rawBody.includes("OLD-PROMPT"));

  const { entries } = checkSession(await env.readSession(id));
  assert.deepEqual(entries.map((entry) => entry.kind), [
    "message",
    "message",
    "message",
    "compaction",
    "message",
  ]);
  const lines = await env.readSession(id);
  const compaction = entries[3] ?? {};
  assert.equal(compaction.summary, "THE SUMMARY");
  assert.equal(compaction.keptId, lines[3]?.id, "keptId is not the kept prompt");
  assert.ok(Number(compaction.tokensBefore) > 300, `tokensBefore ${compaction.tokensBefore}`);

  // A later continuation sends the stored summary and the kept messages only.
  const third = await env.run(["run", "-c", "third question"]);
  assert.equal(third.code, 0, third.stderr);
  assert.ok(!third.stderr.includes("compaction"), third.stderr);
  assert.deepEqual(conversation(provider.requests[3]).slice(1), [
    { role: "user", content: "new question" },
    { role: "assistant", content: "new answer" },
    { role: "user", content: "third question" },
  ]);
  assert.match(String(conversation(provider.requests[3])[0]?.content), /THE SUMMARY$/);
  assert.equal(provider.requests.length, 4);
});

Deno.test("$RIENDA_HOME/COMPACTION.md replaces the summary prompt", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "S" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  await setUp(env, provider.url);
  await env.writeFile("rienda-home/COMPACTION.md", "Summarise in one line.\n");
  await oversizedSession(env);
  const result = await env.run(["run", "-c", "next"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(systemPromptOf(provider.requests[1]), "Summarise in one line.");
});

Deno.test("compaction.enabled: false sends the whole history", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  await setUp(
    env,
    provider.url,
    "  enabled: false\n  reserve_tokens: 100\n  keep_recent_tokens: 10\n",
  );
  await oversizedSession(env);
  const result = await env.run(["run", "-c", "next"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(!result.stderr.includes("compaction"), result.stderr);
  assert.equal(provider.requests.length, 2);
  assert.equal(conversation(provider.requests[1])[0]?.content, OLD_PROMPT);
});

Deno.test("a failed compaction fails the run without storing a compaction entry", async () => {
  await using provider = await startFakeProvider([
    { text: "a" },
    { status: 400, errorMessage: "summary refused" },
  ]);
  await using env = await createTestEnv({ provider });
  await setUp(env, provider.url);
  const id = await oversizedSession(env);
  const result = await env.run(["run", "-c", "next"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(lastLine(result.stderr), /^rienda: compaction failed: .*summary refused/);
  assert.equal(provider.requests.length, 2);
  const kinds = checkSession(await env.readSession(id)).entries.map((entry) => entry.kind);
  assert.ok(!kinds.includes("compaction"), kinds.join(","));
});

Deno.test("compaction inside a run keeps a tool call with its result", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{ name: "shell", arguments: { command: "head -c 3000 /dev/zero | tr '\\0' y" } }],
    },
    { text: "SUMMARY" },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(tinyWindowConfig(provider.url));
  const result = await env.run(["run", "-a", "coder", "fill the context"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(result.stderr.includes("compaction: the conversation was compacted\n"), result.stderr);
  assert.ok(String(conversation(provider.requests[1])[0]?.content).includes("fill the context"));
  const sent = chatMessages(provider.requests[2]).filter((message) => message.role !== "system");
  assert.deepEqual(sent.map((message) => message.role), ["user", "assistant", "tool"]);
  assert.match(String(sent[0]?.content), /SUMMARY$/);
  const call = at(sent[1], "tool_calls", 0, "id");
  assert.equal(at(sent[2], "tool_call_id"), call);
  const id = sessionIdOf(result.stderr);
  const lines = await env.readSession(id);
  const compaction = lines.find((line) => line.kind === "compaction");
  assert.equal(compaction?.keptId, lines[2]?.id, "the kept part does not start at the tool call");
});

Deno.test("stream-json prints the compaction event", async () => {
  await using provider = await startFakeProvider([{ text: "a" }, { text: "S" }, { text: "b" }]);
  await using env = await createTestEnv({ provider });
  await setUp(env, provider.url);
  await oversizedSession(env);
  const result = await env.run(["run", "-c", "--output", "stream-json", "next"]);
  assert.equal(result.code, 0, result.stderr);
  const events = linesOf(result.stdout).map((line): unknown => JSON.parse(line));
  const compaction = events.find((event) => isRecord(event) && event.type === "compaction");
  assert.ok(isRecord(compaction), result.stdout);
  assert.equal(compaction.summary, "S");
  assert.ok(Number(compaction.tokensBefore) > 300);
});
