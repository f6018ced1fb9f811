/**
 * opencode's `permission:` in an agent file is honoured (docs/formats.md,
 * "Permissions of opencode agents"): deny refuses, ask needs approval (a
 * person, or -y; without either the call is refused naming -y), per-command
 * maps decide by the last matching pattern, and what rienda cannot check is
 * a warning of the run.
 */

import assert from "node:assert/strict";
import { agentText, createTestEnv, type TestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { runToolCalls } from "./harness/tool_run.ts";
import { startPty } from "./harness/pty.ts";
import { toolNamesOf } from "./harness/wire.ts";

async function careful(env: TestEnv, permission: string): Promise<string> {
  return await env.writeFile(
    "workspace/.opencode/agent/careful.md",
    agentText(`description: Careful.\nmode: subagent\npermission:\n${permission}`, "Be careful."),
  );
}

const CALLS = [
  { name: "write", arguments: { path: "a.txt", content: "x\n" } },
  { name: "shell", arguments: { command: "echo hello" } },
  { name: "shell", arguments: { command: "git push origin main" } },
  { name: "shell", arguments: { command: "rm -rf build" } },
];

Deno.test("permission: ask needs approval and deny refuses, per tool and per command", async () => {
  await using env = await createTestEnv();
  await careful(
    env,
    '  edit: ask\n  bash:\n    "*": allow\n    "git push*": deny\n    "rm *": ask\n',
  );
  const alone = await runToolCalls(env, CALLS, { agent: "careful" });
  assert.deepEqual(alone.map((result) => result.isError), [true, false, true, true]);
  assert.equal(
    alone[0]?.text,
    'refused write "a.txt": the agent file asks before it (permission: edit: "*": ask) and ' +
      "nobody can be asked: run rienda with -y (--auto-approve) to allow such calls",
  );
  assert.match(alone[1]?.text ?? "", /hello/);
  assert.equal(
    alone[2]?.text,
    'refused shell "git push origin main": the agent file denies it (permission: bash: "git push*": deny)',
  );
  assert.match(
    alone[3]?.text ?? "",
    /^refused shell "rm -rf build": the agent file asks before it/,
  );
  await assert.rejects(Deno.stat(`${env.workdir}/a.txt`), Deno.errors.NotFound);
  const approved = await runToolCalls(env, CALLS, { agent: "careful", flags: ["-y"] });
  assert.deepEqual(approved.map((result) => result.isError), [false, false, true, false]);
  assert.equal(await Deno.readTextFile(`${env.workdir}/a.txt`), "x\n");
});

Deno.test("permission: edit: deny takes write and edit away; what rienda cannot check is a warning of the run", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await createTestEnv({ provider });
  const path = await careful(env, "  edit: deny\n  external_directory: ask\n  webfetch: allow\n");
  const result = await env.run(["run", "-a", "careful", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["read", "grep", "find", "ls", "shell"]);
  assert.ok(
    result.stderr.includes(
      `${path}: permission: external_directory: ask not honoured: rienda has no such check, ` +
        "so those calls run without being confirmed",
    ),
    result.stderr,
  );
});

Deno.test("a permission that is not allow, ask or deny is an error naming the file and the key", async () => {
  await using env = await createTestEnv();
  const path = await careful(env, "  bash: maybe\n");
  const result = await env.run(["run", "-a", "careful", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  assert.ok(
    result.stderr.includes(
      `${path}:5: permission.bash: must be allow, ask or deny (found "maybe")`,
    ),
    result.stderr,
  );
});

Deno.test("permission: ask is the chat's question: yes runs the call", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "x\n" } }] },
    { text: "written" },
  ]);
  await using env = await createTestEnv({ provider });
  await careful(env, "  edit: ask\n");
  await env.run(["trust", "--untrust"]); // decided: the chat does not ask about the project
  await using pty = await startPty(["-a", "careful", "go"], {
    cwd: env.workdir,
    home: env.userHome,
    riendaHome: env.home,
  });
  await pty.waitFor((screen) => screen.includes("the agent asks before this call"), "the question");
  await new Promise((resolve) => setTimeout(resolve, 450)); // keys within 400 ms are dropped
  await pty.type("y");
  await pty.waitFor((screen) => screen.includes("written"), "the answer");
  assert.equal(await Deno.readTextFile(`${env.workdir}/a.txt`), "x\n");
  await pty.type("\x04");
  assert.equal((await pty.wait()).code, 0);
});
