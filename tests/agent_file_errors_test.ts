import assert from "node:assert/strict";
import { assertNothingSent, lastLine } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";

/**
 * Broken agent files: each fails before any request (exit 1, no session) with
 * one `rienda:` line naming the file and matching `expect`.
 */
const BROKEN_AGENTS: { claim: string; text: string; expect: RegExp }[] = [
  {
    claim: "a key close to a rienda key",
    text: "---\ndescription: Broken.\ntols: [shell]\n---\nBody.\n",
    expect: /:3: tols: unknown key \(did you mean `tools`\?\)/,
  },
  {
    claim: "a max_turns that is not a whole number",
    text: "---\ndescription: Broken.\nmax_turns: many\n---\nBody.\n",
    expect: /max_turns/,
  },
  { claim: "no frontmatter", text: "Just a prompt, no frontmatter.\n", expect: /frontmatter/ },
  {
    claim: "an unterminated frontmatter",
    text: "---\ndescription: Broken.\nBody without a closing fence.\n",
    expect: /frontmatter/,
  },
  {
    claim: "invalid YAML",
    text: "---\ndescription: Broken.\ntools: [shell\n---\nBody.\n",
    expect: /yaml/i,
  },
  {
    claim: "a frontmatter that is not a mapping",
    text: "---\n- description\n- tools\n---\nBody.\n",
    expect: /mapping|object/,
  },
  { claim: "no description", text: "---\ntools: [shell]\n---\nBody.\n", expect: /description/ },
  {
    claim: "a blank description",
    text: '---\ndescription: "   "\n---\nBody.\n',
    expect: /description/,
  },
  {
    claim: "a malformed model reference",
    text: "---\ndescription: Broken.\nmodel: gpt 4o\n---\nBody.\n",
    expect: /model.*gpt 4o/,
  },
  {
    claim: "an unknown bare model name",
    text: "---\ndescription: Broken.\nmodel: nomodelslash\n---\nBody.\n",
    expect: /broken\.md:3: model: unknown model "nomodelslash": /,
  },
  {
    claim: "a model of an unknown provider",
    text: "---\ndescription: Broken.\nmodel: nope/some-model\n---\nBody.\n",
    expect: /broken\.md:3: model: .*unknown provider "nope"/,
  },
  {
    claim: "tools that are not a list",
    text: "---\ndescription: Broken.\ntools: 3\n---\nBody.\n",
    expect: /tools/,
  },
  {
    claim: "tools that are not names",
    text: "---\ndescription: Broken.\ntools: [[shell]]\n---\nBody.\n",
    expect: /tools/,
  },
  {
    claim: "hooks that are not a list",
    text: "---\ndescription: Broken.\nhooks: 3\n---\nBody.\n",
    expect: /hooks/,
  },
  {
    claim: "a config that is not a mapping",
    text: "---\ndescription: Broken.\nconfig: [1, 2]\n---\nBody.\n",
    expect: /config/,
  },
  {
    claim: "a tool that does not exist",
    text: "---\ndescription: Broken.\ntools: [shell, grpe]\n---\nBody.\n",
    expect: /unknown tool "grpe"/,
  },
  {
    claim: "a hook that does not exist",
    text: "---\ndescription: Broken.\nhooks: [guard]\n---\nBody.\n",
    expect: /unknown hook "guard"/,
  },
];

for (const { claim, text, expect } of BROKEN_AGENTS) {
  Deno.test(`run rejects an agent file with ${claim} before any request`, async () => {
    await using provider = await startFakeProvider([{ text: "never" }]);
    await using env = await createTestEnv({ provider });
    await env.writeAgentFile("broken", text);
    const result = await env.run(["run", "-a", "broken", "hi"]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, "");
    const last = lastLine(result.stderr);
    assert.match(last, /^rienda: /);
    assert.ok(last.includes("broken.md"), `the message does not name the file: ${last}`);
    assert.match(last, expect);
    await assertNothingSent(provider, env, result.stderr);
  });
}

Deno.test("run rejects an agent id that has no file, naming it", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-a", "ghost", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(lastLine(result.stderr), /^rienda: .*"?ghost"?/);
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("run -f rejects a file that does not exist, naming it", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const result = await env.run(["run", "-f", "missing-agent.md", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(lastLine(result.stderr), /^rienda: .*missing-agent\.md/);
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("run -f rejects a broken file anywhere with the same messages", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const path = await env.writeFile("loose/odd.md", "---\ndescription: Odd.\nmodle: a/b\n---\nB\n");
  const result = await env.run(["run", "-f", path, "hi"]);
  assert.equal(result.code, 1, result.stderr);
  const last = lastLine(result.stderr);
  assert.match(last, /^rienda: .*odd\.md/);
  assert.match(last, /modle/);
  await assertNothingSent(provider, env, result.stderr);
});
