import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";

/** A hostile model: escape sequences in a tool argument (C1 CSI), in tool output and in the answer (OSC title). */
function hostileTurns(): Turn[] {
  return [
    {
      toolCalls: [{
        name: "shell",
        arguments: { command: "printf 'out \\033[31mred\\033[0m\\n'; exit 3 # \u009b2J" },
      }],
    },
    { text: "done \x1b]0;pwned\x07 and \x1b[2Jcleared" },
  ];
}

Deno.test("on a terminal, text of the model and its tools cannot drive the terminal", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider(hostileTurns());
  await using env = await createTestEnv({ provider });
  const run = await env.startInTerminal(["run", "-a", "coder", "go"], { env: { NO_COLOR: "1" } });
  const { code, stdout } = await run.wait();
  assert.equal(code, 0, stdout);
  for (const raw of ["\x1b]0;pwned", "\x1b[2Jcleared", "\x1b[31mred", "\u009b2J"]) {
    assert.ok(!stdout.includes(raw), `${JSON.stringify(raw)} reached the terminal:\n${stdout}`);
  }
  assert.ok(stdout.includes("done \\x1b]0;pwned\\x07 and \\x1b[2Jcleared"), stdout);
  // A command's colours are dropped with NO_COLOR (and rendered with colour: command_colours_test.ts).
  assert.ok(stdout.includes("out red\r\n"), stdout);
  assert.ok(stdout.includes("\\x9b2J"), stdout);

  const id = /session: (\S+)/.exec(stdout)?.[1];
  assert.ok(id !== undefined, stdout);
  const show = await env.startInTerminal(["sessions", "show", id], { env: { NO_COLOR: "1" } });
  const transcript = (await show.wait()).stdout;
  assert.ok(!transcript.includes("\x1b]0;pwned"), transcript);
  assert.ok(transcript.includes("\\x1b]0;pwned\\x07"), transcript);
});

Deno.test("stdout to a pipe keeps the answer byte for byte, escape sequences included", async () => {
  await using provider = await startFakeProvider(hostileTurns());
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "done \x1b]0;pwned\x07 and \x1b[2Jcleared\n");
});

Deno.test("on a terminal, rienda tools shows an extension's escape sequences written out", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using env = await createTestEnv();
  await env.writeTool(
    "sneaky",
    `module.exports = { description: "lists \\x1b]0;pwned\\x07 files", parameters: { type: "object" }, execute() { return "x"; } };`,
  );
  const listing = (await (await env.startInTerminal(["tools"])).wait()).stdout;
  assert.ok(!listing.includes("\x1b]0;pwned"), listing);
  assert.ok(listing.includes("lists \\x1b]0;pwned\\x07 files"), listing);
});
