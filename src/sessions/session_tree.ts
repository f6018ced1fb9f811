/**
 * Sessions with their subagents' sessions under them (`rienda sessions`):
 * each session, in the order given, followed by the children whose header
 * names it as their parent, oldest first, theirs below them. A child whose
 * parent is not among the sessions (removed, or another workspace's) stays
 * where it was, marked as an orphan.
 *
 * @module
 */

/** What nesting needs of a session. */
export interface TreeSession {
  readonly id: string;
  readonly createdAt: string;
  /** The session the header names as the parent (a subagent's). */
  readonly parentSession?: string | undefined;
}

/** A session in listing order, with how deep it sits. */
export interface Nested<T> {
  readonly session: T;
  /** 0 for a session of its own; 1 for a child of one, … */
  readonly depth: number;
  /** A child whose parent is not listed. */
  readonly orphan: boolean;
}

/** `sessions` with children moved under their parents (see the module doc). */
export function nestSessions<T extends TreeSession>(sessions: readonly T[]): Nested<T>[] {
  const ids = new Set(sessions.map((session) => session.id));
  const children = new Map<string, T[]>();
  for (const session of sessions) {
    const parent = session.parentSession;
    if (parent === undefined || !ids.has(parent) || parent === session.id) continue;
    children.set(parent, [...children.get(parent) ?? [], session]);
  }
  for (const list of children.values()) {
    list.sort((a, b) => a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);
  }
  const placed = new Set<string>();
  const nested: Nested<T>[] = [];
  const place = (session: T, depth: number, orphan: boolean) => {
    if (placed.has(session.id)) return; // a cycle of hand-edited headers
    placed.add(session.id);
    nested.push({ session, depth, orphan });
    for (const child of children.get(session.id) ?? []) place(child, depth + 1, false);
  };
  for (const session of sessions) {
    const parent = session.parentSession;
    const listedParent = parent !== undefined && parent !== session.id && ids.has(parent);
    if (!listedParent) place(session, 0, parent !== undefined);
  }
  // Sessions only a cycle reaches.
  for (const session of sessions) place(session, 0, true);
  return nested;
}
