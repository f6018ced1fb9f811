import assert from "node:assert/strict";
import { assistantEntry, checkSession, userPromptEntry } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { loadedModules } from "./harness/loaded_modules.ts";
import { at } from "./harness/json.ts";
import { type PtyOptions, type PtySession, startPty } from "./harness/pty.ts";
import { CHECKOUT_DIR } from "./harness/rienda.ts";

/** Starts the chat in a pty in the test environment's workspace. */
function chat(
  env: TestEnv,
  args: readonly string[],
  options: Partial<PtyOptions> = {},
): Promise<PtySession> {
  return startPty(args, {
    cwd: env.workdir,
    home: env.userHome,
    riendaHome: env.home,
    ...options,
  });
}

const PROMPT_READY = (screen: string) => screen.includes("Ask the agent something");

const MARKDOWN = [
  "# Plan",
  "",
  "Some **bold** text and `code`, with [a link](https://example.com).",
  "",
  "- first item",
  "- second item",
  "",
  "```ts",
  "const answer = 42;",
  "```",
  "",
  "| name | size |",
  "|------|------|",
  "| a.ts | 12 |",
  "",
  "Wide: 日本語 👍 end.",
].join("\n");

async function sessionOf(env: TestEnv) {
  const [file] = await env.sessionFiles();
  assert.ok(file !== undefined, "no session file");
  return checkSession(await env.readSession(file));
}

Deno.test(
  "interactive: a prompt and a streamed Markdown answer at 80x24, session as rienda run writes it",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([{
      text: MARKDOWN,
      chunks: 30,
      chunkDelayMs: 10,
    }]);
    await using env = await createTestEnv({ provider });
    await using pty = await chat(env, ["-a", "coder", "explain the repo"]);
    await pty.waitFor((s) => s.includes("end.") && PROMPT_READY(s), "the answer");
    const screen = (await pty.allRows()).join("\n");
    for (const expected of ["› explain the repo", "Plan", "• first item", "│ const answer = 42;"]) {
      assert.ok(screen.includes(expected), `missing ${expected}:\n${screen}`);
    }
    assert.match(screen, /with a link \(https:\/\/example\.com\)/);
    assert.match(screen, /┌──────┬──────┐\n│ name │ size │/);
    assert.match(screen, /Wide: 日本語 👍 end\./);
    assert.match(screen, /coder · fake\/m · thinking off/);
    const rows = await pty.screen();
    assert.ok(rows.every((row) => row.length < 80), "a row fills the last column");
    await pty.type("\x04");
    const { code } = await pty.wait();
    assert.equal(code, 0);
    const session = await sessionOf(env);
    assert.deepEqual(session.entries, [
      userPromptEntry("explain the repo"),
      assistantEntry([{ type: "text", text: MARKDOWN }], "end_turn"),
    ]);
    // Finished output was written once: the heading is in the scrollback exactly once.
    const all = (await pty.allRows()).filter((row) => row === "Plan");
    assert.equal(all.length, 1);
  },
);

Deno.test("interactive: a tool block shows live output, then a one-line summary", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [{
        name: "shell",
        arguments: { command: "echo one; echo two; read -r _ < ./go; echo three" },
      }],
    },
    { text: "all done" },
  ]);
  await using env = await createTestEnv({ provider });
  await new Deno.Command("mkfifo", { args: [`${env.workdir}/go`] }).output();
  await using pty = await chat(env, ["-a", "coder", "run it"]);
  const running = await pty.waitFor((s) => s.includes("│ two"), "the live output");
  assert.match(running, /running shell · \d+s · esc to interrupt/);
  assert.match(running, /shell {2}echo one; echo two/);
  await Deno.writeTextFile(`${env.workdir}/go`, "\n");
  const done = await pty.waitFor((s) => s.includes("all done") && PROMPT_READY(s), "the answer");
  assert.match(done, /✓ shell {2}echo one; echo two; read -r _ < \.\/go; echo three · 3 lines/);
  assert.ok(!done.includes("│ two"), done);
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
});

Deno.test("interactive: Esc mid-stream interrupts; the next message continues a valid session", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { text: "slow words ".repeat(60), chunks: 60, chunkDelayMs: 50 },
    { text: "second answer" },
  ]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder", "tell me slowly"]);
  await pty.waitFor((s) => s.includes("slow words slow"), "the stream");
  await pty.type("\x1b");
  await pty.waitFor((s) => s.includes("! interrupted") && PROMPT_READY(s), "the interrupt");
  await pty.type("go on\r");
  await pty.waitFor((s) => s.includes("second answer"), "the second answer");
  await pty.type("\x03");
  await pty.waitFor((s) => s.includes("ctrl+c again to quit"), "the quit hint");
  await pty.type("\x03");
  assert.equal((await pty.wait()).code, 0);
  const session = await sessionOf(env);
  assert.deepEqual(session.entries, [
    userPromptEntry("tell me slowly"),
    userPromptEntry("go on"),
    assistantEntry([{ type: "text", text: "second answer" }], "end_turn"),
  ]);
  const sent = provider.requests[1]!.body;
  assert.equal(at(sent, "messages", 1, "content"), "tell me slowly");
});

Deno.test("interactive: a message typed during a turn is queued and sent when it ends", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { text: "first answer, slowly", chunks: 20, chunkDelayMs: 60 },
    { text: "answer to the queued one" },
  ]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder", "first"]);
  await pty.waitFor((s) => s.includes("esc to interrupt"), "the running turn");
  await pty.type("then this\r");
  await pty.waitFor((s) => s.includes("⏵ queued: then this"), "the queued row");
  await pty.waitFor((s) => s.includes("answer to the queued one"), "the queued turn");
  assert.equal(provider.requests.length, 2);
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
  const prompts = (await sessionOf(env)).entries.filter((entry) => entry.role === "user");
  assert.deepEqual(prompts, [userPromptEntry("first"), userPromptEntry("then this")]);
});

const CONFIRM_TOOL = `module.exports = {
  description: "asks before it acts",
  parameters: { type: "object", properties: {} },
  execute: function (ctx) {
    return ctx.confirm({ title: "Delete the build?", body: "rm -rf build" }) ? "approved" : "denied";
  },
};
`;

for (const [answer, keys] of [["approved", "y"], ["denied", "\x1b"]] as const) {
  Deno.test(`interactive: ctx.confirm asks the person and is ${answer}`, async () => {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "ask", arguments: {} }] },
      { text: "finished" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeTool("ask", CONFIRM_TOOL);
    await env.writeAgent("asker", { description: "asks", tools: ["ask"] });
    await using pty = await chat(env, ["-a", "asker", "go"]);
    const question = await pty.waitFor((s) => s.includes("Delete the build?"), "the question");
    assert.match(question, /rm -rf build/);
    assert.match(question, /Approve +Yes, for this session +Deny/);
    // The first key pressed once the question shows answers it.
    await pty.type(keys);
    await pty.waitFor((s) => s.includes("finished"), "the answer");
    const result = at(provider.requests[1]!.body, "messages", 3, "content");
    assert.equal(result, answer);
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
  });
}

Deno.test(
  "interactive: yes for this session answers later questions of that title; a ctx.confirm with a built-in's title gets none of it",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    const outside = `${Deno.makeTempDirSync()}/outside.txt`;
    const SPOOF = CONFIRM_TOOL.replace(
      '"Delete the build?"',
      '"write: write outside the workspace?"',
    );
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "ask", arguments: {} }] },
      { toolCalls: [{ name: "ask", arguments: {} }] },
      { toolCalls: [{ name: "spoof", arguments: {} }] },
      { toolCalls: [{ name: "write", arguments: { path: outside, content: "x" } }] },
      { text: "finished" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeTool("ask", CONFIRM_TOOL);
    await env.writeTool("spoof", SPOOF);
    await env.writeAgent("asker", { description: "asks", tools: ["ask", "spoof", "write"] });
    await using pty = await chat(env, ["-a", "asker", "go"]);
    await pty.waitFor((s) => s.includes("Yes, for this session"), "the question");
    await pty.type("a");
    await pty.waitFor(
      (s) => s.includes("approved for this session: Delete the build?"),
      "the answer",
    );
    await pty.waitFor(
      (s) => s.includes("write: write outside the workspace?"),
      "the spoofed question",
    );
    await pty.type("a");
    // The built-in write asks although a ctx.confirm of the same title was approved for the session.
    await pty.waitFor(
      (s) => s.includes(`${outside} is outside the workspace`),
      "the write's question",
    );
    await pty.type("n");
    await pty.waitFor((s) => s.includes("finished"), "the end");
    const screen = (await pty.allRows()).join("\n");
    assert.equal(screen.match(/approved for this session: Delete the build\?/g)?.length, 2, screen);
    assert.match(screen, /denied: write: write outside the workspace\?/);
    const results = (at(provider.requests[4]!.body, "messages") as { content?: unknown }[])
      .filter((message, index) => index > 1 && typeof message.content === "string")
      .map((message) => message.content);
    assert.deepEqual(results.slice(0, 3), ["approved", "approved", "approved"]);
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
  },
);

Deno.test("interactive: -y answers ctx.confirm yes and shows it as auto-approved", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "ask", arguments: {} }] },
    { text: "finished" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool("ask", CONFIRM_TOOL);
  await env.writeAgent("asker", { description: "asks", tools: ["ask"] });
  await using pty = await chat(env, ["-y", "-a", "asker", "go"]);
  const screen = await pty.waitFor((s) => s.includes("finished"), "the answer");
  assert.match(screen, /auto-approved \(-y\): Delete the build\?/);
  assert.equal(at(provider.requests[1]!.body, "messages", 3, "content"), "approved");
  await pty.type("\x04");
  await pty.wait();
});

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  Deno.test(`interactive: ${signal} mid-turn exits 130 and restores the terminal`, async () => {
    await using provider = await startFakeProvider([
      { text: "never ending ".repeat(100), chunks: 100, chunkDelayMs: 100 },
    ]);
    await using env = await createTestEnv({ provider });
    await using pty = await chat(env, ["-a", "coder", "go"]);
    await pty.waitFor((s) => s.includes("never ending"), "the stream");
    await pty.kill(signal);
    const { code, raw, sttyAfter } = await pty.wait();
    assert.equal(code, 130);
    const after = raw.slice(raw.lastIndexOf("\x1b[?2004h"));
    assert.ok(after.includes("\x1b[?2004l"), "bracketed paste left on");
    assert.ok(
      after.lastIndexOf("\x1b[?25h") > after.lastIndexOf("\x1b[?25l"),
      "cursor left hidden",
    );
    assert.match(sttyAfter, /(^|\s)icanon(\s|$)/, "still in raw mode");
    assert.match(sttyAfter, /(^|\s)echo(\s|$)/, "echo left off");
    const session = await sessionOf(env);
    assert.deepEqual(session.entries, [userPromptEntry("go")]);
  });
}

Deno.test("interactive: NO_COLOR gives no colour codes; without it there are some", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  for (const noColor of ["1", undefined]) {
    await using provider = await startFakeProvider([{ text: "**bold** and `code`" }]);
    await using env = await createTestEnv({ provider });
    await using pty = await chat(env, ["-a", "coder", "hi"], { env: { NO_COLOR: noColor } });
    await pty.waitFor((s) => s.includes("bold and code") && PROMPT_READY(s), "the answer");
    await pty.type("\x04");
    const { raw } = await pty.wait();
    // deno-lint-ignore no-control-regex
    const colours = raw.match(/\x1b\[(?:3[0-7]|9[0-7]|38;[0-9;]+)m/g) ?? [];
    if (noColor === "1") assert.deepEqual(colours, []);
    else assert.ok(colours.length > 0, "no colour at all without NO_COLOR");
    assert.ok(raw.includes("\x1b[1mbold"), "bold is kept");
  }
});

Deno.test("interactive: bare rienda with stdout or stdin not a terminal is a usage error", async () => {
  await using env = await createTestEnv();
  const piped = await env.run(["-a", "coder"]);
  assert.equal(piped.code, 2);
  assert.equal(piped.stdout, "");
  assert.match(piped.stderr, /^rienda: interactive mode needs a terminal .*use rienda run/);
  assert.ok(!piped.stderr.includes("\x1b"), "escape codes in a pipe");
  const bare = await env.run([], { stdin: "hello\n" });
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /interactive mode needs a terminal/);
});

Deno.test("interactive: resizing re-wraps the live region without leftovers", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");
  await using provider = await startFakeProvider([{ text: words }, { text: `again ${words}` }]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder", "go"]);
  await pty.waitFor((s) => s.includes("word39") && PROMPT_READY(s), "the first answer");
  // Resized while idle, between frames: a frame cut by a resize is the terminal's race to lose.
  await pty.settle();
  await pty.resize(60, 20);
  await pty.waitFor((s) => s.includes("─".repeat(59) + "\n›"), "the editor at 60 columns");
  await pty.type("more\r");
  // A frame can arrive in pieces: wait for one that is whole (up to the status row).
  const screen = await pty.waitFor(
    (s) => s.includes("again word0") && PROMPT_READY(s) && s.includes("thinking off"),
    "the second answer",
  );
  const rows = screen.split("\n");
  const live = rows.slice(rows.findIndex((row) => row.startsWith("again word0")));
  assert.ok(live.length > 5 && live.every((row) => row.length < 60), rows.join("\n"));
  assert.equal(rows.filter((row) => row.includes("thinking off")).length, 1, rows.join("\n"));
  assert.equal(rows.filter((row) => row.startsWith("────")).length, 2, rows.join("\n"));
  assert.equal(rows.filter((row) => row.includes("Ask the agent")).length, 1, rows.join("\n"));
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
});

Deno.test("rienda run on a terminal asks ctx.confirm on stderr; piped, it says no and names -y", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "ask", arguments: {} }] },
    { text: "finished" },
    { toolCalls: [{ name: "ask", arguments: {} }] },
    { text: "finished again" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeTool("ask", CONFIRM_TOOL);
  await env.writeAgent("asker", { description: "asks", tools: ["ask"] });
  await using pty = await chat(env, ["run", "-a", "asker", "go"]);
  const question = await pty.waitFor((s) => s.includes("approve? [y/N]"), "the question");
  assert.match(question, /\? Delete the build\?\n {2}rm -rf build\n {2}approve\? \[y\/N\]/);
  await pty.type("y\r");
  assert.equal((await pty.wait()).code, 0);
  assert.equal(at(provider.requests[1]!.body, "messages", 3, "content"), "approved");
  const piped = await env.run(["run", "-a", "asker", "go"]);
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(at(provider.requests[3]!.body, "messages", 3, "content"), "denied");
  assert.ok(
    piped.stderr.includes(
      'ctx.confirm "Delete the build?" was answered no: nobody could be asked (pass -y to answer yes)',
    ),
    piped.stderr,
  );
});

Deno.test(
  "rienda run on a terminal, and the TERM=dumb chat, drop a line typed before the question was shown",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider();
    await using env = await createTestEnv({ provider });
    await env.writeTool("ask", CONFIRM_TOOL);
    await env.writeAgent("asker", { description: "asks", tools: ["ask"] });
    for (
      const [args, env_] of [[["run", "-a", "asker", "go"], {}], [["-a", "asker", "go"], {
        TERM: "dumb",
      }]] as const
    ) {
      provider.push(
        { toolCalls: [{ name: "ask", arguments: {} }], firstByteDelayMs: 1_500 },
        { text: "finished" },
      );
      const before = provider.requests.length;
      await using pty = await chat(env, args, { env: env_ });
      await provider.waitForRequests(before + 1);
      // Typed while the model thinks: a finished line, then an unfinished one.
      await pty.type("y\ryes");
      await pty.waitFor((s) => s.includes("approve? [y/N]"), "the question");
      await pty.type("n\r");
      await pty.waitFor((s) => s.includes("finished"), "the answer");
      await pty.type("\x04");
      assert.equal((await pty.wait()).code, 0);
      assert.equal(at(provider.requests[before + 1]!.body, "messages", 3, "content"), "denied");
    }
  },
);

Deno.test("the module graph of every command leaves the interactive UI out (it loads by URL)", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const loaded = (await loadedModules("src/main.ts")).filter((specifier) =>
    /\/src\/ui\/interactive\/(?!backend\.ts$)|npm:\/?(marked|fzf|highlight\.js|get-east-asian-width)@/
      .test(specifier)
  );
  assert.deepEqual(loaded, []);
});

/** A program that starts the interactive mode's terminal, then fails on a key without catching it. */
const CRASHING = (term: string) => `
import { createDenoTerm } from ${JSON.stringify(term)};
const encoder = new TextEncoder();
const write = (text: string) => void Deno.stdout.writeSync(encoder.encode(text));
const term = createDenoTerm(write, (name) => Deno.env.get(name));
term.start({
  onInput(text) {
    write("\\x1b[?25l");
    if (text === "t") setTimeout(() => { throw new Error("boom in a timer"); }, 0);
    else throw new Error("boom in a key handler");
  },
  onResize() {},
  onHangup() {},
});
write("ready\\r\\n");
`;

for (const [path, key] of [["a key handler", "k"], ["a timer", "t"]] as const) {
  Deno.test(`interactive: an uncaught error in ${path} still restores the terminal`, async () => {
    await using env = await createTestEnv();
    const script = await env.writeFile(
      "crash.ts",
      CRASHING(new URL("../src/ui/interactive/term.ts", import.meta.url).href),
    );
    await using pty = await chat(env, [], {
      command: [
        Deno.execPath(),
        "run",
        "-q",
        "-A",
        "--config",
        `${CHECKOUT_DIR}/deno.json`,
        script,
      ],
    });
    await pty.waitFor((s) => s.includes("ready"), "the start");
    await pty.type(key);
    const { code, raw, sttyAfter } = await pty.wait();
    assert.equal(code, 1);
    assert.match(raw, /boom in a/);
    const after = raw.slice(raw.lastIndexOf("\x1b[?2004h"));
    for (const reset of ["\x1b[?2004l", "\x1b[<u", "\x1b[>4m"]) {
      assert.ok(after.includes(reset), `${JSON.stringify(reset)} missing after the crash`);
    }
    assert.ok(after.lastIndexOf("\x1b[?25h") > after.lastIndexOf("\x1b[?25l"), "cursor hidden");
    assert.match(sttyAfter, /(^|\s)icanon(\s|$)/, "still in raw mode");
    assert.match(sttyAfter, /(^|\s)echo(\s|$)/, "echo left off");
  });
}

Deno.test(
  "interactive: an agent that cannot load ends the chat with rienda run's message and code; the terminal restored",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using env = await createTestEnv();
    await using pty = await chat(env, ["-a", "nope"]);
    const { code, raw, sttyAfter } = await pty.wait();
    assert.equal(code, 1);
    assert.match(raw, /rienda: agent "nope" not found: .*nope\.md does not exist/);
    assert.ok(raw.lastIndexOf("\x1b[?2004l") > raw.lastIndexOf("\x1b[?2004h"), "paste left on");
    assert.match(sttyAfter, /(^|\s)icanon(\s|$)/, "still in raw mode");
    assert.match(sttyAfter, /(^|\s)echo(\s|$)/, "echo left off");
    assert.deepEqual(await env.sessionFiles(), []);
  },
);

Deno.test(
  "interactive: the editor takes text before the engine has loaded; Enter waits for it, then sends",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([{ text: "loaded and answered" }]);
    await using env = await createTestEnv({ provider });
    // config.yaml as a fifo: loading blocks until the test writes it.
    const config = await Deno.readTextFile(env.configPath);
    await Deno.remove(env.configPath);
    await new Deno.Command("mkfifo", { args: [env.configPath] }).output();
    await using pty = await chat(env, ["-a", "coder"]);
    await pty.waitFor((s) => PROMPT_READY(s) && s.includes("starting…"), "the first frame");
    await pty.type("hello");
    await pty.waitFor((s) => s.includes("› hello") && s.includes("starting…"), "the text, live");
    await pty.type("\r");
    await pty.type("there");
    await Deno.writeTextFile(`${env.configPath}.next`, config);
    await Deno.writeTextFile(env.configPath, config);
    await pty.waitFor((s) => s.includes("coder · fake/m"), "the engine loaded");
    // The turn reads the configuration again (a write waits for its reader), then a plain file.
    await Deno.writeTextFile(env.configPath, config);
    await Deno.rename(`${env.configPath}.next`, env.configPath);
    await pty.waitFor((s) => s.includes("loaded and answered"), "the answer");
    assert.equal(at(provider.requests[0]!.body, "messages", 1, "content"), "hello");
    await pty.waitFor((s) => s.includes("› there"), "the text typed after Enter, kept in order");
    await pty.type("\x15\x04");
    assert.equal((await pty.wait()).code, 0);
  },
);
