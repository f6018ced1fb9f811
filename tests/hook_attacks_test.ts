/**
 * Hooks under attack (docs/security.md, "Hooks"): what a hostile model, a
 * cloned repository or a broken hook program tries against command hooks,
 * matchers and config.yaml's hooks, driven through the real CLI.
 */

import assert from "node:assert/strict";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { toolResultsOf } from "./harness/wire.ts";

Deno.test("a tool name a model makes up cannot make a matcher backtrack: the run ends", async () => {
  const name = `${"a".repeat(40)}!`;
  await using provider = await startFakeProvider([
    { toolCalls: [{ name, arguments: {} }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url) +
      'hooks:\n  - command: [sh, -c, "exit 0"]\n    matcher: "(a+)+b"\n',
  );
  // On JavaScript's backtracking engine this name took hours, and Ctrl-C could not stop it.
  const result = await env.run(["run", "-a", "coder", "go"], { timeoutMs: 60_000 });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]).map((item) => item.content), [
    `unknown tool "${name}" (available: shell)`,
  ]);
});

Deno.test("a matcher RE2 cannot run is one error naming config.yaml and the entry", async () => {
  await using provider = await startFakeProvider([]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url) +
      'hooks:\n  - command: [sh, -c, "exit 0"]\n    matcher: "shell(?!_x)"\n',
  );
  const result = await env.run(["run", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    result.stderr,
    `rienda: ${env.configPath}: hooks[0].matcher: "shell(?!_x)" cannot run in linear time ` +
      "(no lookaround or backreferences): invalid or unsupported Perl syntax: `(?!`\n",
  );
  assert.equal(provider.requests.length, 0);
});

Deno.test("a path padded past the system's limit on one argument reaches a {path} hook as -, and the hook runs", async () => {
  // 200 KB that the write tool resolves to generated/x.ts.
  const path = `${"./".repeat(100_000)}generated/x.ts`;
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "write", arguments: { path, content: "x" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeAgent("writer", {
    description: "Writes.",
    tools: ["write"],
    hooks: [{ command: ["sh", "-c", 'printf %s "$0" > seen.txt', "{path}"] }],
  });
  const result = await env.run(["run", "-a", "writer", "-y", "go"]);
  assert.equal(result.code, 0, result.stderr);
  // Before, the hook could not start ("Argument list too long"): a notice, and the write went on.
  assert.doesNotMatch(result.stderr, /cannot start/);
  assert.equal(await Deno.readTextFile(`${env.workdir}/seen.txt`), "-");
});
