/**
 * `rienda run`'s stderr shows each call with its arguments (long ones cut),
 * one short line for its result, and the diff of `edit` and `write`,
 * coloured on a terminal.
 */

import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";
import { toolResultsOf } from "./harness/wire.ts";

const EDITS: Turn[] = [
  {
    toolCalls: [
      {
        name: "edit",
        arguments: { path: "a.txt", old_string: "old line", new_string: "new line" },
      },
      { name: "write", arguments: { path: "b.txt", content: "one\nTWO\nthree\n" } },
      { name: "write", arguments: { path: "c.txt", content: "x".repeat(500) + "\n" } },
      { name: "shell", arguments: { command: "printf 'first\\nsecond\\n'" } },
      { name: "shell", arguments: { command: "true" } },
      { name: "read", arguments: { path: "a.txt" } },
    ],
  },
  { text: "done" },
];

async function editsEnv(provider: { url: string }) {
  const env = await createTestEnv({ provider });
  await env.writeFile("workspace/a.txt", "keep\nold line\nkeep too\n");
  await env.writeFile("workspace/b.txt", "one\ntwo\nthree\n");
  await env.writeAgent("editor", {
    description: "Edits.",
    tools: ["edit", "write", "shell", "read"],
  });
  return env;
}

Deno.test("rienda run's stderr shows one result line per call and the diff of edit and write", async () => {
  await using provider = await startFakeProvider(EDITS);
  await using env = await editsEnv(provider);
  const result = await env.run(["run", "-a", "editor", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const stderr = result.stderr;
  assert.ok(
    stderr.includes(
      [
        "tool done: edited a.txt (1 replacement)",
        "@@ -1,3 +1,3 @@",
        " keep",
        "-old line",
        "+new line",
        " keep too",
        "tool: write",
      ].join("\n"),
    ),
    stderr,
  );
  assert.ok(
    stderr.includes(
      "tool done: replaced b.txt (3 lines, was 3)\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n",
    ),
    stderr,
  );
  assert.ok(stderr.includes("tool done: created c.txt (1 line)\ntool: shell"), stderr);
  assert.ok(stderr.includes("first\nsecond\ntool done: exit 0 · 2 lines\n"), stderr);
  assert.ok(stderr.includes('{"command":"true"}\ntool done: exit 0 · no output\n'), stderr);
  assert.ok(stderr.includes("tool done: 3 lines\n"), stderr);
  // Long arguments are cut on the tool: line; the diff shows the change.
  const writeLine = stderr.split("\n").find((line) => line.includes('"path":"c.txt"')) ?? "";
  assert.ok(writeLine.length < 260 && writeLine.endsWith("…"), writeLine);
  // The model reads the diff of a replaced file too.
  const [, replaced] = toolResultsOf(provider.requests[1]);
  assert.equal(
    replaced?.content,
    "replaced b.txt (3 lines, was 3)\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three",
  );
});

Deno.test("on a terminal, the diff on rienda run's stderr is red and green", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider(EDITS);
  await using env = await editsEnv(provider);
  const run = await env.startInTerminal(["run", "-a", "editor", "go"], {
    env: { NO_COLOR: undefined, TERM: "xterm-256color" },
  });
  const { code, stdout } = await run.wait();
  assert.equal(code, 0, stdout);
  assert.ok(stdout.includes("\x1b[31m-old line\x1b[39m"), JSON.stringify(stdout));
  assert.ok(stdout.includes("\x1b[32m+new line\x1b[39m"), JSON.stringify(stdout));
  assert.ok(stdout.includes("\x1b[32mtool done:\x1b[39m edited a.txt (1 replacement)"), stdout);
});
