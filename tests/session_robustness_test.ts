import assert from "node:assert/strict";
import { checkSession, lastLine, linesOf, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { arrayAt, at, parseJsonLines } from "./harness/json.ts";
import { chatMessages, toolResultsOf } from "./harness/wire.ts";

/** The only session file of the environment. */
async function onlyFile(env: TestEnv): Promise<string> {
  const files = await env.sessionFiles();
  assert.equal(files.length, 1, files.join(", "));
  return files[0] ?? "";
}

/** Roles of a chat request without the system message, tool calls marked. */
function shape(request: Parameters<typeof chatMessages>[0]): string[] {
  return chatMessages(request).filter((message) => message.role !== "system").map((message) =>
    message.tool_calls === undefined ? String(message.role) : "assistant+calls"
  );
}

Deno.test("a truncated last line is skipped with a warning, and the next run repairs the file", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "two" }]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "first"]);
  const id = sessionIdOf(first.stderr);
  const path = await onlyFile(env);
  await Deno.writeTextFile(path, '{"kind":"message","id":"zz","parentId', { append: true });

  const shown = await env.run(["sessions", "show", id]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stderr, /:4: skipped a truncated last line/);

  const result = await env.run(["run", "-s", id, "second"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(linesOf(result.stderr)[0], `session: ${id}`);
  assert.match(
    linesOf(result.stderr)[1] ?? "",
    new RegExp(`${path}:4: skipped a truncated last line`),
  );
  assert.deepEqual(chatMessages(provider.requests[1]).slice(1).map((m) => m.content), [
    "first",
    "one",
    "second",
  ]);
  const text = await Deno.readTextFile(path);
  const lines = parseJsonLines(text, path);
  assert.equal(lines.length, 5);
  checkSession(lines);
});

Deno.test("a corrupt middle line is an error naming the file and line, and nothing is sent or written", async () => {
  await using provider = await startFakeProvider([
    { text: "one", toolCalls: [{ name: "shell", arguments: { command: "true" } }] },
    { text: "two" },
    { text: "never" },
  ]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "first"]);
  const id = sessionIdOf(first.stderr);
  const path = await onlyFile(env);
  const lines = (await Deno.readTextFile(path)).split("\n");
  lines[2] = lines[2]?.slice(0, 30) ?? "";
  const corrupt = lines.join("\n");
  await Deno.writeTextFile(path, corrupt);

  const result = await env.run(["run", "-s", id, "second"]);
  assert.equal(result.code, 1);
  assert.match(
    lastLine(result.stderr),
    new RegExp(`^rienda: ${path}:3: corrupt line: .*repair or delete the line`),
  );
  assert.equal(provider.requests.length, 2);
  assert.equal(await Deno.readTextFile(path), corrupt);
  await assert.rejects(Deno.stat(`${path}.lock`), Deno.errors.NotFound);

  const shown = await env.run(["sessions", "show", id]);
  assert.equal(shown.code, 1);
  assert.match(lastLine(shown.stderr), new RegExp(`^rienda: ${path}:3: corrupt line`));
});

Deno.test("a reference to no earlier entry is an error, never silently dropped history", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "never" }]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "first"]);
  const id = sessionIdOf(first.stderr);
  const path = await onlyFile(env);
  const text = await Deno.readTextFile(path);
  const [header, prompt, answer] = parseJsonLines(text, path);
  const broken =
    [header, prompt, { ...answer, parentId: "nothere" }].map((line) => JSON.stringify(line))
      .join("\n") + "\n";
  await Deno.writeTextFile(path, broken);
  const result = await env.run(["run", "-s", id, "second"]);
  assert.equal(result.code, 1);
  assert.match(
    lastLine(result.stderr),
    new RegExp(`${path}:3: parentId "nothere" references no earlier entry`),
  );
  assert.equal(provider.requests.length, 1);
});

Deno.test("entries of unknown kinds are kept and the branch continues past them", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "two" }]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "first"]);
  const id = sessionIdOf(first.stderr);
  const path = await onlyFile(env);
  const last = parseJsonLines(await Deno.readTextFile(path), path).at(-1);
  const future = {
    kind: "bookmark",
    id: "bm1",
    parentId: last?.id,
    createdAt: new Date().toISOString(),
    note: "x",
  };
  await Deno.writeTextFile(path, `${JSON.stringify(future)}\n`, { append: true });
  const result = await env.run(["run", "-s", id, "second"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(chatMessages(provider.requests[1]).slice(1).map((m) => m.content), [
    "first",
    "one",
    "second",
  ]);
  const lines = parseJsonLines(await Deno.readTextFile(path), path);
  assert.deepEqual(lines[3], future);
  assert.equal(lines[4]?.parentId, "bm1");
});

Deno.test("a second process writing the same session is refused with a clear message", async () => {
  await using provider = await startFakeProvider([
    // The first run holds the session while its tool waits for the test to open ./go.
    { toolCalls: [{ name: "shell", arguments: { command: "read -r _ < ./go" } }] },
    { text: "first done" },
    { text: "after" },
  ]);
  await using env = await createTestEnv({ provider });
  await new Deno.Command("mkfifo", { args: [`${env.workdir}/go`] }).output();
  await using slow = await env.start(["run", "-a", "coder", "first"]);
  await slow.waitForStderr("tool: shell");
  const id = sessionIdOf(slow.stderrText());
  const refused = await env.run(["run", "-s", id, "second"]);
  assert.equal(refused.code, 1);
  const path = await onlyFile(env);
  assert.equal(
    lastLine(refused.stderr).replace(/\(pid \d+\)/, "(pid N)"),
    `rienda: session ${id} is in use by another rienda process (pid N); ` +
      "wait for it to finish or stop it",
  );
  assert.equal(provider.requests.length, 1);
  assert.equal(
    await Deno.readTextFile(`${path}.lock`),
    `${/\(pid (\d+)\)/.exec(refused.stderr)?.[1]}\n`,
  );
  await Deno.writeTextFile(`${env.workdir}/go`, "\n");
  const finished = await slow.wait();
  assert.equal(finished.code, 0, finished.stderr);
  const later = await env.run(["run", "-s", id, "second"]);
  assert.equal(later.code, 0, later.stderr);
  assert.equal(later.stdout, "after\n");
  checkSession(await env.readSession(id));
});

Deno.test("a lock file naming a live process that does not hold the lock (a reused pid) is taken over", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "two" }]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "first"]);
  const id = sessionIdOf(first.stderr);
  const path = await onlyFile(env);
  // This test process is alive and is no rienda: only the OS lock counts, not the pid in the file.
  await Deno.writeTextFile(`${path}.lock`, `${Deno.pid} 1\n`);
  const result = await env.run(["run", "-s", id, "second"]);
  assert.equal(result.code, 0, result.stderr);
  await assert.rejects(Deno.stat(`${path}.lock`), Deno.errors.NotFound);
});

Deno.test("a lock file left by a process that died is taken over", async () => {
  await using provider = await startFakeProvider([{ text: "one" }, { text: "two" }]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "first"]);
  const id = sessionIdOf(first.stderr);
  const path = await onlyFile(env);
  await Deno.writeTextFile(`${path}.lock`, "2147483646\n");
  const result = await env.run(["run", "-s", id, "second"]);
  assert.equal(result.code, 0, result.stderr);
  await assert.rejects(Deno.stat(`${path}.lock`), Deno.errors.NotFound);
});

Deno.test({
  name:
    "a tool's command does not inherit the session lock (a process it leaves behind cannot hold the session)",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "shell", arguments: { command: "ls -l /proc/self/fd/" } }] },
      { text: "done" },
    ]);
    await using env = await createTestEnv({ provider });
    const result = await env.run(["run", "-a", "coder", "go"]);
    assert.equal(result.code, 0, result.stderr);
    const listing = String(toolResultsOf(provider.requests[1])[0]?.content);
    assert.match(listing, /-> \/dev\/null/);
    assert.doesNotMatch(listing, /\.jsonl/);
  },
});

Deno.test("continuing after an interrupt during tool calls sends every call with its result", async () => {
  for (const protocol of ["openai_chat_completions", "anthropic"] as const) {
    await using provider = await startFakeProvider([
      {
        toolCalls: [
          { id: "call_a", name: "shell", arguments: { command: "echo started; sleep 29" } },
          { id: "call_b", name: "shell", arguments: { command: "true" } },
        ],
      },
      { text: "resumed" },
    ]);
    await using env = await createTestEnv({ provider, protocol });
    await using process = await env.start(["run", "-a", "coder", "wait"]);
    await process.waitForStderr("started\n");
    process.kill("SIGINT");
    const interrupted = await process.wait();
    assert.equal(interrupted.code, 130, interrupted.stderr);

    const result = await env.run(["run", "-c", "go on"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "resumed\n");
    const body = provider.requests[1]?.body;
    if (protocol === "anthropic") {
      const messages = arrayAt(body, "messages");
      assert.deepEqual(messages.map((message) => at(message, "role")), [
        "user",
        "assistant",
        "user",
      ]);
      const ids = arrayAt(messages[1], "content").map((block) => at(block, "id"));
      const last = arrayAt(messages[2], "content");
      assert.deepEqual(last.map((block) => at(block, "type")), [
        "tool_result",
        "tool_result",
        "text",
      ]);
      assert.deepEqual(last.slice(0, 2).map((block) => at(block, "tool_use_id")), ids);
      assert.equal(at(last[2], "text"), "go on");
    } else {
      assert.deepEqual(shape(provider.requests[1]), [
        "user",
        "assistant+calls",
        "tool",
        "tool",
        "user",
      ]);
      const results = chatMessages(provider.requests[1]).filter((message) =>
        message.role === "tool"
      );
      assert.deepEqual(results.map((message) => message.tool_call_id), ["call_a", "call_b"]);
      for (const message of results) {
        assert.match(String(message.content), /interrupted/, JSON.stringify(results));
      }
    }
  }
});

Deno.test("continuing after a crash that left tool calls without results stores error results first", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ id: "call_x", name: "shell", arguments: { command: "true" } }] },
    { text: "done" },
    { text: "resumed" },
  ]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "first"]);
  const id = sessionIdOf(first.stderr);
  const path = await onlyFile(env);
  // As if the process died right after storing the tool call.
  const lines = parseJsonLines(await Deno.readTextFile(path), path).slice(0, 3);
  await Deno.writeTextFile(path, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");

  const result = await env.run(["run", "-s", id, "go on"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(shape(provider.requests[2]), ["user", "assistant+calls", "tool", "user"]);
  const stored = checkSession(await env.readSession(id)).entries;
  assert.deepEqual(stored[2], {
    kind: "message",
    role: "user",
    blocks: [{
      type: "tool_result",
      toolResultCallId: "call_x",
      toolResult: [{ type: "text", text: "the run ended before the tool ran" }],
      toolResultIsError: true,
    }],
  });
  assert.deepEqual(stored[3], {
    kind: "message",
    role: "user",
    blocks: [{ type: "text", text: "go on" }],
  });
});
