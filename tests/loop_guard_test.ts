import assert from "node:assert/strict";
import { checkSession, lastLine, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";
import { textContent, toolResultsOf } from "./harness/wire.ts";
import type { RecordedRequest } from "./harness/fake_provider.ts";

/** The text of the last tool result a request sent back. */
function lastResult(request: RecordedRequest | undefined): string {
  return textContent(toolResultsOf(request).at(-1)?.content);
}

function shellTurn(command: string): Turn {
  return { toolCalls: [{ name: "shell", arguments: { command } }] };
}

Deno.test("the same tool call with the same result: a note on the third, the run stops on the fifth", async () => {
  await using provider = await startFakeProvider([
    ...Array.from({ length: 5 }, () => shellTurn("echo same")),
    { text: "never asked" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "loop"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(provider.requests.length, 5);
  assert.equal(
    lastLine(result.stderr),
    "rienda: the model made the same tool call with the same result 5 times in a row",
  );
  // What the model read after each round: the third and fourth results carry the note.
  const seen = provider.requests.slice(1).map(lastResult);
  assert.equal(seen[0], "same");
  assert.equal(seen[1], "same");
  for (const [index, round] of [[2, 3], [3, 4]] as const) {
    assert.ok(seen[index]?.startsWith("same\n\n[rienda: this is call "), seen[index]);
    assert.ok(seen[index]?.includes(`call ${round} in a row`), seen[index]);
    assert.ok(seen[index]?.includes("change approach"), seen[index]);
  }
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  assert.equal(session.entries.length, 17, "prompt + 5 × (call, tool start, result) + failure");
  assert.equal(session.entries.at(-1)?.kind, "failure");
});

Deno.test("a model that changes approach after the note finishes the run", async () => {
  await using provider = await startFakeProvider([
    shellTurn("echo same"),
    shellTurn("echo same"),
    shellTurn("echo same"),
    shellTurn("echo other"),
    { text: "done differently" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "loop"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "done differently\n");
  assert.match(lastResult(provider.requests[3]), /change approach/);
  assert.equal(lastResult(provider.requests[4]), "other");
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
