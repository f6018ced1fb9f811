/**
 * Escape sequences that commands, tools and MCP servers print: the model
 * reads none of them; `rienda run`'s stderr renders the colours on a
 * terminal, drops them with `NO_COLOR` and to a pipe, and writes out every
 * other sequence; a tool name with escapes never reaches stderr raw.
 */

import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";
import { configWithMcp, everythingStdio } from "./harness/mcp_servers.ts";
import { toolResultsOf } from "./harness/wire.ts";

/** What a coloured command prints, with a title, a screen clear and a C1 CSI among its colours. */
const PRINTF = String
  .raw`printf '\033[38;5;208morange\033[0m \033]0;pwned\007title \033[2Jclear \302\2332Jc1\n\033[1mbold'`;

/** A model that runs the coloured command and then answers. */
function colourTurns(): Turn[] {
  return [{ toolCalls: [{ name: "shell", arguments: { command: PRINTF } }] }, { text: "done" }];
}

/** Every raw control byte that would drive a terminal. */
// deno-lint-ignore no-control-regex
const RAW_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

Deno.test("the model reads tool results without escape sequences: shell, user tools, MCP and hook rewrites", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: PRINTF } },
        { name: "paint", arguments: {} },
        { name: "everything__echo", arguments: { message: "\x1b[31mred\x1b[0m \x9d0;t\x9cok" } },
        { name: "sh\x1b]0;x\x07ell", arguments: {} },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, { everything: await everythingStdio() }));
  await env.writeTool(
    "paint",
    `module.exports = { description: "Paints.", parameters: { type: "object" }, execute() { return "\\x1b[32mgreen\\x1b[0m \\x1b]8;;https://evil\\x1b\\\\link\\x1b]8;;\\x1b\\\\"; } };`,
  );
  await env.writeHook(
    "tint",
    `module.exports = { afterToolExecute(ctx, call, result) { return call.name === "paint" ? { text: result.text + " \\x1b[7mrewritten\\x1b[27m" } : undefined; } };`,
  );
  await env.writeAgent("colours", {
    description: "Colours.",
    tools: ["shell", "paint", "mcp:everything"],
    hooks: ["tint"],
  });
  const result = await env.run(["run", "-a", "colours", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const results = toolResultsOf(provider.requests[1]).map((r) => String(r.content));
  for (const content of results) {
    assert.ok(
      !content.includes("\x1b") && !/[\x9b\x9c\x9d]/.test(content),
      JSON.stringify(content),
    );
  }
  assert.deepEqual(results.slice(0, 3), [
    "orange title clear c1\nbold",
    "green link rewritten",
    "Echo: red ok",
  ]);
  assert.match(results[3]!, /^unknown tool "shell"/);
});

Deno.test(
  "on a terminal, rienda run's stderr renders a command's colours and writes out its other sequences",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(colourTurns());
    await using env = await createTestEnv({ provider });
    const run = await env.startInTerminal(["run", "-a", "coder", "go"], {
      env: { NO_COLOR: undefined, TERM: "xterm-256color" },
    });
    const { code, stdout } = await run.wait();
    assert.equal(code, 0, stdout);
    assert.ok(stdout.includes("\x1b[38;5;208morange\x1b[0m"), JSON.stringify(stdout));
    assert.ok(stdout.includes("\x1b[1mbold"), JSON.stringify(stdout));
    for (const raw of ["\x1b]0;pwned", "\x1b[2Jclear", "\x9b2J"]) {
      assert.ok(!stdout.includes(raw), `${JSON.stringify(raw)} reached the terminal`);
    }
    for (const shown of ["\\x1b]0;pwned\\x07title", "\\x1b[2Jclear", "\\x9b2Jc1"]) {
      assert.ok(stdout.includes(shown), `${shown} is not written out: ${JSON.stringify(stdout)}`);
    }
    // The command's bold does not leak into rienda's own lines after it.
    const after = stdout.slice(stdout.indexOf("\x1b[1mbold"), stdout.indexOf("tool done:"));
    assert.ok(after.includes("\x1b[0m"), JSON.stringify(after));
  },
);

Deno.test(
  "with NO_COLOR on a terminal, a command's colours are dropped and its other sequences written out",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(colourTurns());
    await using env = await createTestEnv({ provider });
    const run = await env.startInTerminal(["run", "-a", "coder", "go"], { env: { NO_COLOR: "1" } });
    const { code, stdout } = await run.wait();
    assert.equal(code, 0, stdout);
    assert.ok(
      stdout.includes("orange \\x1b]0;pwned\\x07title \\x1b[2Jclear"),
      JSON.stringify(stdout),
    );
    assert.ok(!stdout.includes("\x1b[38;5;208m") && !stdout.includes("\\x1b[38;5;208m"), stdout);
    assert.ok(!stdout.includes("\x1b]0;pwned"), stdout);
  },
);

Deno.test("to a pipe, stderr carries no escape sequence: a command's are dropped, a tool name's written out", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "shell", arguments: { command: PRINTF } },
        { name: "evil\x1b]0;pwned\x07\x9b2Jname", arguments: {} },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(!RAW_CONTROLS.test(result.stderr), JSON.stringify(result.stderr));
  assert.ok(result.stderr.includes("orange title clear c1\nbold"), result.stderr);
  assert.ok(result.stderr.includes("tool: evil\\x1b]0;pwned\\x07\\x9b2Jname {}"), result.stderr);
  assert.ok(
    result.stderr.includes('tool failed: unknown tool "evilname"'),
    result.stderr,
  );
});
