import assert from "node:assert/strict";
import { CaseFileError, parseCaseFile } from "./case_file.ts";

const FILE = "/p/agent-tests/review.test.yaml";

Deno.test("a case's paths are relative to its file; the cassette defaults to NAME.cassette.jsonl", () => {
  const test = parseCaseFile(
    "agent_file: ../agents/r.md\nprompt: go\nworkspace: fixtures/repo\nargs: [--max-turns, '3']\n",
    FILE,
  );
  assert.deepEqual(test.agent, { kind: "file", path: "/p/agents/r.md" });
  assert.equal(test.cassette, "/p/agent-tests/review.cassette.jsonl");
  assert.equal(test.workspace, "/p/agent-tests/fixtures/repo");
  assert.deepEqual(test.args, ["--max-turns", "3"]);
  assert.deepEqual(test.expect, {});
});

Deno.test("each matcher kind reads; files map paths to matchers", () => {
  const test = parseCaseFile(
    'prompt: go\nexpect:\n  exit: 1\n  stdout: { matches: "^ok" }\n  files:\n    a.ts: { contains: fixed }\n',
    FILE,
  );
  assert.equal(test.expect.exit, 1);
  assert.equal(test.expect.stdout?.kind, "matches");
  assert.deepEqual([...test.expect.files ?? []], [["a.ts", { kind: "contains", text: "fixed" }]]);
});

Deno.test("a bad case is one error naming the file, the line and the field", () => {
  const cases: [string, string][] = [
    [
      "prompt: go\nexpect:\n  stdout: { contains: a, equals: b }\n",
      `${FILE}:3: expect.stdout must have exactly one of contains, equals or matches`,
    ],
    [
      "prompt: go\nexpect:\n  stdout: { matches: '(' }\n",
      `${FILE}:3: expect.stdout.matches is not a regular expression`,
    ],
    [
      "agent: a\nagent_file: b.md\nprompt: go\n",
      `${FILE}:2: agent_file cannot be given with agent: keep one of them`,
    ],
    ["prompt: 3\n", `${FILE}:1: prompt must be a string, found 3`],
    [
      "prompt: go\nexpect: { exit: -1 }\n",
      `${FILE}:2: expect.exit must be an exit code (0, 1, …), found -1`,
    ],
    ["prompt: go\npromt: x\n", `${FILE}:2: promt is not a field here`],
    ["prompt: [\n", `${FILE}:`],
  ];
  for (const [text, start] of cases) {
    assert.throws(() => parseCaseFile(text, FILE), (error: unknown) => {
      assert.ok(error instanceof CaseFileError);
      assert.ok(error.message.startsWith(start), `${error.message} does not start with ${start}`);
      return true;
    });
  }
});
