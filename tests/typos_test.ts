/**
 * Typos on the command line (docs/cli.md, Typos): one `rienda: …` line with
 * the closest command, subcommand or flag, exit 2, nothing on stdout, never
 * the whole usage nor commander's internals.
 */

import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";

const CASES: { args: string[]; line: string }[] = [
  {
    args: ["rnu", "hi"],
    line: 'rienda: unknown command "rnu": did you mean run? (rienda --help lists them)',
  },
  {
    args: ["sesions"],
    line: 'rienda: unknown command "sesions": did you mean sessions? (rienda --help lists them)',
  },
  { args: ["frobnicate"], line: 'rienda: unknown command "frobnicate" (rienda --help lists them)' },
  { args: ["help", "foo"], line: 'rienda: unknown command "foo" (rienda --help lists them)' },
  {
    args: ["help", "modles"],
    line: 'rienda: unknown command "modles": did you mean models? (rienda --help lists them)',
  },
  {
    args: ["run", "--agnet", "coder", "hi"],
    line: 'rienda: unknown option "--agnet": did you mean --agent? (see rienda run --help)',
  },
  {
    args: ["run", "-a", "coder", "--no-sesion", "hi"],
    line:
      'rienda: unknown option "--no-sesion": did you mean --no-session? (see rienda run --help)',
  },
  { args: ["--agnet", "coder"], line: 'rienda: unknown option "--agnet": did you mean --agent?' },
  {
    args: ["sessions", "lst"],
    line:
      'rienda: unknown sessions command "lst": did you mean list? (rienda sessions --help lists them)',
  },
  {
    args: ["auth", "lgin", "openai"],
    line:
      'rienda: unknown auth command "lgin": did you mean login? (rienda auth --help lists them)',
  },
  {
    args: ["tools", "tset", "shell"],
    line:
      'rienda: unknown tools command "tset": did you mean test? (rienda tools --help lists them)',
  },
];

for (const { args, line } of CASES) {
  Deno.test(`rienda ${args.join(" ")} is one line naming the closest match`, async () => {
    await using env = await createTestEnv();
    const result = await env.run(args);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, `${line}\n`);
  });
}

Deno.test("rienda help run prints the help of run, with no commander internals", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["help", "run"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  assert.ok(result.stdout.includes("--agent-file"), result.stdout);
  assert.ok(!result.stdout.includes("outputHelp"));
});
