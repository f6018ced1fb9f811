import assert from "node:assert/strict";
import { dirname } from "node:path";
import { CONVERSATION } from "./testdata/conversation.ts";
import { toMessageFields } from "./entries.ts";
import { branchContext, type SessionEntries } from "./history.ts";
import { newSessionId } from "./ids.ts";
import { SessionLockedError } from "./lock.ts";
import { projectId } from "./project.ts";
import { readSessionFile } from "./reader.ts";
import { createSessionWriter, openSession, sessionPath } from "./writer.ts";

/** The messages of the active branch. */
function branchMessages(data: SessionEntries) {
  return branchContext(data).messages;
}

const UNIX = Deno.build.os !== "windows";

async function withHome(test: (sessionsDir: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir();
  try {
    await test(`${home}/sessions`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

function newWriter(sessionsDir: string, id = newSessionId()) {
  let tick = 0;
  return createSessionWriter({
    sessionsDir,
    workdir: "/work/project",
    id,
    agent: "coder",
    model: "fake/m",
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
  });
}

async function lines(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  return text.trimEnd().split("\n").map((line) => JSON.parse(line));
}

Deno.test("createSessionWriter() writes nothing before the first append", async () => {
  await withHome(async (sessionsDir) => {
    const writer = await newWriter(sessionsDir);
    assert.equal(writer.path, await sessionPath(sessionsDir, "/work/project", writer.id));
    await writer.close();
    await assert.rejects(Deno.stat(sessionsDir), Deno.errors.NotFound);
  });
});

Deno.test("append() round-trips every block type through the file", async () => {
  await withHome(async (sessionsDir) => {
    await using writer = await newWriter(sessionsDir);
    for (const message of CONVERSATION) await writer.append(message);
    const data = await readSessionFile(writer.path);
    assert.deepEqual(branchMessages(data), CONVERSATION);
    assert.deepEqual(data.warnings, []);
  });
});

Deno.test("append() writes the header first and chains each entry to the previous one", async () => {
  await withHome(async (sessionsDir) => {
    const writer = await newWriter(sessionsDir);
    for (const message of CONVERSATION.slice(0, 3)) await writer.append(message);
    await writer.close();
    const [header, ...entries] = await lines(writer.path);
    assert.deepEqual(header, {
      kind: "header",
      version: 1,
      id: writer.id,
      createdAt: "2026-01-01T00:00:00.000Z",
      agent: "coder",
      model: "fake/m",
      workdir: "/work/project",
    });
    assert.deepEqual(entries.map((entry) => Object.keys(entry).slice(0, 4)), [
      ["kind", "id", "parentId", "createdAt"],
      ["kind", "id", "parentId", "createdAt"],
      ["kind", "id", "parentId", "createdAt"],
    ]);
    assert.deepEqual(entries.map((entry) => entry.parentId), ["", entries[0]?.id, entries[1]?.id]);
    assert.deepEqual(entries.map((entry) => entry.createdAt), [
      "2026-01-01T00:00:01.000Z",
      "2026-01-01T00:00:02.000Z",
      "2026-01-01T00:00:03.000Z",
    ]);
    assert.equal(writer.leafId, entries[2]?.id);
  });
});

Deno.test({
  name: "append() creates folders 0700 and the file 0600 whatever the umask",
  ignore: !UNIX,
  fn: async () => {
    await withHome(async (sessionsDir) => {
      const previous = Deno.umask(0o000);
      try {
        await using writer = await newWriter(sessionsDir);
        await writer.append(CONVERSATION[0] ?? { role: "user", blocks: [] });
        assert.equal((await Deno.stat(writer.path)).mode! & 0o777, 0o600);
        assert.equal((await Deno.stat(dirname(writer.path))).mode! & 0o777, 0o700);
        assert.equal((await Deno.stat(sessionsDir)).mode! & 0o777, 0o700);
      } finally {
        Deno.umask(previous);
      }
    });
  },
});

Deno.test("appendEntry() stores switches, and a leaf makes the next entry start a branch", async () => {
  await withHome(async (sessionsDir) => {
    const [prompt, answer] = CONVERSATION;
    assert.ok(prompt && answer);
    await using writer = await newWriter(sessionsDir);
    const first = await writer.appendEntry(toMessageFields(prompt));
    await writer.append(answer);
    const model = await writer.appendEntry({ kind: "model", model: "openai/gpt-4o" });
    const leaf = await writer.appendEntry({ kind: "leaf", targetId: first });
    assert.equal(writer.leafId, first);
    await writer.append(answer);
    const entries = (await readSessionFile(writer.path)).entries;
    assert.deepEqual(entries.map((entry) => entry.kind), [
      "message",
      "message",
      "model",
      "leaf",
      "message",
    ]);
    assert.equal(entries[2]?.id, model);
    assert.equal(entries[3]?.id, leaf);
    assert.equal(entries[3]?.parentId, model);
    assert.equal(entries[4]?.parentId, first);
  });
});

Deno.test("append() keeps call order when appends are not awaited one by one", async () => {
  await withHome(async (sessionsDir) => {
    await using writer = await newWriter(sessionsDir);
    await Promise.all(CONVERSATION.map((message) => writer.append(message)));
    assert.deepEqual(branchMessages(await readSessionFile(writer.path)), CONVERSATION);
  });
});

Deno.test("close() lets appends already made finish, then refuses new ones", async () => {
  await withHome(async (sessionsDir) => {
    const writer = await newWriter(sessionsDir);
    const pending = CONVERSATION.map((message) => writer.append(message));
    await writer.close();
    await Promise.all(pending);
    assert.deepEqual(branchMessages(await readSessionFile(writer.path)), CONVERSATION);
    await assert.rejects(
      writer.appendEntry({ kind: "title", title: "t" }),
      /after the writer was closed/,
    );
  });
});

Deno.test("append() names the file when it cannot be created", async () => {
  await withHome(async (sessionsDir) => {
    await Deno.mkdir(sessionsDir);
    await Deno.writeTextFile(
      `${sessionsDir}/${await projectId("/work/project")}`,
      "a file, not a folder",
    );
    const writer = await newWriter(sessionsDir);
    await assert.rejects(
      writer.append(CONVERSATION[0] ?? { role: "user", blocks: [] }),
      /cannot create the session file: /,
    );
    await writer.close();
  });
});

Deno.test("close() releases the lock so the session can be continued", async () => {
  await withHome(async (sessionsDir) => {
    const writer = await newWriter(sessionsDir);
    await writer.append(CONVERSATION[0] ?? { role: "user", blocks: [] });
    await assert.rejects(openSession(writer.path), SessionLockedError);
    await writer.close();
    await writer.close();
    await assert.rejects(
      writer.append(CONVERSATION[0] ?? { role: "user", blocks: [] }),
      /after the writer was closed/,
    );
    const { writer: again } = await openSession(writer.path);
    await again.close();
    await assert.rejects(Deno.stat(`${writer.path}.lock`), Deno.errors.NotFound);
  });
});

Deno.test("openSession() continues the file from its active leaf", async () => {
  await withHome(async (sessionsDir) => {
    const first = await newWriter(sessionsDir);
    for (const message of CONVERSATION.slice(0, 2)) await first.append(message);
    await first.close();
    const { data, writer } = await openSession(first.path);
    assert.equal(writer.id, first.id);
    assert.equal(writer.leafId, first.leafId);
    assert.equal(branchMessages(data).length, 2);
    for (const message of CONVERSATION.slice(2)) await writer.append(message);
    await writer.close();
    const read = await readSessionFile(first.path);
    assert.deepEqual(branchMessages(read), CONVERSATION);
    assert.equal(read.entries[2]?.parentId, first.leafId);
  });
});

Deno.test("openSession() cuts a torn last line before appending", async () => {
  await withHome(async (sessionsDir) => {
    const first = await newWriter(sessionsDir);
    for (const message of CONVERSATION.slice(0, 2)) await first.append(message);
    await first.close();
    await Deno.writeTextFile(first.path, '{"kind":"message","id":"dead', { append: true });
    const { data, writer } = await openSession(first.path);
    assert.equal(data.warnings.length, 1);
    await writer.append(CONVERSATION[2] ?? { role: "user", blocks: [] });
    await writer.close();
    const read = await readSessionFile(first.path);
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(branchMessages(read), CONVERSATION.slice(0, 3));
  });
});

Deno.test("openSession() adds the newline a complete last line lacks", async () => {
  await withHome(async (sessionsDir) => {
    const first = await newWriter(sessionsDir);
    await first.append(CONVERSATION[0] ?? { role: "user", blocks: [] });
    await first.close();
    await Deno.writeTextFile(first.path, (await Deno.readTextFile(first.path)).trimEnd());
    const { writer } = await openSession(first.path);
    await writer.append(CONVERSATION[1] ?? { role: "user", blocks: [] });
    await writer.close();
    assert.deepEqual(branchMessages(await readSessionFile(first.path)), CONVERSATION.slice(0, 2));
  });
});

Deno.test("openSession() refuses a second writer of the same session", async () => {
  await withHome(async (sessionsDir) => {
    const first = await newWriter(sessionsDir);
    await first.append(CONVERSATION[0] ?? { role: "user", blocks: [] });
    await assert.rejects(openSession(first.path), (error: unknown) => {
      return error instanceof SessionLockedError &&
        error.message ===
          `session ${first.id} is in use by another rienda process (pid ${Deno.pid}); wait for it to finish or stop it`;
    });
    await first.close();
  });
});
