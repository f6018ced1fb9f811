import assert from "node:assert/strict";
import { lastLine } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";

Deno.test("a !!binary value in config.yaml is reported as binary data, not a mapping", async () => {
  await using env = await createTestEnv({ noConfig: true });
  const file = await env.writeConfig("default_model: !!binary aGVsbG8=\n");
  const result = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    lastLine(result.stderr),
    `rienda: ${file}: default_model: must be a string (found binary data)`,
  );
});

Deno.test("a !!binary value in agent frontmatter is reported as binary data, not a mapping", async () => {
  await using env = await createTestEnv();
  const file = await env.writeAgent("bin", "description: !!binary aGVsbG8=");
  const result = await env.run(["run", "-a", "bin", "go"]);
  assert.equal(result.code, 1, result.stderr);
  assert.ok(
    result.stderr.includes(`${file}:2: description: must be text (found binary data)`),
    result.stderr,
  );
});
