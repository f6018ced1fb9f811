import assert from "node:assert/strict";
import {
  checkSession,
  lastLine,
  linesOf,
  retryLines,
  sessionIdOf,
  userPromptEntry,
} from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";

/** Each wait is 0.5 s doubling (0.5, 1, 2, 4) give or take the jitter. */
function assertBackoff(seconds: readonly number[]): void {
  seconds.forEach((value, index) => {
    const nominal = 0.5 * 2 ** index;
    assert.ok(
      value >= nominal * 0.5 - 0.05 && value <= nominal * 1.5 + 0.05,
      `wait ${index + 1} was ${value}s, expected about ${nominal}s (all: ${seconds})`,
    );
  });
}

async function runScript(turns: Turn[]) {
  await using provider = await startFakeProvider(turns);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  const session = result.stderr.startsWith("session: ")
    ? checkSession(await env.readSession(sessionIdOf(result.stderr)))
    : null;
  return { result, requests: [...provider.requests], session };
}

Deno.test("a 500 is retried after about half a second and the answer printed once", async () => {
  const { result, requests } = await runScript([
    { status: 500, errorMessage: "upstream exploded" },
    { text: "recovered" },
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "recovered\n");
  const retries = retryLines(result.stderr);
  assert.deepEqual(retries.map((retry) => retry.error), ["upstream exploded (status 500)"]);
  assertBackoff(retries.map((retry) => retry.seconds));
  assert.equal(linesOf(result.stderr).length, 2, result.stderr);
  assert.equal(requests.length, 2);
  assert.equal(requests[1]?.rawBody, requests[0]?.rawBody);
});

Deno.test("a provider failing five times ends the run with its message after exactly 5 attempts", async () => {
  const failure: Turn = { status: 500, errorMessage: "upstream exploded" };
  const { result, requests, session } = await runScript([
    failure,
    failure,
    failure,
    failure,
    failure,
    { text: "too late" },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(requests.length, 5);
  const retries = retryLines(result.stderr);
  assert.equal(retries.length, 4);
  assertBackoff(retries.map((retry) => retry.seconds));
  assert.equal(lastLine(result.stderr), "rienda: upstream exploded (status 500)");
  assert.deepEqual(session?.entries, [
    userPromptEntry("go"),
    { kind: "failure", error: "upstream exploded (status 500)" },
  ]);
});

Deno.test("a 400 is not retried and its message ends the run", async () => {
  const { result, requests, session } = await runScript([
    { status: 400, errorMessage: "bad request body" },
    { text: "never" },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(requests.length, 1);
  assert.deepEqual(retryLines(result.stderr), []);
  assert.equal(lastLine(result.stderr), "rienda: bad request body (status 400)");
  assert.deepEqual(session?.entries, [
    userPromptEntry("go"),
    { kind: "failure", error: "bad request body (status 400)" },
  ]);
});

Deno.test("a 401 is not retried", async () => {
  const { result, requests } = await runScript([
    { status: 401, errorMessage: "invalid key" },
    { text: "never" },
  ]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(requests.length, 1);
  assert.match(
    lastLine(result.stderr),
    /^rienda: invalid key \(status 401\): provider "fake" refused/,
  );
});

Deno.test("a stream cut before its end is retried and its partial text never reaches stdout", async () => {
  const { result, requests, session } = await runScript([
    { text: "PARTIAL-ANSWER-THAT-WAS-CUT", chunks: 6, cut: true },
    { text: "the full answer" },
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "the full answer\n");
  assert.equal(requests.length, 2);
  assert.equal(retryLines(result.stderr).length, 1);
  assert.ok(!result.stderr.includes("PARTIAL"), result.stderr);
  assert.deepEqual(session?.entries[1]?.blocks, [{ type: "text", text: "the full answer" }]);
  assert.equal(session?.entries.length, 2);
});

Deno.test("an empty response is retried", async () => {
  const { result, requests } = await runScript([{}, { text: "now with content" }]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "now with content\n");
  assert.equal(requests.length, 2);
  assert.deepEqual(retryLines(result.stderr).map((retry) => retry.error), [
    "the model returned an empty response",
  ]);
});
