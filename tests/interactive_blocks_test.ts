/**
 * How the chat shows tool blocks and turn footnotes: a command's colours in
 * its output (its other escape sequences written out), every edit's diff in
 * red and green, and no footnote for a turn that sent no request.
 */

import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { type PtyOptions, type PtySession, startPty } from "./harness/pty.ts";

function chat(env: TestEnv, args: readonly string[], options: Partial<PtyOptions> = {}) {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home, ...options });
}

const IDLE = (screen: string) => screen.includes("Ask the agent something");

async function quit(pty: PtySession): Promise<void> {
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
}

Deno.test(
  "interactive: a running command's colours show in its tool block; its other sequences are written out",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    const command = String
      .raw`printf '\033[38;5;208morange\033[0m \033]0;pwned\007title \033[2Jclear\n'; read -r _ < ./go`;
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "shell", arguments: { command } }] },
      { text: "all done" },
    ]);
    await using env = await createTestEnv({ provider });
    await new Deno.Command("mkfifo", { args: [`${env.workdir}/go`] }).output();
    await using pty = await chat(env, ["-a", "coder", "run it"], { env: { NO_COLOR: undefined } });
    const running = await pty.waitFor((s) => s.includes("│ orange"), "the live output");
    assert.match(running, /│ orange \\x1b\]0;pwned\\x07title \\x1b\[2Jclear/);
    assert.ok(pty.raw().includes("\x1b[38;5;208morange"), "the command's colour is not rendered");
    assert.ok(!pty.raw().includes("\x1b]0;pwned"), "the OSC title reached the terminal");
    await Deno.writeTextFile(`${env.workdir}/go`, "\n");
    await pty.waitFor((s) => s.includes("all done") && IDLE(s), "the answer");
    await quit(pty);
  },
);

Deno.test("interactive: with NO_COLOR a command's colours are dropped from its tool block", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const command = String.raw`printf '\033[38;5;208morange\033[0m plain\n'; read -r _ < ./go`;
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command } }] },
    { text: "all done" },
  ]);
  await using env = await createTestEnv({ provider });
  await new Deno.Command("mkfifo", { args: [`${env.workdir}/go`] }).output();
  await using pty = await chat(env, ["-a", "coder", "run it"], { env: { NO_COLOR: "1" } });
  await pty.waitFor((s) => s.includes("│ orange plain"), "the live output");
  assert.ok(!pty.raw().includes("\x1b[38;5;208m"), "the command's colour reached the terminal");
  await Deno.writeTextFile(`${env.workdir}/go`, "\n");
  await pty.waitFor((s) => s.includes("all done") && IDLE(s), "the answer");
  await quit(pty);
});

Deno.test("interactive: every edit and write shows its diff, red and green", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "edit", arguments: { path: "a.txt", old_string: "alpha", new_string: "ALPHA" } },
        { name: "edit", arguments: { path: "a.txt", old_string: "gamma", new_string: "GAMMA" } },
      ],
    },
    { toolCalls: [{ name: "write", arguments: { path: "b.txt", content: "new b\n" } }] },
    { toolCalls: [{ name: "write", arguments: { path: "c.txt", content: "c1\nc2\n" } }] },
    { text: "edited" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeFile("workspace/a.txt", "alpha\nbeta\ngamma\n");
  await env.writeFile("workspace/b.txt", "old b\n");
  await env.writeAgent("editor", { description: "Edits.", tools: ["edit", "write"] });
  await using pty = await chat(env, ["-a", "editor", "edit them"], {
    env: { NO_COLOR: undefined },
    rows: 40,
  });
  await pty.waitFor((s) => s.includes("edited") && IDLE(s), "the answer");
  const all = (await pty.allRows()).join("\n");
  assert.match(
    all,
    /✓ edit {2}a\.txt · \+1 −1\n {2}│ @@ -1,3 \+1,3 @@\n {2}│ -alpha\n {2}│ \+ALPHA/,
  );
  assert.match(
    all,
    /✓ edit {2}a\.txt · \+1 −1\n {2}│ @@ -1,3 \+1,3 @@\n {2}│ {2}ALPHA\n {2}│ {2}beta\n {2}│ -gamma\n {2}│ \+GAMMA/,
  );
  assert.match(
    all,
    /✓ write {2}b\.txt · \+1 −1\n {2}│ @@ -1,1 \+1,1 @@\n {2}│ -old b\n {2}│ \+new b/,
  );
  assert.match(all, /✓ write {2}c\.txt · created \(2 lines\)\n\n/);
  const raw = pty.raw();
  for (const line of ["-alpha", "-gamma", "-old b"]) {
    assert.ok(raw.includes(`\x1b[31m${line}\x1b[39m`), `${line} is not red`);
  }
  for (const line of ["+ALPHA", "+GAMMA", "+new b"]) {
    assert.ok(raw.includes(`\x1b[32m${line}\x1b[39m`), `${line} is not green`);
  }
  await quit(pty);
});

Deno.test("interactive: a turn that sent no request gets no footnote", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([{ text: "answer 1" }]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder"]);
  await pty.waitFor(IDLE, "the prompt");
  await pty.type("/compact\r");
  await pty.waitFor((s) => s.includes("nothing to compact"), "the refusal");
  await pty.type("hello\r");
  const done = await pty.waitFor((s) => s.includes("answer 1") && IDLE(s), "the answer");
  assert.ok(!done.includes("0 in · 0 out"), done);
  assert.match(done, /answer 1\n\n\d+\.\ds · 10 in · 5 out/);
  await quit(pty);
});

Deno.test(
  "interactive: with TERM=dumb a command's colours are dropped and an edit's diff follows its call",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    const command = String.raw`printf '\033[38;5;208morange\033[0m \033]0;pwned\007title\n'`;
    await using provider = await startFakeProvider([
      {
        toolCalls: [
          { name: "shell", arguments: { command } },
          { name: "edit", arguments: { path: "a.txt", old_string: "alpha", new_string: "ALPHA" } },
        ],
      },
      { text: "plain done" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeFile("workspace/a.txt", "alpha\n");
    await env.writeAgent("both", { description: "Both.", tools: ["shell", "edit"] });
    await using pty = await chat(env, ["-a", "both"], { env: { TERM: "dumb" } });
    await pty.waitFor((s) => s.includes("plain mode"), "the banner");
    await pty.type("go\r");
    await pty.waitFor((s) => s.includes("plain done"), "the answer");
    await pty.type("/quit\r");
    const { code, raw } = await pty.wait();
    assert.equal(code, 0);
    assert.ok(raw.includes("orange \\x1b]0;pwned\\x07title"), JSON.stringify(raw));
    assert.ok(
      !raw.includes("\x1b[38;5;208m") && !raw.includes("\x1b]0;pwned"),
      JSON.stringify(raw),
    );
    assert.match(raw, /@@ -1,1 \+1,1 @@\r?\n-alpha\r?\n\+ALPHA/);
  },
);
