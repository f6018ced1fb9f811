import assert from "node:assert/strict";
import { assertNothingSent, lastLine } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { CHECKOUT_DIR, TEST_BUNDLE } from "./harness/rienda.ts";

for (const args of [["--help"], ["-h"], ["help"]]) {
  Deno.test(`rienda ${args.join(" ")} prints the usage on stdout and exits 0`, async () => {
    await using env = await createTestEnv();
    const result = await env.run(args);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /\brun\b/);
    assert.ok(result.stdout.endsWith("\n"));
  });
}

for (const args of [["--version"], ["-v"], ["-V"], ["version"]]) {
  Deno.test(`rienda ${args.join(" ")} prints "rienda 0.1.0" on stdout and exits 0`, async () => {
    await using env = await createTestEnv();
    const result = await env.run(args);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /^rienda 0\.1\.0\b.*\n$/);
  });
}

Deno.test({
  name: "rienda --version from a checkout names the commit git has checked out",
  ignore: TEST_BUNDLE !== undefined,
}, async () => {
  await using env = await createTestEnv();
  const head = await env.exec("git", ["-C", CHECKOUT_DIR, "rev-parse", "HEAD"]);
  assert.equal(head.code, 0, head.stderr);
  const result = await env.run(["--version"]);
  assert.equal(result.stdout, `rienda 0.1.0 (${head.stdout.slice(0, 7)})\n`);
});

Deno.test("rienda run --help prints the run flags on stdout and exits 0", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["run", "--help"]);
  assert.equal(result.code, 0, result.stderr);
  for (
    const flag of ["--agent", "--agent-file", "--prompt", "--model", "--max-turns", "--no-session"]
  ) {
    assert.ok(result.stdout.includes(flag), `run --help does not mention ${flag}`);
  }
});

Deno.test("rienda --help lists the chat's flags with what each does", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["--help"]);
  assert.equal(result.code, 0, result.stderr);
  const section = /\nChat options \(rienda without a command\):\n((?: {2}.*\n)+)/.exec(
    result.stdout,
  )?.[1];
  assert.ok(section !== undefined, result.stdout);
  const flags = section.split("\n").filter((line) => line !== "").map((line) =>
    /^ {2}(\S.*?) {2,}\S/.exec(line)?.[1]
  );
  // The chat may grow flags: these are the ones it has always had.
  const expected = [
    "-a, --agent <id>",
    "-f, --agent-file <path>",
    "-m, --model <provider/model>",
    "-s, --session <id>",
    "-c, --continue",
    "-C, --workdir <dir>",
    "--config <path>",
    "-y, --auto-approve",
    "--thinking <level>",
    "--record <file>",
  ];
  for (const flag of expected) assert.ok(flags.includes(flag), `${flag} not in:\n${section}`);
});

/** Usage errors: exit 2, `rienda: …` last on stderr, nothing on stdout, nothing sent. */
const USAGE_ERRORS: { claim: string; args: string[]; stdin?: string; expect: RegExp }[] = [
  {
    claim: "an unknown command",
    args: ["x"],
    expect: /^rienda: unknown command "x" \(rienda --help lists them\)$/,
  },
  { claim: "an unknown flag", args: ["run", "-a", "coder", "--bogus", "hi"], expect: /--bogus/ },
  {
    claim: "run without a prompt and an empty stdin",
    args: ["run", "-a", "coder"],
    expect: /prompt/,
  },
  {
    claim: "run with an empty prompt from stdin",
    args: ["run", "-a", "coder", "-p", "-"],
    stdin: "",
    expect: /prompt/,
  },
  {
    claim: "run with both -a and -f",
    args: ["run", "-a", "coder", "-f", "coder.md", "hi"],
    expect: /-a|--agent|-f|--agent-file/,
  },
  {
    claim: "run with a --max-turns that is not a number",
    args: ["run", "-a", "coder", "--max-turns", "many", "hi"],
    expect: /max-turns/,
  },
];

for (const { claim, args, stdin, expect } of USAGE_ERRORS) {
  Deno.test(`rienda exits 2 with a "rienda:" line for ${claim}`, async () => {
    await using provider = await startFakeProvider([{ text: "never" }]);
    await using env = await createTestEnv({ provider });
    const result = await env.run(args, stdin === undefined ? {} : { stdin });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    const last = lastLine(result.stderr);
    assert.match(last, /^rienda: /);
    assert.match(last, expect);
    await assertNothingSent(provider, env, result.stderr);
  });
}
