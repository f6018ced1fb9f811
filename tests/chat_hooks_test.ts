import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { type PtySession, startPty } from "./harness/pty.ts";
import { processesGone } from "./harness/processes.ts";
import { toolResultsOf } from "./harness/wire.ts";

/** Starts the chat in a pty in the test environment's workspace. */
function chat(env: TestEnv, args: readonly string[]): Promise<PtySession> {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home });
}

const PROMPT_READY = (screen: string) => screen.includes("Ask the agent something");

/** The screen with its line breaks and indents as single spaces: a notice may wrap anywhere. */
const flat = (screen: string) => screen.replace(/\s+/g, " ");

Deno.test("chat: a prompt a beforePrompt hook refused is shown and stays in the editor", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([{ text: "fine answer" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "gate",
    `module.exports = {
  beforePrompt: function (ctx, prompt) {
    if (/PROJ-\\d+/.test(prompt.text)) return { allow: false, reason: "ticket numbers stay out" };
  },
};
`,
  );
  await env.writeAgent("gated", { description: "Gated.", hooks: ["gate"] });
  await using pty = await chat(env, ["-a", "gated"]);
  await pty.waitFor(PROMPT_READY, "the editor");
  await pty.type("fix PROJ-12\r");
  const refused = await pty.waitFor(
    (s) => s.includes('hook "gate" refused the prompt: ticket numbers stay out'),
    "the refusal",
  );
  const rows = (await pty.screen()).join("\n");
  assert.ok(!PROMPT_READY(rows), `the editor is empty:\n${refused}`);
  // Below the refusal, between the editor's rules: the text, back in the editor.
  assert.match(
    rows,
    /refused the prompt: ticket numbers stay out\n─+\n› fix PROJ-12 *\n─+\n/,
    rows,
  );
  assert.equal(provider.requests.length, 0);
  assert.deepEqual(await env.sessionFiles(), []);
  // The person mends the text: the mended message is sent.
  await pty.type("\x7f\x7f\x7f\x7f\x7f\x7f\x7fthe bug\r");
  // The turn has ended once the editor is back: only then is Ctrl+D a quit (a Ctrl+C
  // while the turn still ended interrupted it, and the chat stayed open).
  await pty.waitFor((s) => s.includes("fine answer") && PROMPT_READY(s), "the answer");
  assert.equal(provider.requests.length, 1);
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
});

const PRE_HOOK = `const [tool, path] = process.argv.slice(2);
if (path.startsWith("generated/")) {
  console.error(tool + ": generated/ is rebuilt, not edited");
  process.exit(2);
}
`;

Deno.test("chat: /hooks add, list and remove run the chat's own hooks around tool calls", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "write", arguments: { path: "generated/x.ts", content: "x" } },
        { name: "write", arguments: { path: "src/a.ts", content: "a" } },
      ],
    },
    { text: "both tried" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("writer", {
    description: "Writer.",
    tools: ["write"],
    hooks: [{ claude: "PreToolUse", matcher: "Bash", command: "true" }],
  });
  await Deno.mkdir(`${env.workdir}/.hooks`);
  await Deno.writeTextFile(`${env.workdir}/.hooks/pre.mjs`, PRE_HOOK);
  await using pty = await chat(env, ["-a", "writer"]);
  await pty.waitFor(PROMPT_READY, "the editor");
  await pty.type("/hooks add pre-tool sh -c 'make && make install'\r");
  await pty.waitFor(
    (s) => flat(s).includes('"&&" is shell syntax (put the steps in a script and name the script)'),
    "the refusal of shell syntax",
  );
  await pty.type("/hooks add pre-tool node .hooks/pre.mjs {tool} {path}\r");
  await pty.waitFor(
    (s) => flat(s).includes("added pre-tool hook #1 (node .hooks/pre.mjs {tool} {path})"),
    "the first hook",
  );
  await pty.type("/hooks add post-tool false\r");
  await pty.waitFor((s) => flat(s).includes("added post-tool hook #2 (false)"), "the second hook");
  await pty.type("/hooks list\r");
  await pty.waitFor(
    (s) =>
      /agent writer: true \(claude: PreToolUse, matcher Bash\)\n\s*#1 pre-tool node \.hooks\/pre\.mjs \{tool\} \{path\}\n\s*#2 post-tool false/
        .test(s),
    "the list",
  );
  await pty.type("write both\r");
  await pty.waitFor((s) => s.includes("both tried"), "the answer");
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    // A post-tool hook runs after every call, a refused one too, as afterToolExecute does.
    "pre-tool hook #1 (node .hooks/pre.mjs {tool} {path}) exited 2: write: generated/ is rebuilt, not edited\n[post-tool hook #2 (false) exited 1]",
    "created src/a.ts (1 line)\n[post-tool hook #2 (false) exited 1]",
  ]);
  assert.equal(await Deno.stat(`${env.workdir}/generated`).then(() => true, () => false), false);
  await pty.type("/hooks remove 1\r");
  await pty.waitFor(
    (s) =>
      /removed pre-tool hook #1 .* in the order they run: agent writer: .* #1 post-tool false/.test(
        flat(s),
      ),
    "the removal",
  );
  await pty.type("/hooks remove 5\r");
  await pty.waitFor(
    (s) => flat(s).includes("usage: /hooks remove N, N from 1 to 1"),
    "the bad number",
  );
  await pty.type("/clear\r");
  await pty.waitFor((s) => s.includes("dropped 1 hook of this chat"), "the clear");
  await pty.type("\x03");
  await pty.type("\x03");
  assert.equal((await pty.wait()).code, 0);
});

Deno.test(
  "chat: Ctrl+C during a session hook that hangs ends the turn at once and kills its group",
  {
    ignore: Deno.build.os !== "linux",
  },
  async () => {
    await using provider = await startFakeProvider([
      { toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "a" } }] },
      { text: "never read" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeAgent("writer", { description: "Writer.", tools: ["write"] });
    // A sleep no other process runs, so the test can tell whether it outlived the turn.
    const marker = `300.${Math.floor(Math.random() * 1e6)}`;
    await Deno.mkdir(`${env.workdir}/.hooks`);
    await Deno.writeTextFile(
      `${env.workdir}/.hooks/hang.sh`,
      `#!/bin/sh\ntouch hanging\nsleep ${marker} &\nwait\n`,
      { mode: 0o755 },
    );
    await using pty = await chat(env, ["-a", "writer"]);
    await pty.waitFor(PROMPT_READY, "the editor");
    await pty.type("/hooks add pre-tool .hooks/hang.sh\r");
    await pty.waitFor((s) => flat(s).includes("added pre-tool hook #1"), "the hook");
    await pty.type("write it\r");
    const deadline = Date.now() + 20_000;
    while (!(await Deno.stat(`${env.workdir}/hanging`).then(() => true, () => false))) {
      if (Date.now() > deadline) throw new Error("the hook never started");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const pressed = performance.now();
    await pty.type("\x03");
    await pty.waitFor((s) => flat(s).includes("interrupted") && PROMPT_READY(s), "the interrupt");
    // Within a second on an idle machine; the bound leaves room for a loaded one.
    assert.ok(performance.now() - pressed < 4_000, `${performance.now() - pressed} ms`);
    assert.ok(await processesGone(marker, 5_000), "the hook outlived the turn");
    assert.equal(await Deno.stat(`${env.workdir}/a.txt`).then(() => true, () => false), false);
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
  },
);
