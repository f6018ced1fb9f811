import assert from "node:assert/strict";
import { userText } from "../llm/messages.ts";
import { readSessionFile } from "../sessions/reader.ts";
import { createSessionWriter } from "../sessions/writer.ts";
import { openContinuedSession } from "./continue_session.ts";
import { bindRunSession, openRunSession } from "./run_session.ts";

Deno.test("bindRunSession() writes pending entries before the first message and maps kept indexes to ids", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rienda-run-session-" });
  try {
    const writer = await createSessionWriter({
      sessionsDir: dir,
      workdir: "/w",
      id: "01k5zzzzzzzzzzzzzzzzzzzzzz",
      agent: "coder",
      model: "fake/m",
    });
    const session = bindRunSession(writer, {
      historyIds: [],
      pending: [{ kind: "model", model: "fake/other" }],
    });
    await session.append(userText("one"));
    await session.append(userText("two"));
    await session.recordCompaction({ summary: "S", keptIndex: 1, tokensBefore: 99 });
    await session[Symbol.asyncDispose]();
    const data = await readSessionFile(writer.path);
    assert.deepEqual(data.entries.map((entry) => entry.kind), [
      "model",
      "message",
      "message",
      "compaction",
    ]);
    const compaction = data.entries[3];
    assert.equal(compaction?.kind === "compaction" ? compaction.keptId : "", data.entries[2]?.id);
    assert.equal(compaction?.kind === "compaction" ? compaction.tokensBefore : 0, 99);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bindRunSession() without a writer keeps nothing and records nothing", async () => {
  const session = bindRunSession(null, {
    historyIds: [],
    pending: [{ kind: "title", title: "x" }],
  });
  await session.append(userText("one"));
  await session.recordCompaction({ summary: "S", keptIndex: 5, tokensBefore: 1 });
  await session[Symbol.asyncDispose]();
});

Deno.test("bindRunSession() refuses a compaction that keeps no stored message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rienda-run-session-" });
  try {
    const writer = await createSessionWriter({
      sessionsDir: dir,
      workdir: "/w",
      id: "01k5zzzzzzzzzzzzzzzzzzzzzy",
      agent: "coder",
      model: "fake/m",
    });
    await using session = bindRunSession(writer, { historyIds: [], pending: [] });
    await session.append(userText("one"));
    await assert.rejects(
      session.recordCompaction({ summary: "S", keptIndex: 3, tokensBefore: 1 }),
      /no stored message at position 3/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openRunSession() starts a new session with its title, then continues it with a model switch", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rienda-run-session-" });
  try {
    const chosen = { agent: "coder", agentFile: null, model: "fake/m", thinking: null };
    const base = { sessionsDir: dir, workdir: "/w", noSession: false };
    const id = "01k5zzzzzzzzzzzzzzzzzzzzzx";
    const first = await openRunSession({
      ...base,
      sessionId: id,
      continued: null,
      chosen,
      title: "fix it\nnow",
    });
    assert.deepEqual(first.history, []);
    await first.session.append(userText("fix it"));
    await first.session[Symbol.asyncDispose]();
    const continued = await openContinuedSession(dir, "/w", { kind: "id", id });
    const next = await openRunSession({
      ...base,
      sessionId: id,
      continued,
      chosen: { ...chosen, model: "fake/other" },
    });
    assert.deepEqual(next.history, [userText("fix it")]);
    await next.session.append(userText("again"));
    await next.session[Symbol.asyncDispose]();
    const data = await readSessionFile(continued.path);
    assert.deepEqual(data.entries.map((entry) => entry.kind), [
      "title",
      "message",
      "model",
      "message",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
