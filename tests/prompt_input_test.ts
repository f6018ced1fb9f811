import assert from "node:assert/strict";
import { checkSession, sessionIdOf, userPromptEntry } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { promptOf } from "./harness/wire.ts";

async function promptSent(
  args: string[],
  stdin?: string,
): Promise<{ sent: string; stored: unknown }> {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(
    ["run", "-a", "coder", ...args],
    stdin === undefined ? {} : { stdin },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "ok\n");
  const session = checkSession(await env.readSession(sessionIdOf(result.stderr)));
  return { sent: promptOf(provider.requests[0]), stored: session.entries[0] };
}

Deno.test("run joins the positional words with single spaces into the prompt", async () => {
  const { sent, stored } = await promptSent(["what", "is", "2+2?"]);
  assert.equal(sent, "what is 2+2?");
  assert.deepEqual(stored, userPromptEntry("what is 2+2?"));
});

Deno.test("run takes the prompt from -p and --prompt", async () => {
  assert.equal((await promptSent(["-p", "from the flag"])).sent, "from the flag");
  assert.equal((await promptSent(["--prompt", "long flag"])).sent, "long flag");
});

Deno.test("run -p - reads the prompt from stdin", async () => {
  const { sent, stored } = await promptSent(["-p", "-"], "from stdin");
  assert.equal(sent, "from stdin");
  assert.deepEqual(stored, userPromptEntry("from stdin"));
});

Deno.test("run reads the prompt from a piped stdin when no prompt is given", async () => {
  const { sent } = await promptSent([], "piped prompt");
  assert.equal(sent, "piped prompt");
});

Deno.test("run keeps a multi-line stdin prompt whole", async () => {
  const { sent } = await promptSent([], "first line\nsecond line\n");
  assert.equal(sent.trimEnd(), "first line\nsecond line");
});

Deno.test("run keeps unicode and quotes of the prompt unchanged", async () => {
  const prompt = `résumé "quoted" 'single' 😀 $HOME`;
  assert.equal((await promptSent([prompt])).sent, prompt);
});

Deno.test("run appends a piped stdin to the words in a <stdin> block", async () => {
  const diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n";
  const { sent, stored } = await promptSent(["review", "this"], diff);
  const expected = `review this\n\n<stdin>\n${diff.trimEnd()}\n</stdin>`;
  assert.equal(sent, expected);
  assert.deepEqual(stored, userPromptEntry(expected));
});

Deno.test("run appends a piped stdin to -p TEXT in a <stdin> block", async () => {
  const { sent } = await promptSent(["-p", "summarise"], "line one\nline two\n");
  assert.equal(sent, "summarise\n\n<stdin>\nline one\nline two\n</stdin>");
});

Deno.test("run sends the words alone when the piped stdin is empty or blank", async () => {
  assert.equal((await promptSent(["just", "words"], "")).sent, "just words");
  assert.equal((await promptSent(["just", "words"], " \n\n\t\n")).sent, "just words");
});

Deno.test("run refuses a piped stdin over 32 MiB with a usage error and sends nothing", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const big = "x".repeat(32 * 1024 * 1024 + 1);
  const result = await env.run(["run", "-a", "coder", "review"], { stdin: big });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /rienda: standard input is larger than 32 MiB/);
  assert.equal(provider.requests.length, 0);
});

Deno.test("run never waits for a terminal's stdin when the prompt is given as words", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await using terminal = await env.startInTerminal(["run", "-a", "coder", "from", "words"]);
  const result = await terminal.wait();
  assert.equal(result.code, 0, result.stdout);
  assert.equal(promptOf(provider.requests[0]), "from words");
});
