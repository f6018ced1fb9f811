import assert from "node:assert/strict";
import { checkSession, userPromptEntry } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at } from "./harness/json.ts";
import { configWithMcp, everythingStdio } from "./harness/mcp_servers.ts";
import { toolNamesOf } from "./harness/wire.ts";
import { type PtyOptions, type PtySession, startPty } from "./harness/pty.ts";

function chat(env: TestEnv, args: readonly string[], options: Partial<PtyOptions> = {}) {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home, ...options });
}

const IDLE = (screen: string) => screen.includes("Ask the agent something");

/** Types `text` and Enter on the idle prompt, and waits for `answer` and the prompt back. */
async function send(pty: PtySession, text: string, answer: string): Promise<void> {
  await pty.waitFor(IDLE, "the prompt");
  await pty.type(`${text}\r`);
  await pty.waitFor((s) => s.includes(answer) && IDLE(s), answer);
}

async function quit(pty: PtySession): Promise<{ code: number; raw: string }> {
  await pty.type("\x04");
  const result = await pty.wait();
  assert.equal(result.code, 0);
  return result;
}

const answers = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ text: `answer ${index + 1}` }));

/** The system prompt a request carried (OpenAI chat wire: the first message). */
const systemOf = (body: unknown) => String(at(body, "messages", 0, "content"));

Deno.test(
  "interactive: /agent opens a picker that filters as you type; the next turn uses the pick",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(2));
    await using env = await createTestEnv({ provider });
    await env.writeAgent("reviewer", { description: "Reviews diffs.", tools: [] }, "You review.");
    await using pty = await chat(env, ["-a", "coder"]);
    await send(pty, "hi", "answer 1");
    await pty.type("/agent\r");
    await pty.waitFor(
      (s) => s.includes("Select an agent") && s.includes("coder") && s.includes("reviewer"),
      "the picker",
    );
    await pty.type("rev");
    const filtered = await pty.waitFor((s) => s.includes("> rev"), "the filter");
    const choices = filtered.slice(filtered.indexOf("> rev"));
    assert.ok(!/\bcoder\b/.test(choices.slice(0, choices.indexOf("↑/↓"))), filtered);
    assert.match(choices, /› reviewer +Reviews diffs\./);
    await pty.type("\r");
    await pty.waitFor(
      (s) => s.includes("agent: reviewer (from the next message on)"),
      "the switch",
    );
    await pty.waitFor((s) => s.includes("reviewer · fake/m"), "the status line");
    await send(pty, "review this", "answer 2");
    assert.match(systemOf(provider.requests[0]!.body), /You answer briefly\./);
    assert.match(systemOf(provider.requests[1]!.body), /You review\./);
    // The same session goes on, now with the other agent.
    assert.equal(at(provider.requests[1]!.body, "messages", 1, "content"), "hi");
    await quit(pty);
    assert.equal((await env.sessionFiles()).length, 1);
  },
);

Deno.test(
  "interactive: /model opens a picker of the configured models; the next turn uses the pick",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(2));
    await using env = await createTestEnv({ provider });
    await env.writeConfig(
      `${defaultConfig(provider.url)}      other:\n        id: other-model\n`,
    );
    await using pty = await chat(env, ["-a", "coder"]);
    await send(pty, "hi", "answer 1");
    await pty.type("/model\r");
    await pty.waitFor(
      (s) => s.includes("Select a model") && s.includes("fake/m") && s.includes("fake/other"),
      "the picker",
    );
    await pty.type("oth\r");
    await pty.waitFor(
      (s) => s.includes("model: fake/other (from the next message on)"),
      "the pick",
    );
    await send(pty, "again", "answer 2");
    assert.equal(at(provider.requests[0]!.body, "model"), "fake-model");
    assert.equal(at(provider.requests[1]!.body, "model"), "other-model");
    await quit(pty);
  },
);

Deno.test(
  "interactive: the status line shows the model that will answer from the start; /model lists the ready models and aliases",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(1));
    await using env = await createTestEnv({ provider });
    // No default_model: the default agent takes the first provider with a key (an Anthropic one).
    const config = defaultConfig(provider.url).replace("default_model: fake/m\n", "") +
      "model_aliases:\n  quick: fake/m\n";
    await env.writeConfig(config);
    await using pty = await chat(env, [], { env: { ANTHROPIC_API_KEY: "sk-ant-test" } });
    await pty.waitFor(
      (s) => IDLE(s) && s.includes("default · anthropic/claude-sonnet-4-5 · thinking off"),
      "the model before the first message",
    );
    await pty.type("/model\r");
    const picker = await pty.waitFor((s) => s.includes("Select a model"), "the picker");
    for (const row of ["fake/m", "anthropic/claude-sonnet-4-5", "anthropic/claude-opus-4-5"]) {
      assert.ok(picker.includes(row), `${row} missing:\n${picker}`);
    }
    assert.ok(!picker.includes("ollama/"), picker);
    await pty.type("qui");
    await pty.waitFor((s) => s.includes("› quick → fake/m"), "the alias, filtered");
    await pty.type("\r");
    await pty.waitFor(
      (s) => IDLE(s) && s.includes("default · fake/m · thinking off"),
      "the switch",
    );
    await pty.type("/model\r");
    await pty.waitFor((s) => s.includes("Select a model"), "the picker again");
    await pty.type("sonnet");
    await pty.waitFor((s) => s.includes(" sonnet → anthropic/claude-sonnet-4-5"), "the alias");
    await pty.type("\x1b");
    await send(pty, "hi", "answer 1");
    assert.equal(at(provider.requests[0]!.body, "model"), "fake-model");
    await quit(pty);
  },
);

Deno.test(
  "interactive: config.yaml's MCP servers are offered to the default agent, in the chat and in rienda run, not to agent files that do not name them; /mcp shows their state",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(3));
    await using env = await createTestEnv({ provider });
    await env.writeConfig(configWithMcp(provider.url, {
      everything: await everythingStdio(),
      old: { command: "node", args: ["old.js"], enabled: false },
    }));
    await using pty = await chat(env, []);
    await pty.waitFor(IDLE, "the prompt");
    await pty.type("/mcp\r");
    await pty.waitFor(
      (s) => /everything +stdio +starts with the next message\n +node/.test(s),
      "the servers before the first message",
    );
    await send(pty, "hi", "answer 1");
    assert.ok(toolNamesOf(provider.requests[0]).includes("everything__echo"));
    await pty.type("/mcp\r");
    const after = await pty.waitFor(
      (s) => /everything +stdio +\d+ tools\n/.test(s),
      "the tool count",
    );
    assert.match(after, /old +stdio +disabled\n +node old\.js/);
    await pty.type("/agent coder\r");
    await pty.waitFor((s) => s.includes("agent: coder"), "the switch");
    await pty.type("/mcp\r");
    await pty.waitFor((s) => /everything +stdio +not used by coder/.test(s), "not used");
    await quit(pty);
    const run = await env.run(["run", "hello"]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(toolNamesOf(provider.requests[1]).includes("everything__echo"));
    const coder = await env.run(["run", "-a", "coder", "hello"]);
    assert.equal(coder.code, 0, coder.stderr);
    assert.ok(
      !toolNamesOf(provider.requests[2]).some((name) => name.startsWith("everything__")),
    );
  },
);

Deno.test("interactive: /tree lists the branches and switches to another one", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider(answers(4));
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder"]);
  await send(pty, "first question", "answer 1");
  await send(pty, "old branch question", "answer 2");
  await pty.type("/rewind\r");
  await pty.waitFor((s) => s.includes("Rewind to before"), "the rewind picker");
  await pty.type("old branch\r");
  await pty.waitFor((s) => s.includes("rewound"), "the rewind");
  await pty.type("\x15new branch question\r");
  await pty.waitFor((s) => s.includes("answer 3") && IDLE(s), "the new branch's answer");
  await pty.type("/tree\r");
  const tree = await pty.waitFor((s) => s.includes("Switch to a branch"), "the tree");
  assert.match(tree, /● new branch question +4 messages · .* · current/);
  assert.match(tree, / {2}old branch question +4 messages/);
  await pty.type("old\r");
  await pty.waitFor((s) => s.includes("switched to the branch") && IDLE(s), "the switch");
  await send(pty, "continue the old one", "answer 4");
  const sent = provider.requests[3]!.body;
  assert.equal(at(sent, "messages", 3, "content"), "old branch question");
  assert.equal(at(sent, "messages", 5, "content"), "continue the old one");
  await quit(pty);
});

Deno.test(
  "interactive: /copy sends the last answer through OSC 52; /clear clears the screen and the session goes on",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([{ text: "copy me: ünïcode ✓" }, ...answers(1)]);
    await using env = await createTestEnv({ provider });
    await using pty = await chat(env, ["-a", "coder"]);
    await pty.waitFor(IDLE, "the prompt");
    await pty.type("/copy\r");
    await pty.waitFor((s) => s.includes("nothing to copy yet"), "the refusal");
    await send(pty, "say it", "copy me");
    await pty.type("/copy\r");
    await pty.waitFor((s) => s.includes("copied the last answer"), "the copy");
    const base64 = btoa(String.fromCodePoint(...new TextEncoder().encode("copy me: ünïcode ✓")));
    assert.ok(pty.raw().includes(`\x1b]52;c;${base64}\x07`), "no OSC 52 with the answer");
    await pty.type("/clear\r");
    await pty.waitFor((s) => IDLE(s) && !s.includes("copy me"), "the cleared screen");
    assert.ok(!(await pty.allRows()).some((row) => row.includes("copy me")), "left in scrollback");
    await send(pty, "still there?", "answer 1");
    assert.equal(at(provider.requests[1]!.body, "messages", 1, "content"), "say it");
    await quit(pty);
  },
);

Deno.test("interactive: Esc on an empty editor takes the last queued message back", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "read -r _ < ./go" } }] },
    { text: "first answer" },
    { text: "answer to one" },
  ]);
  await using env = await createTestEnv({ provider });
  await new Deno.Command("mkfifo", { args: [`${env.workdir}/go`] }).output();
  await using pty = await chat(env, ["-a", "coder", "first"]);
  // The turn waits on the fifo until the test lets it go: it is surely running meanwhile.
  await pty.waitFor((s) => s.includes("running shell"), "the running turn");
  await pty.type("one\r");
  await pty.type("two\r");
  await pty.waitFor((s) => s.includes("⏵ queued: one") && s.includes("⏵ queued: two"), "queued");
  await pty.type("\x1b");
  const back = await pty.waitFor((s) => s.includes("› two"), "the message back in the editor");
  assert.ok(back.includes("⏵ queued: one") && !back.includes("⏵ queued: two"), back);
  assert.ok(back.includes("running shell"), "the Esc interrupted the turn");
  await pty.type("\x15");
  await pty.waitFor((s) => s.includes("Type to queue a message"), "the editor emptied");
  await Deno.writeTextFile(`${env.workdir}/go`, "\n");
  await pty.waitFor((s) => s.includes("answer to one") && IDLE(s), "the queued turn");
  await quit(pty);
  assert.equal(provider.requests.length, 3);
  const prompts = checkSession(await env.readSession((await env.sessionFiles())[0]!)).entries
    .filter((entry) => entry.role === "user" && at(entry, "blocks", 0, "type") === "text");
  assert.deepEqual(prompts, [userPromptEntry("first"), userPromptEntry("one")]);
});

Deno.test(
  "interactive: built-in write and edit outside the workspace ask; approved it writes, denied it does not",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider();
    await using env = await createTestEnv({ provider });
    const outside = await env.makeDir("outside");
    await Deno.writeTextFile(`${outside}/kept.txt`, "old text\n");
    provider.push(
      {
        toolCalls: [{ name: "write", arguments: { path: `${outside}/new.txt`, content: "hi\n" } }],
      },
      { text: "wrote it" },
      {
        toolCalls: [{
          name: "edit",
          arguments: { path: `${outside}/kept.txt`, old_string: "old", new_string: "new" },
        }],
      },
      { text: "did not edit" },
    );
    await using pty = await chat(env, ["-a", "default"]);
    await pty.waitFor(IDLE, "the prompt");
    await pty.type("write there\r");
    const question = await pty.waitFor(
      (s) => s.includes("Yes, for this session    Deny"),
      "the question",
    );
    assert.match(question, /\? write: write outside the workspace\?/);
    assert.ok(question.includes(`new.txt is outside the workspace`), question);
    // The prompt was typed just before: keys count once typing has paused.
    await new Promise((resolve) => setTimeout(resolve, 450));
    await pty.type("y");
    await pty.waitFor((s) => s.includes("wrote it") && IDLE(s), "the answer");
    assert.equal(await Deno.readTextFile(`${outside}/new.txt`), "hi\n");
    await pty.type("edit there\r");
    await pty.waitFor((s) => s.includes("edit: write outside the workspace?"), "the question");
    await new Promise((resolve) => setTimeout(resolve, 450));
    await pty.type("n");
    await pty.waitFor((s) => s.includes("did not edit") && IDLE(s), "the answer");
    assert.equal(await Deno.readTextFile(`${outside}/kept.txt`), "old text\n");
    const result = String(at(provider.requests[3]!.body, "messages", 7, "content"));
    assert.match(result, /refused to write .*kept\.txt.*the user declined/);
    await quit(pty);
  },
);

Deno.test("interactive: Ctrl+O prints the last collapsed thinking again, whole", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const thinking = Array.from({ length: 6 }, (_, index) => `thought number ${index + 1}`)
    .join("\n");
  await using provider = await startFakeProvider([{ thinking, text: "the answer" }]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder", "think"]);
  const done = await pty.waitFor((s) => s.includes("the answer") && IDLE(s), "the answer");
  assert.match(done, /thinking · 6 lines \(ctrl\+o shows all\)/);
  assert.ok(!done.includes("thought number 1") && done.includes("thought number 6"), done);
  await pty.type("\x0f");
  const whole = await pty.waitFor((s) => s.includes("┊ thought number 1"), "the whole thinking");
  assert.match(whole, /thinking · 6 lines\n┊ thought number 1\n┊ thought number 2/);
  assert.match(whole, /tool output and thinking shown whole/);
  await quit(pty);
});

Deno.test(
  "interactive: the status line shows the context use, coloured as it fills; each turn ends with a footnote",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([
      { text: "answer 1", usage: { input: 24_600, output: 120 } },
      { text: "answer 2", usage: { input: 150_000, output: 30 } },
      { text: "answer 3", usage: { input: 185_000, output: 10 } },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeConfig(
      defaultConfig(provider.url).replace(
        "id: fake-model",
        "id: fake-model\n        context_window: 200000",
      ),
    );
    await using pty = await chat(env, ["-a", "coder"], { env: { NO_COLOR: undefined } });
    await send(pty, "one", "answer 1");
    const first = await pty.waitFor((s) => s.includes("ctx 12% · 24.7k/200k"), "the context use");
    assert.match(first, /answer 1\n\n\d+\.\ds · 24\.6k in · 120 out/);
    await send(pty, "two", "answer 2");
    await pty.waitFor((s) => s.includes("ctx 75% · 150k/200k"), "the context use");
    assert.ok(pty.raw().includes("\x1b[33mctx 75%"), "not yellow above 70 %");
    await send(pty, "three", "answer 3");
    await pty.waitFor((s) => s.includes("ctx 93% · 185k/200k"), "the context use");
    assert.ok(pty.raw().includes("\x1b[31mctx 93%"), "not red above 90 %");
    await quit(pty);
  },
);

Deno.test(
  "interactive: kitty keyboard and modifyOtherKeys are asked for; their Shift+Enter inserts a newline; both are turned off on quit",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider(answers(1));
    await using env = await createTestEnv({ provider });
    await using pty = await chat(env, ["-a", "coder"]);
    await pty.waitFor(IDLE, "the prompt");
    assert.ok(pty.raw().includes("\x1b[>1u") && pty.raw().includes("\x1b[>4;1m"), "not asked for");
    // Kitty's Shift+Enter, xterm's modifyOtherKeys Shift+Enter, Ctrl+J, and kitty's Esc (no wait).
    await pty.type("a\x1b[13;2ub\x1b[27;2;13~c\nd");
    await pty.waitFor((s) => s.includes("› a\n  b\n  c\n  d"), "four rows");
    await pty.type("\r");
    await pty.waitFor((s) => s.includes("answer 1") && IDLE(s), "the answer");
    assert.equal(at(provider.requests[0]!.body, "messages", 1, "content"), "a\nb\nc\nd");
    const { raw } = await quit(pty);
    const after = raw.slice(raw.lastIndexOf("\x1b[>1u"));
    assert.ok(after.includes("\x1b[<u") && after.includes("\x1b[>4m"), "left on after quit");
  },
);

Deno.test("interactive: resizing while an answer streams leaves one editor and one status line", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const words = Array.from({ length: 120 }, (_, index) => `word${index}`).join(" ");
  await using provider = await startFakeProvider([{ text: words, chunks: 60, chunkDelayMs: 40 }]);
  await using env = await createTestEnv({ provider });
  await using pty = await chat(env, ["-a", "coder", "go"]);
  await pty.waitFor((s) => s.includes("word3 "), "the stream");
  for (const [cols, rows] of [[60, 20], [70, 22], [50, 18], [64, 20]] as const) {
    await pty.resize(cols, rows);
    await new Promise((resolve) => setTimeout(resolve, 120));
  }
  const screen = await pty.waitFor(
    (s) => s.includes("word119") && IDLE(s) && s.includes("thinking off"),
    "the whole answer",
  );
  const rows = screen.split("\n");
  assert.ok(rows.every((row) => row.length < 64), rows.join("\n"));
  assert.equal(rows.filter((row) => row.includes("thinking off")).length, 1, rows.join("\n"));
  assert.equal(rows.filter((row) => row.startsWith("────")).length, 2, rows.join("\n"));
  const all = await pty.allRows();
  assert.equal(all.filter((row) => row.includes("Ask the agent")).length, 1, all.join("\n"));
  assert.equal(all.filter((row) => row.includes("esc to interrupt")).length, 0, all.join("\n"));
  await quit(pty);
});
