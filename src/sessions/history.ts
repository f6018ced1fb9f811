/**
 * The active branch of a session: the chain of entries from the active
 * position back to the first one, and the llm messages it holds.
 *
 * - The active position is the last entry of the file; a `leaf` entry moves
 *   it to its `targetId` (a rewind), so the next entry starts a branch there.
 * - Unknown kinds stay in the chain but hold no messages.
 *
 * @module
 */

import type { Message } from "../llm/messages.ts";
import { type CompactionEntry, type Entry, type HeaderEntry, toMessage } from "./entries.ts";

/** The entries of a session, as `readSessionFile` returns them. */
export interface SessionEntries {
  readonly header: HeaderEntry;
  readonly entries: readonly Entry[];
}

/** What the active branch amounts to for a new request. */
export interface BranchContext {
  /** The latest compaction of the branch, or null. */
  readonly compaction: CompactionEntry | null;
  /** The messages to send: after a compaction, only those it kept and the later ones. */
  readonly messages: Message[];
  /** The entry id of each of `messages`, in the same order. */
  readonly messageIds: string[];
  /** The agent for the rest of the branch: the last `agent` switch, else the header's. */
  readonly agent: string;
  /** The agent file that goes with {@link agent} (`-f FILE`), or null for an agent by id. */
  readonly agentFile: string | null;
  /** The model for the rest of the branch: the last `model` switch, else the header's. */
  readonly model: string;
  /** The last `thinking` switch of the branch, or null. */
  readonly thinking: string | null;
  /** The calls whose tool started after the branch's last message (`tool_start` entries). */
  readonly startedCalls: ReadonlySet<string>;
}

/** The id the next appended entry follows: "" for an empty session. */
export function activeLeafId(entries: readonly Entry[]): string {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry === undefined || entry.id === null) continue;
    return entry.kind === "leaf" ? entry.targetId : entry.id;
  }
  return "";
}

/** The entries of the active branch, oldest first (`leaf` entries excluded). */
export function activeBranch(data: SessionEntries): Entry[] {
  const { entries } = data;
  // Built only when a parent is not the entry just before (a rewind): most
  // files are one straight chain and long ones must load fast.
  let index: Map<string, number> | null = null;
  const positionOf = (id: string, before: number): number | undefined => {
    if (entries[before - 1]?.id === id) return before - 1;
    if (index === null) {
      index = new Map();
      for (const [position, entry] of entries.entries()) {
        if (entry.id !== null) index.set(entry.id, position);
      }
    }
    return index.get(id);
  };
  const branch: Entry[] = [];
  let id = activeLeafId(entries);
  let bound = entries.length;
  while (id !== "") {
    const position = positionOf(id, bound);
    // References always point backwards; stop on anything else (an unknown
    // kind's parent is not checked by the reader).
    if (position === undefined || position >= bound) break;
    bound = position;
    const entry = entries[position];
    if (entry === undefined) break;
    if (entry.kind === "leaf") {
      id = entry.targetId;
      continue;
    }
    branch.push(entry);
    id = entry.kind === "unknown" ? entry.parentId ?? "" : entry.parentId;
  }
  return branch.reverse();
}

/** The messages, agent, model and reasoning level the active branch continues with. */
export function branchContext(data: SessionEntries): BranchContext {
  const branch = activeBranch(data);
  let agent = data.header.agent;
  let agentFile = data.header.agentFile ?? null;
  let model = data.header.model;
  let thinking: string | null = null;
  let compaction: CompactionEntry | null = null;
  let compactionAt = -1;
  let startedCalls = new Set<string>();
  for (const [position, entry] of branch.entries()) {
    switch (entry.kind) {
      case "message":
        startedCalls = new Set();
        break;
      case "tool_start":
        startedCalls.add(entry.callId);
        break;
      case "agent":
        agent = entry.agent;
        agentFile = entry.agentFile ?? null;
        break;
      case "model":
        model = entry.model;
        break;
      case "thinking":
        thinking = entry.thinking;
        break;
      case "compaction":
        compaction = entry;
        compactionAt = position;
        break;
      case "leaf":
      case "title":
      case "hook_denial":
      case "hook_stop":
      case "failure":
      case "unknown":
        break;
      default:
        entry satisfies never;
    }
  }
  const kept = keptMessages(branch, compaction, compactionAt);
  return {
    compaction,
    messages: kept.messages,
    messageIds: kept.ids,
    agent,
    agentFile,
    model,
    thinking,
    startedCalls,
  };
}

function keptMessages(
  branch: readonly Entry[],
  compaction: CompactionEntry | null,
  compactionAt: number,
): { messages: Message[]; ids: string[] } {
  let from = 0;
  if (compaction !== null) {
    const kept = branch.findIndex((entry) => entry.id === compaction.keptId);
    from = kept === -1 ? compactionAt + 1 : kept;
  }
  const messages: Message[] = [];
  const ids: string[] = [];
  for (let index = from; index < branch.length; index++) {
    const entry = branch[index];
    if (entry?.kind !== "message") continue;
    messages.push(toMessage(entry));
    ids.push(entry.id);
  }
  return { messages, ids };
}
