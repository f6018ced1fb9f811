import assert from "node:assert/strict";
import { checkSession, lastLine, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";

function shellTurn(command: string): Turn {
  return { toolCalls: [{ name: "shell", arguments: { command } }] };
}

Deno.test("the same tool call with the same result three rounds in a row ends the run", async () => {
  await using provider = await startFakeProvider([
    shellTurn("echo same"),
    shellTurn("echo same"),
    shellTurn("echo same"),
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "loop"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(provider.requests.length, 3);
  const last = lastLine(result.stderr);
  assert.match(last, /^rienda: /);
  assert.ok(last.includes("same tool call"), last);
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.equal(session.entries.length, 10, "prompt + 3 × (call, tool start, result)");
});

Deno.test("the same call whose result changes is not a loop", async () => {
  const counting = "echo x >> count.txt; wc -l < count.txt";
  await using provider = await startFakeProvider([
    shellTurn(counting),
    shellTurn(counting),
    shellTurn(counting),
    shellTurn(counting),
    { text: "counted" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "count"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "counted\n");
  assert.equal(provider.requests.length, 5);
});

Deno.test("two identical rounds then a different one is not a loop", async () => {
  await using provider = await startFakeProvider([
    shellTurn("echo same"),
    shellTurn("echo same"),
    shellTurn("echo other"),
    shellTurn("echo same"),
    { text: "fine" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "fine\n");
});

Deno.test("--max-turns stops the run with an error after that many model calls", async () => {
  await using provider = await startFakeProvider([
    shellTurn("echo one"),
    shellTurn("echo two"),
    shellTurn("echo three"),
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "--max-turns", "2", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(provider.requests.length, 2);
  const last = lastLine(result.stderr);
  assert.match(last, /^rienda: /);
  assert.ok(last.includes("max-turns"), last);
});

Deno.test("--max-turns lets a run that answers within the limit succeed", async () => {
  await using provider = await startFakeProvider([shellTurn("echo one"), { text: "answered" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "--max-turns", "2", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "answered\n");
});
