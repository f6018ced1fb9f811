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
