import assert from "node:assert/strict";
import { parseSessionBytes, readSessionFile, SessionFileError } from "./reader.ts";

const HEADER = {
  kind: "header",
  version: 1,
  id: "01k5zzzzzzzzzzzzzzzzzzzzzz",
  createdAt: "2026-01-01T00:00:00.000Z",
  agent: "coder",
  model: "fake/m",
  workdir: "/w",
};
const T = "2026-01-01T00:00:01.000Z";

function prompt(id: string, parentId: string, text = "hi") {
  return {
    kind: "message",
    id,
    parentId,
    createdAt: T,
    role: "user",
    blocks: [{ type: "text", text }],
  };
}

function bytesOf(...lines: (string | object)[]): Uint8Array {
  const text = lines.map((line) => typeof line === "string" ? line : JSON.stringify(line)).join("");
  return new TextEncoder().encode(text);
}

function line(value: object): string {
  return `${JSON.stringify(value)}\n`;
}

function errorOf(bytes: Uint8Array): SessionFileError {
  try {
    parseSessionBytes("/h/s.jsonl", bytes);
  } catch (error) {
    if (error instanceof SessionFileError) return error;
    throw error;
  }
  throw new Error("expected a SessionFileError");
}

Deno.test("parseSessionBytes() reads the header and entries in file order", () => {
  const bytes = bytesOf(line(HEADER), line(prompt("a1", "")), line(prompt("b2", "a1")));
  const data = parseSessionBytes("/h/s.jsonl", bytes);
  assert.deepEqual(data.header, HEADER);
  assert.deepEqual(data.entries.map((entry) => entry.id), ["a1", "b2"]);
  assert.deepEqual(data.warnings, []);
  assert.deepEqual(data.end, {
    fileBytes: bytes.length,
    keptBytes: bytes.length,
    missingNewline: false,
  });
});

Deno.test("parseSessionBytes() skips a truncated last line with a warning naming the line", () => {
  const whole = bytesOf(line(HEADER), line(prompt("a1", "")));
  const torn = line(prompt("b2", "a1", "ñandú")).slice(0, 60);
  const bytes = bytesOf(line(HEADER), line(prompt("a1", "")), torn);
  const data = parseSessionBytes("/h/s.jsonl", bytes);
  assert.deepEqual(data.entries.map((entry) => entry.id), ["a1"]);
  assert.deepEqual(data.warnings, [
    "/h/s.jsonl:3: skipped a truncated last line (a write was cut short)",
  ]);
  assert.equal(data.end.keptBytes, whole.length);
  assert.equal(data.end.fileBytes, bytes.length);
});

Deno.test("parseSessionBytes() accepts a complete last line without its newline", () => {
  const bytes = bytesOf(line(HEADER), JSON.stringify(prompt("a1", "")));
  const data = parseSessionBytes("/h/s.jsonl", bytes);
  assert.equal(data.entries.length, 1);
  assert.equal(data.end.missingNewline, true);
  assert.equal(data.end.keptBytes, bytes.length);
});

Deno.test("parseSessionBytes() tolerates blank lines and CRLF line ends", () => {
  const bytes = bytesOf(
    `${JSON.stringify(HEADER)}\r\n`,
    "\n",
    `${JSON.stringify(prompt("a1", ""))}\r\n`,
    "\n",
  );
  assert.equal(parseSessionBytes("/h/s.jsonl", bytes).entries.length, 1);
});

Deno.test("parseSessionBytes() rejects a corrupt middle line naming the file and line", () => {
  const error = errorOf(
    bytesOf(line(HEADER), line(prompt("a1", "")), '{"kind":"mess\n', line(prompt("b2", "a1"))),
  );
  assert.equal(error.file, "/h/s.jsonl");
  assert.equal(error.line, 3);
  assert.match(error.message, /^\/h\/s\.jsonl:3: corrupt line: /);
});

Deno.test("parseSessionBytes() rejects a complete but invalid last line", () => {
  const error = errorOf(bytesOf(line(HEADER), line({ ...prompt("a1", ""), role: "tool" })));
  assert.equal(error.line, 2);
  assert.match(
    error.message,
    /^\/h\/s\.jsonl:2: invalid entry: role: must be "user" or "assistant"/,
  );
});

Deno.test("parseSessionBytes() rejects a missing or invalid header", () => {
  assert.match(errorOf(bytesOf("")).message, /^\/h\/s\.jsonl: the file has no header line/);
  assert.match(
    errorOf(bytesOf(line(prompt("a1", "")))).message,
    /^\/h\/s\.jsonl:1: invalid header: kind: /,
  );
  assert.match(
    errorOf(bytesOf(line({ ...HEADER, version: 2 }))).message,
    /:1: invalid header: version: unsupported session format version 2/,
  );
  assert.match(
    errorOf(bytesOf(line({ ...HEADER, agent: 1 }))).message,
    /:1: invalid header: agent: must be a string/,
  );
});

Deno.test("parseSessionBytes() rejects duplicate ids and references to no earlier entry", () => {
  const duplicate = errorOf(
    bytesOf(line(HEADER), line(prompt("a1", "")), line(prompt("a1", "a1"))),
  );
  assert.equal(duplicate.line, 3);
  assert.match(duplicate.message, /duplicate entry id "a1"/);
  const dangling = errorOf(bytesOf(line(HEADER), line(prompt("a1", "")), line(prompt("b2", "zz"))));
  assert.equal(dangling.line, 3);
  assert.match(dangling.message, /parentId "zz" references no earlier entry/);
  const forward = errorOf(bytesOf(line(HEADER), line(prompt("a1", "b2")), line(prompt("b2", ""))));
  assert.equal(forward.line, 2);
  const leaf = { kind: "leaf", id: "c3", parentId: "a1", createdAt: T, targetId: "nope" };
  assert.match(
    errorOf(bytesOf(line(HEADER), line(prompt("a1", "")), line(leaf))).message,
    /targetId "nope"/,
  );
  const compaction = {
    kind: "compaction",
    id: "c3",
    parentId: "a1",
    createdAt: T,
    summary: "",
    keptId: "x",
    tokensBefore: 1,
  };
  assert.match(
    errorOf(bytesOf(line(HEADER), line(prompt("a1", "")), line(compaction))).message,
    /keptId "x"/,
  );
});

Deno.test("parseSessionBytes() keeps unknown kinds and lets later entries follow them", () => {
  const label = { kind: "label", id: "l1", parentId: "a1", createdAt: T, text: "v2" };
  const data = parseSessionBytes(
    "/h/s.jsonl",
    bytesOf(line(HEADER), line(prompt("a1", "")), line(label), line(prompt("b2", "l1"))),
  );
  assert.deepEqual(data.entries[1], { kind: "unknown", id: "l1", parentId: "a1", raw: label });
  assert.equal(data.entries.length, 3);
});

Deno.test("readSessionFile() reads from disk and names a missing file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/s.jsonl`;
    await Deno.writeFile(path, bytesOf(line(HEADER), line(prompt("a1", ""))));
    assert.equal((await readSessionFile(path)).entries.length, 1);
    await assert.rejects(readSessionFile(`${dir}/none.jsonl`), (error: unknown) => {
      return error instanceof SessionFileError &&
        error.message === `${dir}/none.jsonl: no such session file`;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseSessionBytes() skips blank and whitespace-only lines and allows CRLF ends", () => {
  const data = parseSessionBytes(
    "/h/s.jsonl",
    bytesOf(
      line(HEADER),
      "\n",
      "   \t\n",
      `${JSON.stringify(prompt("a1", ""))}\r\n`,
      line(prompt("b2", "a1")),
    ),
  );
  assert.deepEqual(data.entries.map((entry) => entry.id), ["a1", "b2"]);
  assert.deepEqual(data.warnings, []);
});

Deno.test("parseSessionBytes() keeps fields of a newer version on message entries", () => {
  const future = { ...prompt("a1", ""), mood: "happy" };
  const data = parseSessionBytes("/h/s.jsonl", bytesOf(line(HEADER), line(future)));
  assert.deepEqual(data.entries[0], future);
});
