import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { firstLine, MAX_LINE_CHARS, runHookProcess } from "./hook_process.ts";

const LINUX = Deno.build.os === "linux";

async function workspace(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "rienda-hook-process-" });
}

/** Whether process `pid` still runs (a zombie waiting for its reaper does not). */
async function running(pid: number): Promise<boolean> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}

/** Polls `check` until it holds or 10 s pass (a loaded machine is slow, never wrong). */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

const never = new AbortController().signal;

Deno.test("runHookProcess() hands stdin to node and keeps stdout, stderr and the exit code", async () => {
  const cwd = await workspace();
  const result = await runHookProcess({
    command: [
      "node",
      "-e",
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{console.log(JSON.parse(s).n+1);console.error('note');process.exit(3)})",
    ],
    stdin: JSON.stringify({ n: 41 }),
    cwd,
    timeoutMs: 30_000,
    signal: never,
  });
  deepStrictEqual(result, {
    kind: "exited",
    code: 3,
    stdout: "42\n",
    stderr: "note\n",
    stdoutTruncated: false,
  });
});

Deno.test("runHookProcess() runs python3 in the workspace, and a relative program path from it", async () => {
  const cwd = await workspace();
  await Deno.mkdir(join(cwd, "hooks"));
  await Deno.writeTextFile(join(cwd, "hooks", "where.sh"), "#!/bin/sh\npwd\n", { mode: 0o755 });
  const python = await runHookProcess({
    command: ["python3", "-c", "import os; print(os.getcwd())"],
    stdin: "",
    cwd,
    timeoutMs: 30_000,
    signal: never,
  });
  strictEqual(python.kind === "exited" && python.stdout, `${await Deno.realPath(cwd)}\n`);
  const script = await runHookProcess({
    command: ["hooks/where.sh"],
    stdin: "",
    cwd,
    timeoutMs: 30_000,
    signal: never,
  });
  strictEqual(script.kind === "exited" && script.stdout, `${await Deno.realPath(cwd)}\n`);
});

Deno.test("runHookProcess() never starts a program that is not there, and passes arguments without a shell", async () => {
  const cwd = await workspace();
  deepStrictEqual(
    await runHookProcess({
      command: ["no-such-hook-xyz"],
      stdin: "",
      cwd,
      timeoutMs: 1000,
      signal: never,
    }),
    { kind: "not_started", problem: 'no such program "no-such-hook-xyz" on PATH' },
  );
  deepStrictEqual(
    await runHookProcess({
      command: ["hooks/none.sh"],
      stdin: "",
      cwd,
      timeoutMs: 1000,
      signal: never,
    }),
    {
      kind: "not_started",
      problem: 'no executable file "hooks/none.sh" (a path with "/" is read from the workspace)',
    },
  );
  const hostile = ["$(touch pwned)", "; touch pwned2", "`touch pwned3`", "a b", "*"];
  const echoed = await runHookProcess({
    command: ["node", "-e", "console.log(JSON.stringify(process.argv.slice(1)))", ...hostile],
    stdin: "",
    cwd,
    timeoutMs: 30_000,
    signal: never,
  });
  deepStrictEqual(echoed.kind === "exited" && JSON.parse(echoed.stdout), hostile);
  deepStrictEqual([...Deno.readDirSync(cwd)], []);
});

Deno.test({
  name: "runHookProcess() kills what a hook started once the hook exits",
  ignore: !LINUX,
  fn: async () => {
    const cwd = await workspace();
    const result = await runHookProcess({
      command: ["sh", "-c", "sleep 300 & echo $! > child.pid; exit 0"],
      stdin: "",
      cwd,
      timeoutMs: 30_000,
      signal: never,
    });
    strictEqual(result.kind, "exited");
    const pid = Number(await Deno.readTextFile(join(cwd, "child.pid")));
    ok(await eventually(async () => !(await running(pid))), `the hook's child ${pid} still runs`);
  },
});

Deno.test({
  name: "runHookProcess() kills the whole group at the timeout and at the interrupt",
  ignore: !LINUX,
  fn: async () => {
    const cwd = await workspace();
    const slow = ["sh", "-c", "sleep 300 & echo $! > child.pid; sleep 300"] as const;
    const timedOut = await runHookProcess({
      command: slow,
      stdin: "",
      cwd,
      timeoutMs: 300,
      signal: never,
    });
    deepStrictEqual(timedOut, { kind: "timeout", stderr: "" });
    const first = Number(await Deno.readTextFile(join(cwd, "child.pid")));
    ok(await eventually(async () => !(await running(first))));

    const controller = new AbortController();
    const started = Date.now();
    const interrupted = runHookProcess({
      command: slow,
      stdin: "",
      cwd,
      timeoutMs: 600_000,
      signal: controller.signal,
    });
    ok(
      await eventually(async () => {
        const text = await Deno.readTextFile(join(cwd, "child.pid")).catch(() => "");
        return text !== "" && Number(text) !== first;
      }),
    );
    const aborted = Date.now();
    controller.abort();
    deepStrictEqual(await interrupted, { kind: "interrupted" });
    ok(Date.now() - aborted < 5000, `took ${Date.now() - aborted} ms after the interrupt`);
    const second = Number(await Deno.readTextFile(join(cwd, "child.pid")));
    ok(await eventually(async () => !(await running(second))));
    ok(Date.now() - started < 60_000);
  },
});

Deno.test("runHookProcess() reads megabytes of output without blocking and says stdout was cut", async () => {
  const cwd = await workspace();
  const result = await runHookProcess({
    command: ["sh", "-c", "head -c 8000000 /dev/zero | tr '\\0' x; head -c 3000000 /dev/zero >&2"],
    stdin: "",
    cwd,
    timeoutMs: 60_000,
    signal: never,
  });
  ok(result.kind === "exited");
  strictEqual(result.code, 0);
  strictEqual(result.stdoutTruncated, true);
  ok(result.stdout.length < 1_100_000 && result.stderr.length < 1_100_000);
});

Deno.test("firstLine() gives the first line that is not blank, cut after MAX_LINE_CHARS", () => {
  strictEqual(firstLine("\n  \n  refused: no  \nmore"), "refused: no");
  strictEqual(firstLine(" \n\t"), "");
  strictEqual(firstLine(`${"x".repeat(2_000_000)}\nsecond`), `${"x".repeat(MAX_LINE_CHARS)}…`);
  // A surrogate pair across the cut is left out whole.
  strictEqual(
    firstLine(`${"x".repeat(MAX_LINE_CHARS - 1)}😀😀`),
    `${"x".repeat(MAX_LINE_CHARS - 1)}…`,
  );
});
