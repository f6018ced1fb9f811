import assert from "node:assert/strict";
import {
  acquireSessionLock,
  findLockHolder,
  isProcessAlive,
  processStart,
  SessionLockedError,
} from "./lock.ts";

const UNIX = Deno.build.os !== "windows";

async function withDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("sh", { args: ["-c", "exit 0"], stdout: "null", stderr: "null" })
    .spawn();
  await child.status;
  return child.pid;
}

Deno.test("acquireSessionLock() writes our pid and release() removes the lock", async () => {
  await withDir(async (dir) => {
    const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
    assert.equal(lock.path, `${dir}/s.jsonl.lock`);
    assert.match(await Deno.readTextFile(lock.path), new RegExp(`^${Deno.pid} \\d+\n$`));
    await lock.release();
    await lock.release();
    await assert.rejects(Deno.stat(lock.path), Deno.errors.NotFound);
  });
});

Deno.test("acquireSessionLock() refuses a lock this process already holds", async () => {
  await withDir(async (dir) => {
    const lock = await acquireSessionLock(`${dir}/s.jsonl`, "01abc");
    await assert.rejects(acquireSessionLock(`${dir}/s.jsonl`, "01abc"), (error: unknown) => {
      return error instanceof SessionLockedError && error.pid === Deno.pid &&
        error.message.startsWith(
          `session 01abc is in use by another rienda process (pid ${Deno.pid}); if no rienda process is running it, remove `,
        );
    });
    await lock.release();
  });
});

Deno.test({
  name: "acquireSessionLock() refuses a lock held by another live process",
  ignore: !UNIX,
  fn: async () => {
    await withDir(async (dir) => {
      const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
      try {
        await Deno.writeTextFile(`${dir}/s.jsonl.lock`, `${child.pid}\n`);
        assert.deepEqual(await findLockHolder(`${dir}/s.jsonl`), { pid: child.pid });
        await assert.rejects(acquireSessionLock(`${dir}/s.jsonl`, "s"), (error: unknown) => {
          return error instanceof SessionLockedError && error.pid === child.pid;
        });
        assert.equal(await Deno.readTextFile(`${dir}/s.jsonl.lock`), `${child.pid}\n`);
      } finally {
        child.kill("SIGKILL");
        await child.status;
      }
    });
  },
});

Deno.test({
  name: "acquireSessionLock() takes over a stale lock whose process is gone",
  ignore: !UNIX,
  fn: async () => {
    await withDir(async (dir) => {
      const pid = await deadPid();
      assert.equal(await isProcessAlive(pid), false);
      await Deno.writeTextFile(`${dir}/s.jsonl.lock`, `${pid}\n`);
      assert.equal(await findLockHolder(`${dir}/s.jsonl`), null);
      const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
      assert.match(await Deno.readTextFile(lock.path), new RegExp(`^${Deno.pid} \\d+\n$`));
      await lock.release();
    });
  },
});

Deno.test({
  name: "acquireSessionLock() takes over a lock whose pid now belongs to a process started later",
  ignore: !UNIX,
  fn: async () => {
    await withDir(async (dir) => {
      const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
      try {
        const start = await processStart(child.pid);
        await Deno.writeTextFile(`${dir}/s.jsonl.lock`, `${child.pid} ${start}\n`);
        assert.deepEqual(await findLockHolder(`${dir}/s.jsonl`), { pid: child.pid });
        await Deno.writeTextFile(`${dir}/s.jsonl.lock`, `${child.pid} 1\n`);
        assert.equal(await findLockHolder(`${dir}/s.jsonl`), null);
        const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
        await lock.release();
      } finally {
        child.kill("SIGKILL");
        await child.status;
      }
    });
  },
});

Deno.test("acquireSessionLock() takes over a lock naming our pid that this process never took", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/s.jsonl.lock`, `${Deno.pid}\n`);
    const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
    await lock.release();
  });
});

Deno.test("acquireSessionLock() refuses a fresh lock without a pid, and takes an old one", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/s.jsonl.lock`;
    await Deno.writeTextFile(path, "");
    await assert.rejects(acquireSessionLock(`${dir}/s.jsonl`, "s"), (error: unknown) => {
      return error instanceof SessionLockedError && error.pid === null &&
        error.message ===
          `session s is in use by another rienda process; if no rienda process is running it, remove ${path}`;
    });
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(path, old, old);
    const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
    await lock.release();
  });
});

Deno.test("isProcessAlive() sees this process", async () => {
  assert.equal(await isProcessAlive(Deno.pid), true);
});

Deno.test("processStart() tells this process from another and stays the same", async () => {
  const mine = await processStart(Deno.pid);
  assert.ok(mine !== null && !/\s/.test(mine), String(mine));
  assert.equal(await processStart(Deno.pid), mine);
  assert.equal(await processStart(2147483646), null);
});
