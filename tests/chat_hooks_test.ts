import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { type PtySession, startPty } from "./harness/pty.ts";

/** Starts the chat in a pty in the test environment's workspace. */
function chat(env: TestEnv, args: readonly string[]): Promise<PtySession> {
  return startPty(args, { cwd: env.workdir, home: env.userHome, riendaHome: env.home });
}

const PROMPT_READY = (screen: string) => screen.includes("Ask the agent something");

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
