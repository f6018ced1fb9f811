/**
 * An interrupt never bypasses a rewriting hook (docs/cli.md, Interrupts):
 * Ctrl-C while an `afterModelResponse` or `afterToolExecute` redaction hook
 * runs leaves the raw text out of stdout, stderr and the session, in every
 * output format, and a continued run never sends it to the model. And an
 * `afterRun` hook looping after a normal end gets the grace period and exits
 * 130.
 */

import assert from "node:assert/strict";
import { checkSession, lastLine, sessionIdOf } from "./harness/assertions.ts";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at, parseJsonLines } from "./harness/json.ts";
import { toolResultsOf } from "./harness/wire.ts";

const SECRET = "SECRET-4242";
const INTERRUPTED = "rienda: the run was interrupted";

/** A redaction hook at `point` that marks the workspace, then takes forever. */
function slowRedaction(point: "afterModelResponse" | "afterToolExecute"): string {
  return `module.exports = {
  ${point}: function (ctx) {
    ctx.file.write("redacting", "1");
    while (true) {}
  },
};
`;
}

async function waitForFile(path: string): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (!(await Deno.stat(path).then(() => true, () => false))) {
    if (performance.now() > deadline) throw new Error(`${path} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts `args`, waits for the hook to start redacting, sends SIGINT, and returns the result. */
async function interruptWhileRedacting(env: TestEnv, args: readonly string[]) {
  await using process = await env.start(args);
  await waitForFile(`${env.workdir}/redacting`);
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  return { ...result, elapsedMs: performance.now() - signalled };
}

/** The session id: from `session:` (text output) or the first event or object on stdout. */
function sessionOf(output: string, stdout: string, stderr: string): string {
  if (output === "text") return sessionIdOf(stderr);
  const [first] = parseJsonLines(stdout, "stdout");
  return String(at(first, "sessionId"));
}

for (const output of ["text", "json", "stream-json"]) {
  Deno.test(`SIGINT during afterModelResponse prints and stores no raw answer (--output ${output})`, async () => {
    await using provider = await startFakeProvider([
      { text: `the key is ${SECRET}` },
      { text: "fine" },
    ]);
    await using env = await createTestEnv({ provider });
    await env.writeHook("redact", slowRedaction("afterModelResponse"));
    await env.writeAgent("discreet", { description: "Discreet.", hooks: ["redact"] });
    const result = await interruptWhileRedacting(env, [
      "run",
      "-a",
      "discreet",
      "--output",
      output,
      "what is the key?",
    ]);
    assert.equal(result.code, 130, result.stderr);
    assert.ok(result.elapsedMs < 4_000, `${result.elapsedMs} ms`);
    assert.equal(lastLine(result.stderr), INTERRUPTED);
    assert.ok(!result.stdout.includes(SECRET), result.stdout);
    assert.ok(!result.stderr.includes(SECRET), result.stderr);
    if (output !== "text") {
      const events = parseJsonLines(result.stdout, "stdout");
      const end = events.at(-1);
      assert.equal(at(end, "reason"), "interrupted");
      assert.ok(!events.some((event) => at(event, "type") === "message_end"));
    }
    const id = sessionOf(output, result.stdout, result.stderr);
    const session = checkSession(await env.readSession(id));
    assert.ok(!JSON.stringify(session.entries).includes(SECRET));
    assert.deepEqual(session.entries.map((entry) => entry.role), ["user"]);
    // Continued, the model never receives the raw answer.
    await Deno.remove(`${env.workdir}/redacting`);
    await env.writeAgent("plain", { description: "Plain." });
    const next = await env.run(["run", "-s", id, "-a", "plain", "again"]);
    assert.equal(next.code, 0, next.stderr);
    assert.ok(!provider.requests[1]?.rawBody.includes(SECRET), provider.requests[1]?.rawBody);
  });
}

Deno.test("SIGINT during afterToolExecute stores 'interrupted while the tool ran', never the raw result", async () => {
  await using provider = await startFakeProvider([
    // The command prints the secret without holding it.
    { toolCalls: [{ name: "shell", arguments: { command: "printf 'SECRET-%s' 4242" } }] },
    { text: "fine" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeHook("redact", slowRedaction("afterToolExecute"));
  await env.writeAgent("discreet", {
    description: "Discreet.",
    tools: ["shell"],
    hooks: ["redact"],
  });
  const result = await interruptWhileRedacting(env, [
    "run",
    "-a",
    "discreet",
    "--output",
    "stream-json",
    "read the key",
  ]);
  assert.equal(result.code, 130, result.stderr);
  assert.equal(lastLine(result.stderr), INTERRUPTED);
  const events = parseJsonLines(result.stdout, "stdout");
  const toolResult = events.find((event) => at(event, "type") === "tool_result");
  assert.equal(at(toolResult, "text"), "the run was interrupted while the tool ran");
  // Only the live output of the command (never stored, never sent) shows the text.
  assert.ok(
    events.every((event) =>
      at(event, "type") === "tool_output" || !JSON.stringify(event).includes(SECRET)
    ),
  );
  const id = String(at(events[0], "sessionId"));
  const session = checkSession(await env.readSession(id));
  assert.ok(!JSON.stringify(session.entries).includes(SECRET));
  await Deno.remove(`${env.workdir}/redacting`);
  await env.writeAgent("plain", { description: "Plain.", tools: ["shell"] });
  const next = await env.run(["run", "-s", id, "-a", "plain", "again"]);
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "the run was interrupted while the tool ran" },
  ]);
  assert.ok(!provider.requests[1]?.rawBody.includes(SECRET));
});

Deno.test("an afterRun hook looping after a normal end gets the grace period, and SIGINT exits 130", async () => {
  await using provider = await startFakeProvider([{ text: "done" }]);
  await using env = await createTestEnv({ provider });
  await env.writeHook(
    "linger",
    `module.exports = {
  afterRun: function (ctx, event) {
    ctx.file.write("redacting", event.reason);
    while (true) {}
  },
};
`,
  );
  await env.writeAgent("lingering", { description: "Lingers.", hooks: ["linger"] });
  const result = await interruptWhileRedacting(env, ["run", "-a", "lingering", "go"]);
  assert.equal(result.code, 130, result.stderr);
  assert.equal(result.stdout, "done\n");
  assert.equal(await Deno.readTextFile(`${env.workdir}/redacting`), "end_turn");
  // docs/cli.md: the same 0.5 s grace as after an interrupt, then the hook is stopped.
  assert.ok(result.elapsedMs > 400 && result.elapsedMs < 4_000, `${result.elapsedMs} ms`);
  assert.ok(
    result.stderr.includes('hook "linger": afterRun: stopped after the grace period of 0.5 s\n'),
    result.stderr,
  );
  assert.equal(lastLine(result.stderr), INTERRUPTED);
});

/** Starts `args` with stream-json, sends SIGINT once `mark` appears, and returns the result and its events. */
async function interruptAtMark(env: TestEnv, mark: string, args: readonly string[]) {
  await using process = await env.start([...args, "--output", "stream-json"]);
  await waitForFile(`${env.workdir}/${mark}`);
  process.kill("SIGINT");
  const result = await process.wait();
  return { ...result, events: parseJsonLines(result.stdout, "stdout") };
}

// docs/stream-json.md: every call of a hook is a `hook` line, one the interrupt stopped too.
const HANG = `#!/bin/sh\ncat > /dev/null\ntouch "$0.started"\nsleep 30\n`;
for (
  const [kind, entry, label] of [
    ["a command hook", { command: ["sh", "hooks/hang.sh"], on: ["afterRun"] }, "sh hooks/hang.sh"],
    [
      "a Claude Code Stop hook",
      { claude: "Stop", command: "sh hooks/hang.sh" },
      "sh hooks/hang.sh",
    ],
  ] as const
) {
  Deno.test(`${kind} cut at afterRun's grace says so in a notice and a hook event`, async () => {
    await using provider = await startFakeProvider([{ text: "done" }]);
    await using env = await createTestEnv({ provider, trustedWorkspace: true });
    await Deno.mkdir(`${env.workdir}/hooks`);
    await Deno.writeTextFile(`${env.workdir}/hooks/hang.sh`, HANG);
    await env.writeAgent("lingering", { description: "Lingers.", hooks: [entry] });
    const result = await interruptAtMark(env, "hooks/hang.sh.started", [
      "run",
      "-a",
      "lingering",
      "go",
    ]);
    assert.equal(result.code, 130, result.stderr);
    const reason = "stopped after the grace period of 0.5 s";
    // The notice a JavaScript hook cut there gives (in stream-json, a notice line).
    const notices = result.events.filter((event) => at(event, "type") === "notice");
    assert.deepEqual(notices.map((event) => at(event, "text")), [
      `hook "${label}": afterRun: ${reason}`,
    ]);
    const hooks = result.events.filter((event) => at(event, "type") === "hook");
    assert.equal(hooks.length, 1, result.stdout);
    assert.equal(at(hooks[0], "point"), "afterRun");
    assert.equal(at(hooks[0], "hook"), label);
    assert.equal(at(hooks[0], "outcome"), "timeout");
    assert.equal(at(hooks[0], "reason"), reason);
    assert.equal(at(result.events.at(-1), "type"), "run_end");
  });
}

Deno.test("a command hook stopped by Ctrl-C at a tool call is a hook event interrupted", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: "echo never" } }] },
  ]);
  await using env = await createTestEnv({ provider, trustedWorkspace: true });
  await Deno.mkdir(`${env.workdir}/hooks`);
  await Deno.writeTextFile(`${env.workdir}/hooks/hang.sh`, HANG);
  await env.writeAgent("guarded", {
    description: "Guarded.",
    tools: ["shell"],
    hooks: [{ command: ["sh", "hooks/hang.sh"] }],
  });
  const result = await interruptAtMark(env, "hooks/hang.sh.started", [
    "run",
    "-a",
    "guarded",
    "go",
  ]);
  assert.equal(result.code, 130, result.stderr);
  const hooks = result.events.filter((event) => at(event, "type") === "hook");
  assert.equal(hooks.length, 1, result.stdout);
  assert.equal(at(hooks[0], "point"), "beforeToolExecute");
  assert.equal(at(hooks[0], "outcome"), "interrupted");
  assert.equal(at(hooks[0], "callId"), "call_1");
  assert.ok(!result.stderr.includes("grace period"), result.stderr);
});
