import assert from "node:assert/strict";
import { linesOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { isRecord } from "./harness/json.ts";
import { configWithMcp, readPid } from "./harness/mcp_servers.ts";

function jsonLines(stdout: string): Record<string, unknown>[] {
  return linesOf(stdout).map((line) => {
    const value: unknown = JSON.parse(line);
    assert.ok(isRecord(value), `not an object: ${line}`);
    return value;
  });
}

Deno.test("run --output json prints one object with the run's outcome and its duration", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{ name: "shell", arguments: { command: "echo hi" } }],
      usage: { input: 7, output: 3 },
    },
    {
      text: "All done.",
      usage: { input: 20, output: 4, cachedInput: 5 },
      firstByteDelayMs: 200,
    },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "--output", "json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const [object, ...rest] = jsonLines(result.stdout);
  assert.deepEqual(rest, []);
  const [header] = await env.readSession((await env.sessionFiles())[0]!);
  // The wall time from the run's start to its end, the provider's 200 ms pause included.
  const { durationMs, ...fields } = object ?? {};
  assert.ok(typeof durationMs === "number" && durationMs >= 200, `durationMs: ${durationMs}`);
  assert.deepEqual(fields, {
    sessionId: header?.id,
    agent: "coder",
    model: "fake/m",
    reason: "end_turn",
    text: "All done.",
    usage: {
      inputTokens: 27,
      outputTokens: 7,
      reasoningTokens: 0,
      cacheReadTokens: 5,
      cacheWriteTokens: 0,
    },
    turns: 2,
  });
});

Deno.test("run --output json reports a failed run with its error and exit 1", async () => {
  await using provider = await startFakeProvider([{ status: 400, errorMessage: "bad model id" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "--output", "json", "go"]);
  assert.equal(result.code, 1);
  const [object] = jsonLines(result.stdout);
  assert.equal(object?.reason, "error");
  assert.match(String(object?.error), /bad model id/);
  assert.equal(object?.text, "");
  assert.equal(object?.turns, 0);
});

Deno.test("run --output stream-json prints every event as a JSON line, run_end last", async () => {
  await using provider = await startFakeProvider([
    {
      text: "Looking.",
      chunks: 2,
      thinking: "plan",
      toolCalls: [{ name: "shell", arguments: { command: "echo out; exit 3" } }],
    },
    { text: "Recovered." },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const events = jsonLines(result.stdout);
  const types = events.map((event) => event.type);
  assert.deepEqual(types, [
    "run_start",
    "thinking_delta",
    "thinking_delta",
    "text_delta",
    "text_delta",
    "message_end",
    "tool_call",
    "tool_output",
    "tool_result",
    "text_delta",
    "message_end",
    "run_end",
  ]);
  const start = events[0]!;
  assert.equal(start.agent, "coder");
  assert.equal(start.model, "fake/m");
  assert.deepEqual(start.diagnostics, []);
  assert.equal(
    events.filter((event) => event.type === "text_delta").map((event) => event.text).join(""),
    "Looking.Recovered.",
  );
  assert.deepEqual(events[6], {
    type: "tool_call",
    id: "call_1",
    name: "shell",
    arguments: { command: "echo out; exit 3" },
  });
  assert.deepEqual(events[7], { type: "tool_output", id: "call_1", text: "out\n" });
  assert.deepEqual(events[8], {
    type: "tool_result",
    id: "call_1",
    name: "shell",
    text: "out\ncommand exited with code 3",
    isError: true,
  });
  assert.equal(events[5]?.text, "Looking.");
  assert.equal(events[5]?.stopReason, "tool_use");
  assert.deepEqual(events.at(-1), {
    type: "run_end",
    reason: "end_turn",
    text: "Recovered.",
    usage: {
      inputTokens: 20,
      outputTokens: 10,
      reasoningTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    turns: 2,
  });
});

Deno.test("run --output stream-json reports a retry before the kept attempt", async () => {
  await using provider = await startFakeProvider([{ status: 503 }, { text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const events = jsonLines(result.stdout);
  const retry = events.find((event) => event.type === "retry");
  assert.equal(retry?.attempt, 1);
  assert.equal(typeof retry?.delayMs, "number");
  assert.match(String(retry?.error), /503/);
  assert.deepEqual(events.map((event) => event.type), [
    "run_start",
    "retry",
    "text_delta",
    "message_end",
    "run_end",
  ]);
});

Deno.test("run rejects an unknown --output format with exit 2", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["run", "-a", "coder", "--output", "xml", "go"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(linesOf(result.stderr).at(-1) ?? "", /^rienda: .*"xml".*/);
});

Deno.test("run --output json prints an error object when the run fails before it starts", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const cases: { args: string[]; code: number; error: RegExp }[] = [
    { args: ["-a", "missing", "go"], code: 1, error: /missing/ },
    { args: ["-a", "coder", "-m", "nope/x", "go"], code: 1, error: /unknown provider "nope"/ },
    { args: ["-a", "coder", "--max-turns", "0", "go"], code: 2, error: /--max-turns/ },
    { args: ["-a", "coder", "--agnet", "x", "go"], code: 2, error: /unknown option "--agnet"/ },
    { args: ["-a", "coder"], code: 2, error: /no prompt/ },
  ];
  for (const { args, code, error } of cases) {
    for (const output of [["--output", "json"], ["--output=json"]]) {
      const result = await env.run(["run", ...output, ...args]);
      assert.equal(result.code, code, `${args.join(" ")}: ${result.stderr}`);
      const [object, ...rest] = jsonLines(result.stdout);
      assert.deepEqual(rest, []);
      assert.deepEqual(Object.keys(object ?? {}), ["error", "reason"]);
      assert.equal(object?.reason, "error");
      assert.match(String(object?.error), error);
      // The stderr line says the same.
      assert.ok(result.stderr.includes(`rienda: ${object?.error}`), result.stderr);
    }
  }
  assert.equal(provider.requests.length, 0);
});

Deno.test("run --output text prints nothing on stdout when the run fails before it starts", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["run", "-a", "missing", "go"]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
});

Deno.test("run --output json prints an interrupted object when SIGINT comes before the run starts", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const pidFile = `${env.root}/slow.pid`;
  // An MCP server that never answers holds the run before it starts.
  await env.writeConfig(configWithMcp(provider.url, {
    slow: { command: "sh", args: ["-c", `echo $$ > '${pidFile}'; exec sleep 600`] },
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:slow"] });
  await using process = await env.start(["run", "-a", "mcp", "--output", "json", "go"]);
  await readPid(pidFile);
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.deepEqual(jsonLines(result.stdout), [
    { error: "the run was interrupted", reason: "interrupted" },
  ]);
  assert.equal(provider.requests.length, 0);
});

Deno.test("run --output stream-json prints one run_end line when the run fails before it starts", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["run", "--output", "stream-json", "-a", "missing", "go"]);
  assert.equal(result.code, 1, result.stderr);
  const lines = jsonLines(result.stdout);
  assert.equal(lines.length, 1);
  assert.equal(lines[0]?.type, "run_end");
  assert.equal(lines[0]?.reason, "error");
  assert.match(String(lines[0]?.error), /missing/);
  assert.equal(lines[0]?.text, "");
  assert.equal(lines[0]?.turns, 0);
  assert.ok(isRecord(lines[0]?.usage), "usage is an object as in every run_end");
});
