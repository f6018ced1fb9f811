/**
 * The file tools and rienda's own files (docs/security.md, "What the file
 * tools refuse"): `read`, `grep`, `edit` and `write` touch the home's
 * `credentials.json`, the `config.yaml` in use, `sessions/` and `store/` only
 * with approval, however the path is spelled.
 */

import assert from "node:assert/strict";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { parseJsonLines } from "./harness/json.ts";
import { runToolCalls } from "./harness/tool_run.ts";

const STORED = "sk-stored-Zq81xWc0Rk27LmPd4Hv9BnT3";

Deno.test("read of the home's config.yaml and credentials.json is refused without approval, naming -y", async () => {
  await using env = await createTestEnv();
  await env.writeFile(
    "rienda-home/credentials.json",
    JSON.stringify({ fake: { api_key: STORED } }),
  );
  await env.writeFile("rienda-home/store/notes.json", '{"a":1}\n');
  const results = await runToolCalls(env, [
    { name: "read", arguments: { path: `${env.home}/config.yaml` } },
    { name: "read", arguments: { path: `${env.home}/credentials.json` } },
    { name: "read", arguments: { path: `${env.home}/store/notes.json` } },
    { name: "grep", arguments: { pattern: "api_key", path: `${env.home}/config.yaml` } },
    { name: "grep", arguments: { pattern: "api_key", path: `${env.home}/sessions` } },
    {
      name: "edit",
      arguments: { path: `${env.home}/config.yaml`, old_string: "a", new_string: "b" },
    },
    { name: "write", arguments: { path: `${env.home}/credentials.json`, content: "{}" } },
  ]);
  const verbs = ["read", "read", "read", "search", "search", "edit", "write"];
  results.forEach((result, index) => {
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, new RegExp(`^refused to ${verbs[index]} /.*: it is rienda's `));
    assert.match(result.text, /run rienda with -y \(--auto-approve\) to allow them/);
    assert.ok(!result.text.includes(STORED.slice(3, -4)), result.text);
  });
  assert.match(results[1]?.text ?? "", /credentials file \(API keys\)/);
  // The home itself is searched, its own files left out.
  const [home] = await runToolCalls(env, [
    { name: "grep", arguments: { pattern: "api_key", path: env.home } },
  ]);
  assert.equal(home?.isError, false);
  assert.match(
    home?.text ?? "",
    /^no matches\n\[not searched, rienda's own files: \/.*credentials\.json, /,
  );
  assert.equal(
    await Deno.readTextFile(`${env.home}/credentials.json`),
    JSON.stringify({ fake: { api_key: STORED } }),
  );
});

Deno.test("a symbolic link, a hard link or a sessions folder reached from the workspace is refused too", async () => {
  await using env = await createTestEnv();
  const credentials = await env.writeFile(
    "rienda-home/credentials.json",
    JSON.stringify({ fake: { api_key: STORED } }),
  );
  await env.writeFile("rienda-home/sessions/x.jsonl", `{"key":"${STORED}"}\n`);
  await Deno.symlink(credentials, `${env.workdir}/keys.json`);
  await Deno.link(credentials, `${env.workdir}/hard.json`);
  await Deno.symlink(`${env.home}/sessions`, `${env.workdir}/past`);
  const results = await runToolCalls(env, [
    { name: "read", arguments: { path: "keys.json" } },
    { name: "read", arguments: { path: "hard.json" } },
    { name: "read", arguments: { path: "past/x.jsonl" } },
    { name: "grep", arguments: { pattern: "sk-", path: "past" } },
    { name: "grep", arguments: { pattern: "sk-", path: "hard.json" } },
  ]);
  for (const result of results) {
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /^refused to (read|search) .*: it is rienda's /);
  }
});

Deno.test("with -y the home's files are read (the keys in them masked)", async () => {
  await using env = await createTestEnv();
  const [config] = await runToolCalls(env, [
    { name: "read", arguments: { path: `${env.home}/config.yaml` } },
  ], { flags: ["-y"] });
  assert.equal(config?.isError, false, config?.text);
  assert.match(config?.text ?? "", /providers:/);
});

Deno.test("grep of a workspace holding the rienda home leaves its own files out and says so", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "grep", arguments: { pattern: "needle" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const home = `${env.workdir}/.rienda`;
  await env.writeFile("workspace/.rienda/config.yaml", defaultConfig(provider.url));
  await env.writeFile(
    "workspace/.rienda/agents/files.md",
    '---\ndescription: "Greps."\ntools: ["grep"]\n---\nYou grep.\n',
  );
  await env.writeFile("workspace/.rienda/sessions/old.jsonl", '{"text":"needle in a session"}\n');
  await env.writeFile("workspace/.rienda/store/s.json", '"needle in the store"\n');
  await env.writeFile("workspace/.rienda/credentials.json", '{"needle":{"api_key":"x"}}\n');
  await env.writeFile("workspace/.rienda/tools/t/index.js", "// needle in a tool\n");
  await env.writeFile("workspace/src.txt", "a needle\n");
  const result = await env.run(["run", "-a", "files", "--output", "stream-json", "go"], {
    env: { RIENDA_HOME: home },
  });
  assert.equal(result.code, 0, result.stderr);
  const grep = parseJsonLines(result.stdout, "stdout").find((event) =>
    event.type === "tool_result"
  );
  const text = String(grep?.text);
  assert.match(text, /^\.rienda\/tools\/t\/index\.js:1:\/\/ needle in a tool$/m);
  assert.match(text, /^src\.txt:1:a needle$/m);
  assert.ok(!/needle in (a session|the store)|"needle"/.test(text), text);
  assert.match(
    text,
    /\[not searched, rienda's own files: \.rienda\/credentials\.json, \.rienda\/config\.yaml, \.rienda\/sessions, \.rienda\/store \(search one by name to ask the user\)\]/,
  );
});
