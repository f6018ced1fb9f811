import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { type PtySession, startPty } from "./harness/pty.ts";

/** The chat in a pty, in the test environment's workspace. */
function chat(env: TestEnv, args: readonly string[]): Promise<PtySession> {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home });
}

Deno.test("interactive: escape sequences of the model and its tools never reach the terminal", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        name: "shell",
        arguments: { command: "printf 'out \\033]0;tooltitle\\007 \\033[2Jx\\n' # \u009b2J" },
      }],
    },
    { text: "done \x1b]0;pwned\x07 and \x1b[2Jcleared \u009b1;1H \u009d0;c1title\x07" },
  ]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder", "go"]);
  await pty.waitFor((s) => s.includes("cleared"), "the answer");
  await pty.type("\x04");
  const { raw } = await pty.wait();
  for (
    const hostile of [
      "\x1b]0;pwned",
      "\x1b]0;tooltitle",
      "\x1b[2Jcleared",
      "\x1b[2Jx",
      "\u009b",
      "\u009d",
    ]
  ) {
    assert.ok(!raw.includes(hostile), `${JSON.stringify(hostile)} reached the terminal`);
  }
});

Deno.test(
  "interactive: a hostile tool name, file name and model name are written out, not obeyed",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "x\x1b]0;tooltitle\x07y", arguments: {} }] },
      { text: "after the unknown tool" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeFile("workspace/a\x1b]52;c;Y3VybA==\x07b.txt", "x");
    // Agent files and config.yaml refuse such a model; -m and a session file's entries do not.
    await using pty = await chat(env, ["-a", "coder", "-m", "fake/m\x1b]0;modeltitle\x07"]);
    await pty.waitFor(
      (s) => s.includes("coder · fake/m\\x1b]0;modeltitle\\x07 · thinking off"),
      "the model on the status line",
    );
    await pty.type("@a");
    await pty.waitFor(
      (s) => s.includes("a\\x1b]52;c;Y3VybA==\\x07b.txt"),
      "the file in the popup",
    );
    await pty.type("\x15\x04");
    const { raw } = await pty.wait();
    for (const hostile of ["\x1b]0;modeltitle", "\x1b]52;c;"]) {
      assert.ok(!raw.includes(hostile), `${JSON.stringify(hostile)} reached the terminal`);
    }
    await using second = await chat(env, ["-a", "coder", "go"]);
    await second.waitFor((s) => s.includes("after the unknown tool"), "the answer");
    await second.type("\x04");
    const after = await second.wait();
    assert.ok(after.raw.includes("x\\x1b]0;tooltitle\\x07y"), "the tool name is not shown");
    assert.ok(!after.raw.includes("\x1b]0;tooltitle"), "the tool name reached the terminal raw");
  },
);
