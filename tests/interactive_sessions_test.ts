import assert from "node:assert/strict";
import { checkSession, userPromptEntry } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { type PtyOptions, type PtySession, startPty } from "./harness/pty.ts";

function chat(env: TestEnv, args: readonly string[], options: Partial<PtyOptions> = {}) {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home, ...options });
}

const IDLE = (screen: string) => screen.includes("Ask the agent something");

async function send(pty: PtySession, text: string, answer: string): Promise<void> {
  await pty.type(text);
  await pty.type("\r");
  await pty.waitFor((s) => s.includes(answer) && IDLE(s), answer);
}

const answers = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ text: `answer ${index + 1}` }));

Deno.test("interactive: /rewind puts the prompt back and the next message starts a branch", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider(answers(3));
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder"]);
  await pty.waitFor(IDLE, "the prompt");
  await send(pty, "first question", "answer 1");
  await send(pty, "second question", "answer 2");
  await pty.type("/rewind\r");
  await pty.waitFor((s) => s.includes("Rewind to before"), "the picker");
  await pty.type("second");
  await pty.type("\r");
  const rewound = await pty.waitFor(
    (s) => s.includes("› second question") && s.includes("rewound"),
    "the rewind",
  );
  assert.match(rewound, /files are not restored/);
  await pty.type("\x15other question\r");
  await pty.waitFor((s) => s.includes("answer 3") && IDLE(s), "the branch's answer");
  // The model saw the first exchange, then the new prompt, not the rewound one.
  const sent = provider.requests[2]!.body;
  assert.equal(at(sent, "messages", 1, "content"), "first question");
  assert.equal(at(sent, "messages", 3, "content"), "other question");
  assert.equal((at(sent, "messages") as unknown[]).length, 4);
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
  const [file] = await env.sessionFiles();
  const lines = await env.readSession(file!);
  const leaf = lines.find((line) => line.kind === "leaf");
  const firstAnswer = lines[2]!;
  assert.equal(leaf?.targetId, firstAnswer.id, "the leaf points after the first answer");
  const last = lines.at(-2)!;
  assert.deepEqual(
    { role: last.role, parentId: last.parentId, text: at(last, "blocks", 0, "text") },
    { role: "user", parentId: firstAnswer.id, text: "other question" },
  );
  // rienda run -c continues the new branch.
  provider.push({ text: "from run" });
  const result = await env.run(["run", "-c", "and now?"]);
  assert.equal(result.code, 0, result.stderr);
  const continued = provider.requests[3]!.body;
  assert.equal(at(continued, "messages", 3, "content"), "other question");
});

Deno.test("interactive: /sessions resumes a stored session and shows its conversation", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([{ text: "stored answer" }, { text: "resumed" }]);
  await using env = await createTestEnv({ provider });
  const first = await env.run(["run", "-a", "coder", "an old question"]);
  assert.equal(first.code, 0, first.stderr);
  await using pty = await chat(env, ["-a", "coder"]);
  await pty.waitFor(IDLE, "the prompt");
  await pty.type("/sessions\r");
  await pty.waitFor(
    (s) => s.includes("Resume a session") && s.includes("an old question"),
    "the picker",
  );
  await pty.type("\r");
  await pty.waitFor(
    (s) => s.includes("stored answer") && s.includes("resumed session"),
    "the replay",
  );
  await send(pty, "go on", "resumed");
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
  assert.equal((await env.sessionFiles()).length, 1, "a second session was made");
  const session = checkSession(await env.readSession((await env.sessionFiles())[0]!));
  assert.deepEqual(session.entries.filter((entry) => entry.role === "user"), [
    userPromptEntry("an old question"),
    userPromptEntry("go on"),
  ]);
});

Deno.test(
  "interactive: bare rienda opens a chat on the default agent at once; text typed at once reaches the editor",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(2));
    await using env = await createTestEnv({ provider });
    await env.writeAgent("reviewer", { description: "Reviews diffs.", tools: [] });
    const stored = await env.run(["run", "-a", "reviewer", "an old question"]);
    assert.equal(stored.code, 0, stored.stderr);
    await using pty = await chat(env, []);
    await pty.type("hello there");
    const screen = await pty.waitFor(
      (s) => s.includes("› hello there") && s.includes("default · fake/m"),
      "the typed text on the default agent",
    );
    assert.ok(!screen.includes("new session ·") && !screen.includes("Start"), screen);
    await pty.type("\r");
    await pty.waitFor((s) => s.includes("answer 2") && IDLE(s), "the answer");
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
    const files = await env.sessionFiles();
    assert.equal(files.length, 2);
    const agents = await Promise.all(
      files.map(async (file) => (await env.readSession(file))[0]!.agent),
    );
    assert.deepEqual(agents.sort(), ["default", "reviewer"]);
  },
);

Deno.test(
  'interactive: default_agent of config.yaml is the agent of bare rienda, of rienda "prompt" and of rienda run',
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(2));
    await using env = await createTestEnv({ provider });
    await env.writeAgent("reviewer", { description: "Reviews diffs.", tools: [] });
    await env.writeConfig(`${await Deno.readTextFile(env.configPath)}default_agent: reviewer\n`);
    await using pty = await chat(env, ["review this please"]);
    await pty.waitFor(
      (s) => s.includes("answer 1") && s.includes("reviewer · fake/m"),
      "the answer",
    );
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
    const run = await env.run(["run", "and this"]);
    assert.equal(run.code, 0, run.stderr);
    const files = await env.sessionFiles();
    const agents = await Promise.all(
      files.map(async (file) => (await env.readSession(file))[0]!.agent),
    );
    assert.deepEqual(agents, ["reviewer", "reviewer"]);
    const config = await Deno.readTextFile(env.configPath);
    await env.writeConfig(config.replace("default_agent: reviewer", "default_agent: nope"));
    const unknown = await env.run(["run", "hi"]);
    assert.equal(unknown.code, 1);
    assert.match(
      unknown.stderr,
      /config\.yaml: default_agent: agent "nope" not found: .*\(change default_agent/,
    );
  },
);

Deno.test("interactive: -r picks a stored session to resume; Esc leaves a new one", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider(answers(3));
  await using env = await createTestEnv({ provider });
  for (const question of ["the first question", "the second question"]) {
    assert.equal((await env.run(["run", "-a", "coder", question])).code, 0);
  }
  // The picker shows the short ids rienda sessions shows.
  const listing = await env.run(["sessions"]);
  const shorts = listing.stdout.trim().split("\n").map((line) => line.split(/\s+/)[0]!);
  assert.equal(shorts.length, 2, listing.stdout);
  {
    await using pty = await chat(env, ["-r"]);
    const picker = await pty.waitFor(
      (s) => s.includes("Resume a session") && s.includes("the first question"),
      "the picker",
    );
    for (const short of shorts) assert.match(picker, new RegExp(`· ${short}\n`));
    await pty.type("first");
    await pty.type("\r");
    await pty.waitFor((s) => s.includes("resumed session") && IDLE(s), "the resumed session");
    await send(pty, "go on", "answer 3");
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
  }
  const resumed = provider.requests[2]!.body;
  assert.equal(at(resumed, "messages", 1, "content"), "the first question");
  await using pty = await chat(env, ["-r"]);
  await pty.waitFor((s) => s.includes("Resume a session"), "the picker");
  await pty.type("\x1b");
  await pty.waitFor((s) => IDLE(s) && s.includes("default · fake/m"), "a new chat");
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
  assert.equal((await env.sessionFiles()).length, 2);
});

Deno.test("interactive: a home without agents opens the chat on the built-in default agent", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using env = await createTestEnv({ noAgent: true });
  await using pty = await chat(env, []);
  const screen = await pty.waitFor((s) => IDLE(s) && s.includes("default · "), "the prompt");
  assert.ok(!screen.includes("Start"), screen);
  assert.match(screen, /default · fake\/m/);
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
});

Deno.test(
  "interactive: @ completes workspace files (ignored ones left out), / completes commands",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(1));
    await using env = await createTestEnv({ provider });
    await env.writeFile("workspace/src/main.ts", "x");
    await env.writeFile("workspace/.gitignore", "build/\n");
    await env.writeFile("workspace/build/main.js", "x");
    await using pty = await chat(env, ["-a", "coder"]);
    await pty.waitFor(IDLE, "the prompt");
    await pty.type("look at @mai");
    const popup = await pty.waitFor((s) => s.includes("src/main.ts"), "the file popup");
    assert.ok(!popup.includes("build/main.js"), popup);
    await pty.type("\t");
    await pty.waitFor((s) => s.includes("› look at @src/main.ts"), "the completion");
    await pty.type("\r");
    await pty.waitFor((s) => s.includes("answer 1") && IDLE(s), "the answer");
    assert.equal(at(provider.requests[0]!.body, "messages", 1, "content"), "look at @src/main.ts ");
    await pty.type("/he");
    await pty.waitFor((s) => s.includes("/help  list the commands and keys"), "the command popup");
    await pty.type("\r");
    await pty.waitFor((s) => s.includes("/rewind — go back"), "the help");
    await pty.type("/nope\r");
    await pty.waitFor((s) => s.includes("unknown command /nope"), "the unknown command");
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
  },
);

Deno.test(
  "interactive: history per workspace, multi-line input, a long paste as a marker, $EDITOR",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(3));
    await using env = await createTestEnv({ provider });
    const editor = await env.writeFile(
      "bin/fake-editor",
      "#!/bin/sh\nprintf 'from the editor' > \"$1\"\n",
      0o755,
    );
    {
      await using pty = await chat(env, ["-a", "coder"]);
      await pty.waitFor(IDLE, "the prompt");
      await pty.type("line one\x1b\rline two");
      await pty.waitFor((s) => s.includes("› line one\n  line two"), "two rows");
      await pty.type("\r");
      await pty.waitFor((s) => s.includes("answer 1") && IDLE(s), "the answer");
      assert.equal(at(provider.requests[0]!.body, "messages", 1, "content"), "line one\nline two");
      const pasted = Array.from({ length: 120 }, (_, index) => `row ${index}`).join("\n");
      await pty.type(`\x1b[200~${pasted}\x1b[201~`);
      await pty.waitFor((s) => s.includes("[pasted 120 lines]"), "the paste marker");
      await pty.type("\r");
      await pty.waitFor((s) => s.includes("answer 2") && IDLE(s), "the answer");
      assert.equal(at(provider.requests[1]!.body, "messages", 3, "content"), pasted);
      await pty.type("\x04");
      await pty.wait();
    }
    await using pty = await chat(env, ["-a", "coder"], { env: { EDITOR: editor } });
    await pty.waitFor(IDLE, "the prompt");
    await pty.type("\x1b[A");
    await pty.waitFor((s) => /› row 0 ?\n {2}row 1/.test(s), "the last prompt, whole");
    await pty.type("\x1b[A");
    await pty.waitFor((s) => s.includes("› line one"), "the prompt before");
    await pty.type("\x07");
    await pty.waitFor((s) => s.includes("› from the editor"), "the edited prompt");
    await pty.type("\r");
    await pty.waitFor((s) => s.includes("answer 3") && IDLE(s), "the answer");
    assert.equal(at(provider.requests[2]!.body, "messages", 1, "content"), "from the editor");
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
  },
);

Deno.test("interactive: TERM=dumb is a plain line mode without cursor movement", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([{ text: "**plain** answer" }]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder"], { env: { TERM: "dumb" } });
  await pty.waitFor((s) => s.includes("plain mode"), "the banner");
  await pty.type("hello\r");
  await pty.waitFor((s) => s.includes("**plain** answer"), "the answer");
  await pty.type("/quit\r");
  const { code, raw } = await pty.wait();
  assert.equal(code, 0);
  // deno-lint-ignore no-control-regex
  assert.deepEqual(raw.match(/\x1b\[[0-9;?]*[A-HJKSTfhlm]/g) ?? [], []);
});

Deno.test(
  "interactive: /title names the session, /new starts another, /model and /thinking apply to the next turn",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(3));
    await using env = await createTestEnv({ provider });
    await using pty = await chat(env, ["-a", "coder"]);
    await pty.waitFor(IDLE, "the prompt");
    await pty.type("/title too early\r");
    await pty.waitFor((s) => s.includes("send a first message"), "the refusal");
    await send(pty, "hi", "answer 1");
    await pty.type("/title My work\r");
    await pty.waitFor((s) => s.includes("session titled"), "the title");
    await pty.type("/thinking high\r");
    await pty.waitFor((s) => s.includes("thinking: high"), "the level");
    await send(pty, "think", "answer 2");
    await pty.type("/new\r");
    await pty.waitFor((s) => s.includes("new session · coder"), "the new session");
    await send(pty, "fresh", "answer 3");
    await pty.type("\x04");
    await pty.wait();
    const files = await env.sessionFiles();
    assert.equal(files.length, 2);
    const titled = (await Promise.all(files.map((file) => env.readSession(file)))).find((lines) =>
      lines.some((line) => line.kind === "title")
    );
    assert.ok(titled !== undefined);
    assert.ok(titled.some((line) => line.kind === "thinking" && line.thinking === "high"));
    const listing = await env.run(["sessions"]);
    assert.match(listing.stdout, /My work/);
  },
);

Deno.test("interactive: /compact on a short conversation is a neutral notice, not an error", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider(answers(1));
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder"]);
  await pty.waitFor(IDLE, "the prompt");
  await send(pty, "short", "answer 1");
  await pty.type("/compact\r");
  const screen = await pty.waitFor(
    (s) => s.includes("• nothing to compact: the conversation is shorter than") && IDLE(s),
    "the notice",
  );
  assert.ok(!screen.includes("✗"), screen);
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
  assert.equal(provider.requests.length, 1);
});

Deno.test("interactive: /compact summarises the older conversation now and stores a compaction", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { text: "answer 1" },
    { text: "answer 2" },
    { text: "the summary" },
  ]);
  await using env = await createTestEnv({ provider });
  const config = await Deno.readTextFile(env.configPath);
  await env.writeConfig(`${config}compaction:\n  keep_recent_tokens: 5\n`);
  await using pty = await chat(env, ["-a", "coder"]);
  await pty.waitFor(IDLE, "the prompt");
  await pty.type("/compact\r");
  await pty.waitFor(
    (s) => s.includes("• nothing to compact: the session has no messages yet"),
    "the notice",
  );

  await send(pty, "first question, long enough to be worth a summary", "answer 1");
  await send(pty, "second question", "answer 2");
  await pty.type("/compact\r");
  await pty.waitFor((s) => s.includes("compacted the conversation") && IDLE(s), "the compaction");
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
  const lines = await env.readSession((await env.sessionFiles())[0]!);
  const compaction = lines.find((line) => line.kind === "compaction");
  assert.equal(compaction?.summary, "the summary");
});

Deno.test(
  "interactive: rienda -c continues a rienda run session with its context use; a retry, ctx.log and ctx.notify of hooks are rows",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([
      { text: "from run", usage: { input: 24_600, output: 120 } },
      { status: 503, errorMessage: "busy upstream", headers: { "retry-after": "0" } },
      { text: "after the retry" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeHook(
      "tell",
      `module.exports = {
  afterRun: function (ctx, event) {
    ctx.log("logged by the hook");
    ctx.notify({ title: "rienda", body: "run finished: " + event.reason });
  },
};
`,
    );
    await env.writeAgent("told", { description: "Told.", tools: [], hooks: ["tell"] });
    const first = await env.run(["run", "-a", "told", "started in run"]);
    assert.equal(first.code, 0, first.stderr);
    await using pty = await chat(env, ["-c"]);
    const replay = await pty.waitFor(
      (s) => s.includes("from run") && s.includes("told · fake/m"),
      "the replay",
    );
    // The context use of the stored conversation, before any turn of the chat.
    assert.match(replay, /ctx 19% · 24\.7k\/128k/);
    await send(pty, "go on", "after the retry");
    const screen = await pty.waitFor((s) => s.includes("run finished: end_turn"), "the notices");
    assert.match(screen, /! retrying in \d+\.\ds: .*busy upstream/);
    assert.match(screen, /logged by the hook/);
    assert.match(screen, /rienda: run finished: end_turn/);
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
    assert.equal((await env.sessionFiles()).length, 1);
    const sent = provider.requests[2]!.body;
    assert.equal(at(sent, "messages", 1, "content"), "started in run");
    assert.equal(at(sent, "messages", 3, "content"), "go on");
  },
);
