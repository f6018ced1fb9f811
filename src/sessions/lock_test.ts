import assert from "node:assert/strict";
import { acquireSessionLock, SessionLockedError } from "./lock.ts";

const UNIX = Deno.build.os !== "windows";

async function withDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Locks `path` in another process as the module does (its pid written) and keeps it until killed. */
async function holderProcess(path: string): Promise<Deno.ChildProcess & AsyncDisposable> {
  const script = `const file = await Deno.open(${JSON.stringify(path)}, ` +
    `{ read: true, write: true, create: true });\n` +
    `await file.lock(true);\n` +
    `await file.write(new TextEncoder().encode(Deno.pid + "\\n"));\n` +
    `await Deno.stdout.write(new TextEncoder().encode("locked\\n"));\n` +
    `setInterval(() => {}, 1000);\n`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  assert.equal(new TextDecoder().decode(value), "locked\n");
  reader.releaseLock();
  return Object.assign(child, {
    [Symbol.asyncDispose]: async () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  });
}

Deno.test("acquireSessionLock() writes our pid and release() removes the lock", async () => {
  await withDir(async (dir) => {
    const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
    assert.equal(lock.path, `${dir}/s.jsonl.lock`);
    assert.equal(await Deno.readTextFile(lock.path), `${Deno.pid}\n`);
    if (UNIX) assert.equal((await Deno.stat(lock.path)).mode! & 0o777, 0o600);
    await lock.release();
    await lock.release();
    await assert.rejects(Deno.stat(lock.path), Deno.errors.NotFound);
    (await acquireSessionLock(`${dir}/s.jsonl`, "s")).release();
  });
});

Deno.test("acquireSessionLock() refuses a lock this process already holds", async () => {
  await withDir(async (dir) => {
    const lock = await acquireSessionLock(`${dir}/s.jsonl`, "01abc");
    await assert.rejects(acquireSessionLock(`${dir}/s.jsonl`, "01abc"), (error: unknown) => {
      return error instanceof SessionLockedError && error.pid === Deno.pid &&
        error.message ===
          `session 01abc is in use by another rienda process (pid ${Deno.pid}); wait for it to finish or stop it`;
    });
    assert.equal(await Deno.readTextFile(lock.path), `${Deno.pid}\n`);
    await lock.release();
  });
});

Deno.test({
  name:
    "acquireSessionLock() refuses a lock another process holds, and takes it at once when that process is killed",
  ignore: !UNIX,
  fn: async () => {
    await withDir(async (dir) => {
      const path = `${dir}/s.jsonl.lock`;
      {
        await using holder = await holderProcess(path);
        await assert.rejects(acquireSessionLock(`${dir}/s.jsonl`, "s"), (error: unknown) => {
          return error instanceof SessionLockedError && error.pid === holder.pid;
        });
        assert.equal(await Deno.readTextFile(path), `${holder.pid}\n`);
      }
      // The killed holder's file is still there, naming it: the kernel freed the lock itself.
      assert.match(await Deno.readTextFile(path), /^\d+\n$/);
      const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
      assert.equal(await Deno.readTextFile(path), `${Deno.pid}\n`);
      await lock.release();
    });
  },
});

Deno.test("acquireSessionLock() takes a lock file nobody holds, whatever it names", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/s.jsonl.lock`;
    for (const left of [`${Deno.pid}\n`, "2147483646 1\n", "", "not a pid at all, and longer"]) {
      await Deno.writeTextFile(path, left);
      const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
      assert.equal(await Deno.readTextFile(path), `${Deno.pid}\n`);
      await lock.release();
    }
  });
});

Deno.test("acquireSessionLock() refuses without a pid while the holder has not written it", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/s.jsonl.lock`;
    using file = await Deno.open(path, { read: true, write: true, create: true });
    await file.lock(true);
    await assert.rejects(acquireSessionLock(`${dir}/s.jsonl`, "s"), (error: unknown) => {
      return error instanceof SessionLockedError && error.pid === null &&
        error.message ===
          "session s is in use by another rienda process; wait for it to finish or stop it";
    });
    await file.unlock();
  });
});

Deno.test("release() leaves alone a lock file that is not its own any more", async () => {
  await withDir(async (dir) => {
    const lock = await acquireSessionLock(`${dir}/s.jsonl`, "s");
    // Someone removed the file (and a second writer made its own) while the first held it.
    await Deno.remove(lock.path);
    await Deno.writeTextFile(lock.path, "12345\n");
    await lock.release();
    assert.equal(await Deno.readTextFile(lock.path), "12345\n");
  });
});

Deno.test({
  name: "acquireSessionLock() refuses a symlink as the lock and leaves its target alone",
  ignore: !UNIX,
  fn: async () => {
    await withDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/precious`, "keep me\n");
      await Deno.symlink(`${dir}/precious`, `${dir}/s.jsonl.lock`);
      await assert.rejects(
        acquireSessionLock(`${dir}/s.jsonl`, "s"),
        new Error(`${dir}/s.jsonl.lock is not a regular file (a session lock is); remove it`),
      );
      assert.equal(await Deno.readTextFile(`${dir}/precious`), "keep me\n");
    });
  },
});
