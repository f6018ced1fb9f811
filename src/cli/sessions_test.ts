import assert from "node:assert/strict";
import { formatAge, formatSessionList } from "./sessions.ts";

const NOW = Date.parse("2026-03-10T12:00:00.000Z");

Deno.test("formatAge() says how long ago, in the largest whole unit", () => {
  assert.equal(formatAge(NOW - 2_000, NOW), "just now");
  assert.equal(formatAge(NOW - 42_000, NOW), "42s ago");
  assert.equal(formatAge(NOW - 3 * 60_000 - 59_000, NOW), "3m ago");
  assert.equal(formatAge(NOW - 5 * 3_600_000, NOW), "5h ago");
  assert.equal(formatAge(NOW - 12 * 86_400_000, NOW), "12d ago");
  assert.equal(formatAge(Date.parse("2025-12-31T08:00:00Z"), NOW), "2025-12-31");
  assert.equal(formatAge(NOW + 10_000, NOW), "just now");
  assert.equal(formatAge(Number.NaN, NOW), "?");
});

Deno.test("formatSessionList() aligns id, agent, model and age, and ends with the title", () => {
  const base = { path: "", createdAt: "" };
  const text = formatSessionList([
    {
      ...base,
      id: "01kb",
      agent: "coder",
      model: "fake/m",
      updatedAt: "2026-03-10T11:57:00.000Z",
      title: "fix the tests",
    },
    {
      ...base,
      id: "01ka",
      agent: "reviewer",
      model: "openai/gpt-4o",
      updatedAt: "2026-03-08T12:00:00.000Z",
      title: "",
    },
    {
      ...base,
      id: "01k9",
      agent: "",
      model: "",
      updatedAt: "2026-03-10T11:00:00.000Z",
      title: "",
      problem: "invalid header: kind: the first line must be the header",
    },
  ], NOW);
  assert.equal(
    text,
    [
      "01kb  coder     fake/m         3m ago  fix the tests",
      "01ka  reviewer  openai/gpt-4o  2d ago",
      "01k9  ?         ?              1h ago  (invalid header: kind: the first line must be the header)",
      "",
    ].join("\n"),
  );
});
