import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { startPty } from "./harness/pty.ts";

Deno.test("interactive: escape sequences of the model and its tools never reach the terminal", async () => {
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
  await using pty = await startPty(["-a", "coder", "go"], {
    cwd: env.workdir,
    home: env.userHome,
    riendaHome: env.home,
  });
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
