import assert from "node:assert/strict";
import {
  findSessionFile,
  latestSessionFile,
  listSessions,
  removeSession,
  SessionNotFoundError,
  titleFromPrompt,
} from "./catalog.ts";
import { userText } from "../llm/messages.ts";
import { acquireSessionLock, SessionLockedError } from "./lock.ts";
import { projectDir } from "./project.ts";
import { createSessionWriter } from "./writer.ts";

const WORKDIR = "/work/project";

async function withHome(test: (sessionsDir: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir();
  try {
    await test(`${home}/sessions`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Writes a closed session with `prompts`, then sets its modification time. */
async function session(
  sessionsDir: string,
  id: string,
  prompts: string[],
  options: { title?: string; mtime: number; workdir?: string },
): Promise<string> {
  const writer = await createSessionWriter({
    sessionsDir,
    workdir: options.workdir ?? WORKDIR,
    id,
    agent: "coder",
    model: "fake/m",
    now: () => new Date(Date.UTC(2026, 0, 1)),
  });
  for (const prompt of prompts) await writer.append(userText(prompt));
  if (options.title !== undefined) {
    await writer.appendEntry({ kind: "title", title: options.title });
  }
  await writer.close();
  await Deno.utime(writer.path, options.mtime, options.mtime);
  return writer.path;
}

Deno.test("titleFromPrompt() folds the prompt to one line and cuts it at 80 characters", () => {
  assert.equal(titleFromPrompt("  fix\n\tthe   build  "), "fix the build");
  const long = "é".repeat(100);
  assert.equal(titleFromPrompt(long), "é".repeat(80));
  assert.equal(titleFromPrompt("😀".repeat(81)).length, 160);
});

Deno.test("listSessions() lists the workspace's sessions newest first with their titles", async () => {
  await withHome(async (sessionsDir) => {
    await session(sessionsDir, "01aaaaaaaaaaaaaaaaaaaaaaaa", ["old prompt"], { mtime: 1_000 });
    await session(sessionsDir, "01bbbbbbbbbbbbbbbbbbbbbbbb", ["first\nprompt", "second"], {
      mtime: 3_000,
    });
    await session(sessionsDir, "01cccccccccccccccccccccccc", ["named"], {
      mtime: 2_000,
      title: "My title",
    });
    await session(sessionsDir, "01dddddddddddddddddddddddd", ["elsewhere"], {
      mtime: 4_000,
      workdir: "/other",
    });
    const list = await listSessions(sessionsDir, WORKDIR);
    assert.deepEqual(
      list.map((item) => [item.id, item.title, item.updatedAt]),
      [
        ["01bbbbbbbbbbbbbbbbbbbbbbbb", "first prompt", new Date(3_000_000).toISOString()],
        ["01cccccccccccccccccccccccc", "My title", new Date(2_000_000).toISOString()],
        ["01aaaaaaaaaaaaaaaaaaaaaaaa", "old prompt", new Date(1_000_000).toISOString()],
      ],
    );
    const [newest] = list;
    assert.equal(newest?.agent, "coder");
    assert.equal(newest?.model, "fake/m");
    assert.equal(newest?.createdAt, "2026-01-01T00:00:00.000Z");
    assert.equal(newest?.problem, undefined);
    assert.equal((await latestSessionFile(sessionsDir, WORKDIR))?.id, "01bbbbbbbbbbbbbbbbbbbbbbbb");
  });
});

Deno.test("listSessions() breaks ties by id and reports a file without a valid header", async () => {
  await withHome(async (sessionsDir) => {
    await session(sessionsDir, "01aaaaaaaaaaaaaaaaaaaaaaaa", ["a"], { mtime: 5_000 });
    await session(sessionsDir, "01bbbbbbbbbbbbbbbbbbbbbbbb", ["b"], { mtime: 5_000 });
    const broken = `${await projectDir(sessionsDir, WORKDIR)}/01zzzzzzzzzzzzzzzzzzzzzzzz.jsonl`;
    await Deno.writeTextFile(broken, "not json\n");
    await Deno.utime(broken, 1, 1);
    const list = await listSessions(sessionsDir, WORKDIR);
    assert.deepEqual(list.map((item) => item.id.slice(0, 3)), ["01b", "01a", "01z"]);
    assert.match(list[2]?.problem ?? "", /^invalid header: /);
  });
});

Deno.test("listSessions() and latestSessionFile() find nothing in a workspace without sessions", async () => {
  await withHome(async (sessionsDir) => {
    assert.deepEqual(await listSessions(sessionsDir, WORKDIR), []);
    assert.equal(await latestSessionFile(sessionsDir, WORKDIR), null);
  });
});

Deno.test("findSessionFile() accepts a full id or a unique prefix, in any case", async () => {
  await withHome(async (sessionsDir) => {
    await session(sessionsDir, "01abcaaaaaaaaaaaaaaaaaaaaa", ["a"], { mtime: 1_000 });
    await session(sessionsDir, "01abdaaaaaaaaaaaaaaaaaaaaa", ["b"], { mtime: 1_000 });
    assert.equal(
      (await findSessionFile(sessionsDir, WORKDIR, "01abcaaaaaaaaaaaaaaaaaaaaa")).id,
      "01abcaaaaaaaaaaaaaaaaaaaaa",
    );
    assert.equal(
      (await findSessionFile(sessionsDir, WORKDIR, "01ABD")).id,
      "01abdaaaaaaaaaaaaaaaaaaaaa",
    );
  });
});

Deno.test("findSessionFile() says when no session or several match", async () => {
  await withHome(async (sessionsDir) => {
    await session(sessionsDir, "01abcaaaaaaaaaaaaaaaaaaaaa", ["a"], { mtime: 1_000 });
    await session(sessionsDir, "01abdaaaaaaaaaaaaaaaaaaaaa", ["b"], { mtime: 1_000 });
    await assert.rejects(findSessionFile(sessionsDir, WORKDIR, "01ab"), (error: unknown) => {
      return error instanceof SessionNotFoundError &&
        error.message ===
          'session id "01ab" is ambiguous: it matches 01abcaaaaaaaaaaaaaaaaaaaaa, 01abdaaaaaaaaaaaaaaaaaaaaa (give more characters)';
    });
    await assert.rejects(findSessionFile(sessionsDir, WORKDIR, "01x"), (error: unknown) => {
      return error instanceof SessionNotFoundError && error.matches.length === 0 &&
        error.message === 'no session "01x" in this workspace (rienda sessions lists them)';
    });
    await assert.rejects(findSessionFile(sessionsDir, WORKDIR, ""), SessionNotFoundError);
  });
});

Deno.test("removeSession() deletes a session but not one a writer holds", async () => {
  await withHome(async (sessionsDir) => {
    const path = await session(sessionsDir, "01abcaaaaaaaaaaaaaaaaaaaaa", ["a"], { mtime: 1_000 });
    const lock = await acquireSessionLock(path, "01abc");
    await assert.rejects(removeSession({ id: "01abc", path }), (error: unknown) => {
      return error instanceof SessionLockedError &&
        error.message ===
          `session 01abc is in use by another rienda process (pid ${Deno.pid}); wait for it to finish or stop it`;
    });
    assert.ok((await Deno.stat(path)).isFile);
    await lock.release();
    // A lock file its writer left behind (killed) holds nothing.
    await Deno.writeTextFile(`${path}.lock`, "2147483646\n");
    await removeSession({ id: "01abc", path });
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(`${path}.lock`), Deno.errors.NotFound);
  });
});
