/**
 * The progress spinner of `rienda run` on a terminal (docs/cli.md, Output):
 * while a tool runs and prints nothing it shows the tool and the elapsed
 * time; NO_COLOR and TERM=dumb give plain lines and no spinner.
 */

import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { startPty } from "./harness/pty.ts";

const FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

function slowToolTurns() {
  return [
    { toolCalls: [{ name: "shell", arguments: { command: "echo begun; sleep 2.4; echo ended" } }] },
    { text: "finished" },
  ];
}

Deno.test("a silent tool shows a spinner with its elapsed time on a terminal", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider(slowToolTurns());
  await using env = await createTestEnv({ provider });
  await using pty = await startPty(["run", "-a", "coder", "go"], {
    cwd: env.workdir,
    home: env.userHome,
    riendaHome: env.home,
    env: { NO_COLOR: undefined },
  });
  // The spinner comes back below the output once the command falls silent, and counts up.
  await pty.waitFor((screen) => screen.includes("running shell (1s)"), "the spinner");
  const result = await pty.wait();
  assert.equal(result.code, 0, result.raw);
  assert.match(result.raw, FRAMES);
  const screen = (await pty.allRows()).join("\n");
  assert.ok(!screen.includes("running shell"), `the spinner line was left behind:\n${screen}`);
  assert.ok(screen.includes("begun") && screen.includes("ended") && screen.includes("finished"));
});

for (
  const [claim, env] of [
    ["NO_COLOR", { NO_COLOR: "1" }],
    ["TERM=dumb", { NO_COLOR: undefined, TERM: "dumb" }],
  ] as const
) {
  Deno.test(`${claim} gives plain lines and no spinner on a terminal`, async () => {
    await using provider = await startFakeProvider(slowToolTurns());
    await using test = await createTestEnv({ provider });
    await using pty = await startPty(["run", "-a", "coder", "go"], {
      cwd: test.workdir,
      home: test.userHome,
      riendaHome: test.home,
      env,
    });
    const result = await pty.wait();
    assert.equal(result.code, 0, result.raw);
    assert.ok(!FRAMES.test(result.raw), `a spinner frame: ${JSON.stringify(result.raw)}`);
    assert.ok(!result.raw.includes("running shell"), result.raw);
    assert.ok(!result.raw.includes("\x1b["), `an escape sequence: ${JSON.stringify(result.raw)}`);
  });
}
