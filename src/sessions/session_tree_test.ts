import assert from "node:assert/strict";
import { nestSessions } from "./session_tree.ts";

const at = (minute: number) => `2026-03-10T11:${String(minute).padStart(2, "0")}:00.000Z`;

Deno.test("nestSessions() puts children under their parent, oldest first, grandchildren below", () => {
  const nested = nestSessions([
    { id: "b", createdAt: at(5), parentSession: "a" },
    { id: "a", createdAt: at(1) },
    { id: "c", createdAt: at(3), parentSession: "a" },
    { id: "d", createdAt: at(4), parentSession: "c" },
    { id: "z", createdAt: at(0) },
  ]);
  assert.deepEqual(nested.map((entry) => [entry.session.id, entry.depth, entry.orphan]), [
    ["a", 0, false],
    ["c", 1, false],
    ["d", 2, false],
    ["b", 1, false],
    ["z", 0, false],
  ]);
});

Deno.test("nestSessions() keeps a child of an unlisted parent in place, marked, and survives a cycle", () => {
  const nested = nestSessions([
    { id: "x", createdAt: at(2), parentSession: "gone" },
    { id: "p", createdAt: at(1), parentSession: "q" },
    { id: "q", createdAt: at(1), parentSession: "p" },
  ]);
  assert.deepEqual(nested.map((entry) => [entry.session.id, entry.depth, entry.orphan]), [
    ["x", 0, true],
    ["p", 0, true],
    ["q", 1, false],
  ]);
});
