import assert from "node:assert/strict";
import {
  killAllProcessGroups,
  MAX_COLLECTED_BYTES,
  type ProcessGroupOptions,
  runInProcessGroup,
} from "./process_group.ts";
import { TRUNCATION_MARKER } from "./truncate.ts";

const cwd = Deno.cwd();

function run(command: string, extra: Partial<ProcessGroupOptions> = {}) {
  return runInProcessGroup({ command, cwd, signal: new AbortController().signal, ...extra });
}

/** Processes of group `pgid` that are not zombies, as `ps` sees them. */
async function livingMembers(pgid: number): Promise<string[]> {
  const output = await new Deno.Command("ps", { args: ["-e", "-o", "pgid=,stat=,args="] }).output();
  return new TextDecoder().decode(output.stdout).split("\n").map((line) => line.trim())
    .filter((line) => line.startsWith(`${pgid} `))
    .filter((line) => !/^\d+ Z/.test(line));
}

async function assertGroupGone(pgid: number): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    if ((await livingMembers(pgid)).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(await livingMembers(pgid), []);
}

Deno.test("runInProcessGroup() streams stdout live, piece by piece, in order", async () => {
  const pieces: string[] = [];
  const result = await run("printf 'a\\n'; sleep 0.2; printf 'b\\n'", {
    onStdout: (text) => pieces.push(text),
  });
  assert.deepEqual(pieces, ["a\n", "b\n"]);
  assert.equal(result.stdout, "a\nb\n");
  assert.equal(result.code, 0);
  assert.equal(result.signal, null);
});

Deno.test("runInProcessGroup() returns the exit code and stderr apart from stdout", async () => {
  const errors: string[] = [];
  const result = await run("echo out; echo err >&2; exit 3", {
    onStderr: (text) => errors.push(text),
  });
  assert.equal(result.code, 3);
  assert.equal(result.stdout, "out\n");
  assert.equal(result.stderr, "err\n");
  assert.deepEqual(errors, ["err\n"]);
  assert.equal(result.timedOut, false);
  assert.equal(result.aborted, false);
});

Deno.test("runInProcessGroup() kills background grandchildren on timeout", async () => {
  const started = Date.now();
  const result = await run("echo $$; sleep 30 & sleep 30", { timeoutMs: 200 });
  const elapsed = Date.now() - started;
  assert.equal(result.timedOut, true);
  assert.equal(result.code, -1);
  assert.ok(elapsed < 2000, `took ${elapsed}ms`);
  await assertGroupGone(Number(result.stdout.trim()));
});

Deno.test("runInProcessGroup() kills the group when the signal aborts", async () => {
  const controller = new AbortController();
  const pieces: string[] = [];
  const pending = run("echo $$; sleep 30 & sleep 30", {
    signal: controller.signal,
    onStdout: (text) => {
      pieces.push(text);
      controller.abort();
    },
  });
  const result = await pending;
  assert.equal(result.aborted, true);
  assert.equal(result.timedOut, false);
  assert.equal(result.code, -1);
  await assertGroupGone(Number(pieces.join("").trim()));
});

Deno.test("runInProcessGroup() does not start a command when the signal is already aborted", async () => {
  const controller = new AbortController();
  controller.abort();
  const marker = await Deno.makeTempFile();
  await Deno.remove(marker);
  const result = await run(`touch ${marker}`, { signal: controller.signal });
  assert.equal(result.aborted, true);
  assert.equal(result.code, -1);
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
});

Deno.test("runInProcessGroup() never splits a UTF-8 character across chunks", async () => {
  const pieces: string[] = [];
  // "é" is \303\251: its two bytes arrive in separate writes.
  const result = await run("printf '\\303'; sleep 0.2; printf '\\251!\\n'", {
    onStdout: (text) => pieces.push(text),
  });
  assert.equal(result.stdout, "é!\n");
  assert.ok(pieces.every((piece) => !piece.includes("\ufffd")), JSON.stringify(pieces));
  assert.equal(pieces.join(""), "é!\n");
});

Deno.test("runInProcessGroup() adds env to the inherited environment and honours cwd", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = await runInProcessGroup({
      command: 'echo "$RIENDA_TEST_VALUE"; pwd; command -v sh >/dev/null && echo path-ok',
      cwd: dir,
      env: { RIENDA_TEST_VALUE: "from env" },
      signal: new AbortController().signal,
    });
    assert.equal(result.stdout, `from env\n${await Deno.realPath(dir)}\npath-ok\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runInProcessGroup() rejects a working directory that does not exist", async () => {
  await assert.rejects(
    runInProcessGroup({
      command: "true",
      cwd: "/no/such/dir",
      signal: new AbortController().signal,
    }),
    { message: 'working directory "/no/such/dir" does not exist' },
  );
});

Deno.test("runInProcessGroup() caps the collected copy but streams every byte live", async () => {
  let liveBytes = 0;
  const total = MAX_COLLECTED_BYTES + 5000;
  const result = await run(`head -c ${total} /dev/zero | tr '\\0' a`, {
    onStdout: (text) => liveBytes += text.length,
  });
  assert.equal(liveBytes, total);
  assert.equal(result.stdout, "a".repeat(MAX_COLLECTED_BYTES) + TRUNCATION_MARKER);
});

Deno.test("runInProcessGroup() stops waiting for pipes a background process keeps open", async () => {
  const started = Date.now();
  const result = await run("echo $$; (sleep 3; echo late) &");
  assert.ok(Date.now() - started < 2000);
  assert.equal(result.code, 0);
  const pgid = Number(result.stdout.trim());
  new Deno.Command("sh", { args: ["-c", `kill -s KILL -- -${pgid}`] }).outputSync();
  await assertGroupGone(pgid);
});

Deno.test("killAllProcessGroups() kills every running group", async () => {
  const pieces: string[] = [];
  let ready!: () => void;
  const started = new Promise<void>((resolve) => ready = resolve);
  const pending = run("echo $$; sleep 30 & sleep 30", {
    onStdout: (text) => {
      pieces.push(text);
      ready();
    },
  });
  await started;
  killAllProcessGroups();
  const result = await pending;
  assert.equal(result.code, -1);
  assert.equal(result.signal, "SIGKILL");
  await assertGroupGone(Number(pieces.join("").trim()));
});

Deno.test({
  name: "runInProcessGroup() kills the group through sh when run permission is limited to sh",
  permissions: { run: ["sh"], read: true },
  async fn() {
    const result = await run("echo $$; sleep 30 & sleep 30", { timeoutMs: 200 });
    assert.equal(result.timedOut, true);
    assert.equal(result.code, -1);
    assert.notEqual(result.signal, null);
    const pgid = Number(result.stdout.trim());
    // ps needs more than the sh-only permission: check from the outside afterwards.
    const check = new Deno.Command("sh", { args: ["-c", `kill -0 -- -${pgid} 2>/dev/null`] });
    // Until the group is gone (the kill was sent; the kernel reaps it shortly after).
    for (let attempt = 0; attempt < 100 && (await check.output()).code === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.notEqual((await check.output()).code, 0);
  },
});

Deno.test("runInProcessGroup() leaves a background process of a finished command running", async () => {
  const result = await run("echo $$; sleep 30 >/dev/null 2>&1 &");
  assert.equal(result.code, 0);
  const pgid = Number(result.stdout.trim());
  try {
    await new Promise((resolve) => setTimeout(resolve, 200)); // the watcher has read rienda's line
    const members = await livingMembers(pgid);
    assert.equal(members.length, 1, members.join("\n"));
    assert.match(members[0] ?? "", /sleep 30/);
  } finally {
    await new Deno.Command("kill", { args: ["-s", "KILL", "--", `-${pgid}`] }).output();
  }
});
