import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";

// Agent files, config.yaml and credentials.json are read at most 1 MiB (and a byte) deep:
// a device without end or a huge file is an error naming the file, not a process filling memory.

Deno.test("-f /dev/zero is an error naming the 1 MiB limit of agent files", async () => {
  await using env = await createTestEnv();
  const result = await env.run(["run", "-f", "/dev/zero", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^rienda: \/dev\/zero: the agent file is larger than 1 MiB/m);
});

Deno.test("an agent file of 2 MiB in the agents folder is a problem of rienda agents, not a crash", async () => {
  await using env = await createTestEnv();
  await env.writeAgentFile("huge", `---\ndescription: x\n---\n${"word ".repeat(420_000)}`);
  const result = await env.run(["agents"]);
  assert.match(result.stderr, /huge\.md: the agent file is larger than 1 MiB/);
  assert.match(result.stdout, /coder/);
});

Deno.test("--config /dev/zero and a 2 MiB config.yaml are errors naming the 1 MiB limit", async () => {
  await using env = await createTestEnv();
  const device = await env.run(["run", "-a", "coder", "--config", "/dev/zero", "hi"]);
  assert.equal(device.code, 1, device.stderr);
  assert.match(device.stderr, /^rienda: \/dev\/zero: the config file is larger than 1 MiB/m);
  await env.writeConfig(`# ${"x".repeat(2 * 1024 * 1024)}\n`);
  const huge = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(huge.code, 1, huge.stderr);
  assert.match(huge.stderr, /config\.yaml: the config file is larger than 1 MiB/);
});

Deno.test("a 2 MiB credentials.json is an error saying how to recover", async () => {
  await using env = await createTestEnv();
  await env.writeFile(
    "rienda-home/credentials.json",
    `{"x": "${"y".repeat(2 * 1024 * 1024)}"}`,
    0o600,
  );
  const result = await env.run(["auth", "list"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    result.stderr,
    /credentials\.json: the credentials file is larger than 1 MiB.*rienda auth login/,
  );
});
