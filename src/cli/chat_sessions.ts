/**
 * The session operations of the interactive mode's commands: the session
 * picker, `/rewind` (a `leaf` entry moving the active position to before an
 * earlier prompt), `/tree` (the branches, and a `leaf` entry to switch), and
 * `/title`. Writes take the session's lock, like a run.
 *
 * @module
 */

import { listSessions } from "../sessions/catalog.ts";
import type { Entry, MessageEntry } from "../sessions/entries.ts";
import { activeBranch, activeLeafId } from "../sessions/history.ts";
import { readSessionFile } from "../sessions/reader.ts";
import { shortIds } from "../sessions/short_ids.ts";
import { openSession } from "../sessions/writer.ts";
import type { Choice } from "../ui/interactive/backend.ts";

/** "3m ago", "2h ago", "5d ago". */
export function age(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** The workspace's sessions, newest first, as picker rows (value: the id). */
export async function sessionChoices(sessionsDir: string, workdir: string): Promise<Choice[]> {
  const sessions = await listSessions(sessionsDir, workdir);
  // The short ids of `rienda sessions`, worked out over the same list.
  const shorts = shortIds(sessions.map((session) => session.id));
  return sessions.filter((session) => session.problem === undefined).map((session) => ({
    value: session.id,
    label: session.title === "" ? "(no prompt yet)" : session.title,
    detail: `${session.agent} · ${age(session.updatedAt)} · ${
      shorts.get(session.id) ?? session.id
    }`,
  }));
}

function promptText(entry: Entry): string | null {
  if (entry.kind !== "message" || entry.role !== "user") return null;
  const text = entry.blocks.flatMap((block) => block.type === "text" ? [block.text] : []).join("");
  return text === "" ? null : text;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** The prompts of the active branch, newest first (value: the prompt's entry id). */
export async function promptChoices(path: string): Promise<Choice[]> {
  const branch = activeBranch(await readSessionFile(path));
  const choices: Choice[] = [];
  for (const entry of branch) {
    const text = promptText(entry);
    if (text !== null && entry.id !== null) {
      choices.push({ value: entry.id, label: oneLine(text), detail: age(entryDate(entry)) });
    }
  }
  return choices.reverse();
}

function entryDate(entry: Entry): string {
  return entry.kind === "unknown" ? new Date().toISOString() : entry.createdAt;
}

/**
 * Moves the session to just before prompt `entryId` (the next message
 * starts a branch there) and returns that prompt's text.
 *
 * @throws {Error} when the entry is not a prompt of the session
 */
export async function rewindTo(path: string, entryId: string): Promise<string> {
  const { data, writer } = await openSession(path);
  try {
    const entry = data.entries.find((candidate) => candidate.id === entryId);
    const text = entry === undefined ? null : promptText(entry);
    if (entry === undefined || text === null || entry.kind !== "message") {
      throw new Error(`no prompt ${entryId} in the session`);
    }
    await writer.appendEntry({ kind: "leaf", targetId: (entry as MessageEntry).parentId });
    return text;
  } finally {
    await writer.close();
  }
}

/** The branches of the session: one per entry nothing follows (value: its id), the active first. */
export async function branchChoices(path: string): Promise<Choice[]> {
  const data = await readSessionFile(path);
  const followed = new Set<string>();
  for (const entry of data.entries) {
    if (entry.kind !== "leaf" && entry.parentId !== null) followed.add(entry.parentId);
  }
  const active = activeLeafId(data.entries);
  const byId = new Map(
    data.entries.flatMap((entry) => entry.id === null ? [] : [[entry.id, entry]]),
  );
  const tips = data.entries.filter((entry) =>
    entry.kind !== "leaf" && entry.id !== null && !followed.has(entry.id)
  );
  const choices = tips.map((tip) => {
    let last: string | null = null;
    let messages = 0;
    for (let at: Entry | undefined = tip; at !== undefined;) {
      if (at.kind === "message") messages++;
      last ??= promptText(at);
      at = at.parentId === null || at.parentId === "" ? undefined : byId.get(at.parentId);
    }
    const current = tip.id === active;
    return {
      value: tip.id!,
      label: `${current ? "● " : "  "}${oneLine(last ?? "(no prompt)")}`,
      detail: `${messages} messages · ${age(entryDate(tip))}${current ? " · current" : ""}`,
    };
  });
  return choices.sort((a, b) => Number(b.label.startsWith("●")) - Number(a.label.startsWith("●")));
}

/** Makes entry `entryId` the active position (a `leaf` entry). */
export async function switchBranch(path: string, entryId: string): Promise<void> {
  const { data, writer } = await openSession(path);
  try {
    if (!data.entries.some((entry) => entry.id === entryId)) {
      throw new Error(`no entry ${entryId} in the session`);
    }
    await writer.appendEntry({ kind: "leaf", targetId: entryId });
  } finally {
    await writer.close();
  }
}

/** Names the session. */
export async function setTitle(path: string, title: string): Promise<void> {
  const { writer } = await openSession(path);
  try {
    await writer.appendEntry({ kind: "title", title });
  } finally {
    await writer.close();
  }
}
