import assert from "node:assert/strict";
import { checkSession, lastLine, sessionIdOf, userPromptEntry } from "./harness/assertions.ts";
import { readingStdin } from "./harness/processes.ts";
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
  const stored = session.entries.find((entry) => entry.kind === "message");
  return { sent: promptOf(provider.requests[0]), stored };
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

Deno.test("run never waits for a terminal's stdin when the prompt is given as words", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await using terminal = await env.startInTerminal(["run", "-a", "coder", "from", "words"]);
  const result = await terminal.wait();
  assert.equal(result.code, 0, result.stdout);
  assert.equal(promptOf(provider.requests[0]), "from words");
});

/** The line a run prints when the stdin beside its prompt sent nothing in time. */
const SILENT_STDIN_NOTICE = "stdin gave nothing within 2 s; ignored (-p - waits for it)\n";

Deno.test("run with words goes on after 2 s when stdin stays open and silent, and says so", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  // A script's inherited stdin (node's execFile, make under CI): open, and nobody writes it.
  await using process = await env.start(["run", "-a", "coder", "check"], { openStdin: true });
  const result = await process.wait();
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "ok\n");
  assert.equal(promptOf(provider.requests[0]), "check");
  assert.ok(result.stderr.startsWith(SILENT_STDIN_NOTICE), result.stderr);
});

Deno.test("run -p TEXT goes on too when stdin stays silent for RIENDA_STDIN_WAIT_MS", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "-p", "check"], {
    openStdin: true,
    env: { RIENDA_STDIN_WAIT_MS: "100" },
  });
  const result = await process.wait();
  assert.equal(result.code, 0, result.stderr);
  assert.equal(promptOf(provider.requests[0]), "check");
  assert.match(result.stderr, /^stdin gave nothing within 100 ms; ignored \(-p - waits for it\)\n/);
});

Deno.test("run reads a stdin that started within the wait to its end, however long it pauses", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "review"], {
    openStdin: true,
    env: { RIENDA_STDIN_WAIT_MS: "60" },
  });
  await process.writeStdin("part one\n");
  await readingStdin(process.pid);
  // A pause five times the wait: once bytes came, only the end of stdin ends the reading.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await process.writeStdin("part two\n");
  await process.closeStdin();
  const result = await process.wait();
  assert.equal(result.code, 0, result.stderr);
  assert.equal(promptOf(provider.requests[0]), "review\n\n<stdin>\npart one\npart two\n</stdin>");
  assert.ok(!result.stderr.includes("stdin gave nothing"), result.stderr);
});

Deno.test("run -p - and a run without words wait for stdin as long as it takes", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }, { text: "ok" }]);
  await using env = await createTestEnv({ provider });
  for (const args of [["-p", "-"], []]) {
    await using process = await env.start(["run", "-a", "coder", ...args], {
      openStdin: true,
      env: { RIENDA_STDIN_WAIT_MS: "1" },
    });
    await readingStdin(process.pid);
    // Fifty times the wait a prompt given as words would allow.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await process.writeStdin("the late prompt\n");
    await process.closeStdin();
    const result = await process.wait();
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stderr.includes("stdin gave nothing"), result.stderr);
  }
  assert.deepEqual(provider.requests.map(promptOf), ["the late prompt", "the late prompt"]);
});

Deno.test("an interrupt ends a run -p - waiting on a silent stdin at once (exit 130)", async () => {
  await using provider = await startFakeProvider([{ text: "never asked" }]);
  await using env = await createTestEnv({ provider });
  await using process = await env.start(["run", "-a", "coder", "-p", "-"], { openStdin: true });
  await readingStdin(process.pid);
  const interruptedAt = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  const tookMs = performance.now() - interruptedAt;
  assert.equal(result.code, 130, result.stderr);
  assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
  assert.ok(tookMs < 2_000, `exited ${Math.round(tookMs)} ms after the interrupt`);
  assert.equal(provider.requests.length, 0);
});

Deno.test("RIENDA_STDIN_WAIT_MS that is not a whole number is a usage error naming it", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["run", "-a", "coder", "check"], {
    stdin: "x",
    env: { RIENDA_STDIN_WAIT_MS: "2s" },
  });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /rienda: RIENDA_STDIN_WAIT_MS must be a whole number of milliseconds \(found "2s"\)/,
  );
});

Deno.test("a run whose words got stdin appended is titled by the words in rienda sessions", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }, { text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n";
  const piped = await env.run(["run", "-a", "coder", "review", "this"], { stdin: diff });
  assert.equal(piped.code, 0, piped.stderr);
  const again = await env.run(["run", "-c", "and the tests?"]);
  assert.equal(again.code, 0, again.stderr);
  const list = await env.run(["sessions"]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^\S+ {2}coder {2}fake\/m {2}.+? {2}review this$/m);
  assert.ok(!list.stdout.includes("<stdin>"), list.stdout);
});
