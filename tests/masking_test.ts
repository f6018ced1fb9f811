/**
 * Keys never reach the model, the session or the terminal (docs/security.md,
 * "What is masked"): every tool result — built-in, user and MCP tools — is
 * masked before the hooks, the session and the model see it, and everything
 * printed is masked too, whichever command prints it.
 */

import assert from "node:assert/strict";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";
import { parseJsonLines } from "./harness/json.ts";
import { configWithMcp, filesystemStdio } from "./harness/mcp_servers.ts";
import type { RiendaResult } from "./harness/rienda.ts";

/** The key of config.yaml (`api_key`). */
const CONFIG_KEY = "sk-config-Qv7Lm2Xc9Rt4Wb8Np3Ks6Hd1";
/** A key of credentials.json for a provider the run does not use. */
const STORED_KEY = "sk-ant-api03-Zq81xWc0Rk27LmPd4Hv9BnT3yU6";
/** The built-in variable of a provider the run does not use. */
const OPENAI_KEY = "sk-proj-Jd5Kf8Lg2Mh6Nj9Pk3Ql7Rm1Sn4";
/** A token in a secret-named variable rienda has no use for. */
const GITHUB_TOKEN = "ghp_Tb6Yc1Ud8Ve3Wf5Xg0Yh2Zi7Aj4Bk9Cl3Dm";

const KEYS = [CONFIG_KEY, STORED_KEY, OPENAI_KEY, GITHUB_TOKEN];

/** Fails when 8 characters of a key past its first 3 (what a mask shows) appear in `text`. */
function assertNoKey(text: string, where: string): void {
  for (const key of KEYS) {
    for (let at = 3; at + 8 <= key.length - 4; at++) {
      const piece = key.slice(at, at + 8);
      assert.ok(!text.includes(piece), `${where} holds "${piece}" of ${key}:\n${text}`);
    }
  }
}

async function keyedEnv(provider: { url: string }): Promise<TestEnv> {
  const env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url).replace("api_key: test-key", `api_key: ${CONFIG_KEY}`),
  );
  await env.writeFile(
    "rienda-home/credentials.json",
    JSON.stringify({ anthropic: { api_key: STORED_KEY } }),
    0o600,
  );
  return env;
}

const KEY_ENV = { OPENAI_API_KEY: OPENAI_KEY, GITHUB_TOKEN };

/** Everything a run left: stdout, stderr, the requests the model got, the session files. */
async function everything(
  env: TestEnv,
  result: RiendaResult,
  provider: { requests: readonly { rawBody: string }[] },
) {
  const sessions = await Promise.all(
    (await env.sessionFiles()).map((file) => Deno.readTextFile(file)),
  );
  return {
    printed: result.stdout + result.stderr,
    model: provider.requests.map((request) => request.rawBody).join("\n"),
    sessions: sessions.join("\n"),
  };
}

function assertNoKeyAnywhere(left: Awaited<ReturnType<typeof everything>>): void {
  assertNoKey(left.printed, "the output");
  assertNoKey(left.model, "a request to the model");
  assertNoKey(left.sessions, "the session");
}

/** Runs the agent `coder` (tools: shell) through the calls of `turns`, with the keys in place. */
async function runShell(commands: readonly string[], flags: readonly string[] = []) {
  const turns: Turn[] = [
    { toolCalls: commands.map((command) => ({ name: "shell", arguments: { command } })) },
    { text: "done" },
  ];
  await using provider = await startFakeProvider(turns);
  await using env = await keyedEnv(provider);
  const result = await env.run(["run", "-a", "coder", "--output", "stream-json", ...flags, "go"], {
    env: KEY_ENV,
  });
  assert.equal(result.code, 0, result.stderr);
  const results = parseJsonLines(result.stdout, "stdout")
    .filter((event) => event.type === "tool_result").map((event) => String(event.text));
  return { results, left: await everything(env, result, provider) };
}

Deno.test("shell: cat of credentials.json and config.yaml, echo of key variables reach nobody in clear", async () => {
  const { results, left } = await runShell([
    'cat "$RIENDA_HOME/credentials.json"',
    'cat "$RIENDA_HOME/config.yaml"',
    'echo "$OPENAI_API_KEY $GITHUB_TOKEN"',
    "env",
  ]);
  assertNoKeyAnywhere(left);
  assert.equal(results[0], '{"anthropic":{"api_key":"sk-…3yU6"}}');
  assert.match(results[1] ?? "", /api_key: sk-…6Hd1\n/);
  assert.equal(results[2], "sk-…1Sn4 ghp…l3Dm");
});

Deno.test("shell: a key in base64, wrapped, upper-cased, cut by colour or by line breaks is masked", async () => {
  const { left } = await runShell([
    'base64 "$RIENDA_HOME/credentials.json"',
    'printf "%s" "$OPENAI_API_KEY" | base64 -w 0',
    'printf "Basic %s\\n" "$(printf "me:%s" "$GITHUB_TOKEN" | base64 -w 0)"',
    "printf '%s\\n' \"$OPENAI_API_KEY\" | tr a-z A-Z",
    // Coloured halves: whatever strips or keeps the escape sequence, the key is masked.
    'k=$OPENAI_API_KEY; printf \'%s\\033[31m%s\\033[0m\\n\' "$(printf %s "$k" | cut -c1-12)" ' +
    '"$(printf %s "$k" | cut -c13-)"',
    'printf %s "$OPENAI_API_KEY" | fold -w 10',
  ]);
  assertNoKeyAnywhere(left);
  for (const key of KEYS) {
    const base64 = btoa(key);
    assert.ok(!left.model.includes(base64.slice(4, 20)), `base64 of ${key} reached the model`);
  }
});

Deno.test("read of config.yaml with -y shows its key masked", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "read", arguments: { path: "../rienda-home/config.yaml" } }] },
    { text: "done" },
  ]);
  await using env = await keyedEnv(provider);
  await env.writeAgent("files", { description: "Reads.", tools: ["read"] });
  const result = await env.run(["run", "-a", "files", "-y", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const left = await everything(env, result, provider);
  assertNoKeyAnywhere(left);
  assert.match(left.model, /api_key: sk-…/);
});

Deno.test("a --config file's keys are masked though the run uses none of them", async () => {
  // Words, not a key's shape: only knowing the --config file masks it.
  const otherKey = "correct-horse-battery-staple-fence";
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "shell", arguments: { command: 'cat "$CFG"' } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  const config = defaultConfig(provider.url) +
    `  other:\n    protocol: openai_chat_completions\n    base_url: ${provider.url}\n` +
    `    api_key: ${otherKey}\n`;
  const file = await env.writeFile("elsewhere/config.yaml", config);
  const result = await env.run(
    ["run", "--config", file, "-a", "coder", "--output", "stream-json", "go"],
    { env: { CFG: file } },
  );
  assert.equal(result.code, 0, result.stderr);
  const left = await everything(env, result, provider);
  for (const [where, text] of Object.entries(left)) {
    assert.ok(!text.includes(otherKey), `${where} holds the key:\n${text}`);
  }
  assert.match(left.model, /api_key: cor…ence/);
});

Deno.test("a user tool returning keys, known and key-shaped, hands the model masks", async () => {
  const shaped = "xoxb-123456789012-1234567890123-Zq81xWc0Rk27LmPd4Hv9BnT3";
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "leak", arguments: {} }] },
    { text: "done" },
  ]);
  await using env = await keyedEnv(provider);
  await env.writeTool(
    "leak",
    `export default {
  description: "Returns keys.",
  parameters: { type: "object", properties: {} },
  execute: () => ${JSON.stringify(`stored ${STORED_KEY} config ${CONFIG_KEY} slack ${shaped}`)},
};\n`,
  );
  await env.writeAgent("leaky", { description: "Leaks.", tools: ["leak"] });
  const result = await env.run(["run", "-a", "leaky", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const left = await everything(env, result, provider);
  assertNoKeyAnywhere(left);
  assert.ok(!left.model.includes(shaped.slice(20)), left.model);
  assert.ok(left.model.includes("slack xox…"), left.model);
});

Deno.test("an MCP server that returns a file holding keys hands the model masks", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "fs__read_text_file", arguments: { path: "notes/.env" } }] },
    { text: "done" },
  ]);
  await using env = await keyedEnv(provider);
  await env.writeFile(
    "workspace/notes/.env",
    `ANTHROPIC_API_KEY=${STORED_KEY}\nGH=${GITHUB_TOKEN}\nDB_PASSWORD=hunter22hunter\n`,
  );
  await env.writeConfig(
    configWithMcp(provider.url, { fs: await filesystemStdio(env.workdir) })
      .replace("api_key: test-key", `api_key: ${CONFIG_KEY}`),
  );
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:fs"] });
  const result = await env.run(["run", "-a", "mcp", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const left = await everything(env, result, provider);
  assertNoKeyAnywhere(left);
  assert.ok(!left.model.includes("hunter22hunter"), left.model);
  assert.match(left.model, /DB_PASSWORD=\[redacted\]/);
});

Deno.test("rienda sessions show and tools test print a session's and a tool's keys masked", async () => {
  // The model itself wrote a key into the session (it is stored as the model sent it).
  await using provider = await startFakeProvider([{ text: `the key is ${STORED_KEY}` }]);
  await using env = await keyedEnv(provider);
  const run = await env.run(["run", "-a", "coder", "go"]);
  assert.equal(run.code, 0, run.stderr);
  const [file] = await env.sessionFiles();
  assert.ok(
    (await Deno.readTextFile(file ?? "")).includes(STORED_KEY),
    "the answer is stored as is",
  );
  const id = /([^/]+)\.jsonl$/.exec(file ?? "")?.[1] ?? "";
  const shown = await env.run(["sessions", "show", id]);
  assert.equal(shown.code, 0, shown.stderr);
  assertNoKey(shown.stdout + shown.stderr, "sessions show");
  assert.ok(shown.stdout.includes("the key is sk-…3yU6"), shown.stdout);
  const tested = await env.run([
    "tools",
    "test",
    "shell",
    "--args",
    JSON.stringify({ command: 'cat "$RIENDA_HOME/credentials.json"; echo "$GITHUB_TOKEN"' }),
  ], { env: KEY_ENV });
  assert.equal(tested.code, 0, tested.stderr);
  assertNoKey(tested.stdout + tested.stderr, "tools test");
});

Deno.test("a provider that echoes a key's first part or its base64 is printed masked", async () => {
  for (const echoed of [`${CONFIG_KEY.slice(0, 20)}************`, btoa(`Bearer ${CONFIG_KEY}`)]) {
    await using provider = await startFakeProvider([
      { status: 401, errorMessage: `Incorrect API key provided: ${echoed}` },
    ]);
    await using env = await keyedEnv(provider);
    const result = await env.run(["run", "-a", "coder", "go"]);
    assert.equal(result.code, 1, result.stderr);
    assertNoKey(result.stdout + result.stderr, "the error");
    assert.ok(!result.stderr.includes(echoed.slice(8, 20)), result.stderr);
  }
});

/** A token passed in an MCP server's args, env or URL, under names that do not say so. */
const MCP_TOKEN = "Wq4Er7Ty1Ui9Op3As6Df2Gh8";

Deno.test("MCP secrets in args, env, headers and URLs are masked by mcp list, doctor and start-up errors", async () => {
  await using env = await createTestEnv();
  const servers = {
    local: {
      command: "rienda-no-such-command",
      args: ["serve", "--auth", MCP_TOKEN, `--api-key=${MCP_TOKEN}x`, GITHUB_TOKEN],
      env: { SETTING: `${MCP_TOKEN}y` },
    },
    remote: {
      url: `http://me:${MCP_TOKEN}z@127.0.0.1:9/mcp?access_token=${MCP_TOKEN}w`,
      headers: { "X-Custom": `${MCP_TOKEN}v` },
    },
  };
  await env.writeConfig(
    `${defaultConfig("http://127.0.0.1:9/v1")}mcp_servers: ${JSON.stringify(servers)}\n`,
  );
  for (const args of [["mcp", "list"], ["mcp", "list", "--check"], ["doctor"]]) {
    const result = await env.run(args, { env: KEY_ENV });
    const printed = result.stdout + result.stderr;
    assert.ok(printed.includes("local"), `${args.join(" ")}:\n${printed}`);
    assert.ok(
      !printed.includes(MCP_TOKEN.slice(3, 15)),
      `${args.join(" ")} printed a token:\n${printed}`,
    );
    assertNoKey(printed, args.join(" "));
  }
});

Deno.test("an MCP server's script path is printed whole, digits and long words in it or not", async () => {
  await using env = await createTestEnv();
  const script = "/tmp/build2/node_modules/@modelcontextprotocol/server-everything/dist/index.js";
  const servers = {
    local: { command: "node", args: [script, "stdio"], env: { NODE_PATH: "/opt/node22/lib" } },
  };
  await env.writeConfig(
    `${defaultConfig("http://127.0.0.1:9/v1")}mcp_servers: ${JSON.stringify(servers)}\n`,
  );
  const result = await env.run(["mcp", "list"], { env: KEY_ENV });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(result.stdout.includes(`node ${script} stdio`), result.stdout);
});

Deno.test("ctx.config names MCP servers and their transports only", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "peek", arguments: {} }] },
    { text: "done" },
  ]);
  await using env = await keyedEnv(provider);
  const servers = {
    local: { command: "node", args: ["s.js", "--auth", MCP_TOKEN], env: { SETTING: MCP_TOKEN } },
    remote: { url: "http://127.0.0.1:9/mcp", headers: { "X-Custom": MCP_TOKEN } },
  };
  await env.writeConfig(
    `${defaultConfig(provider.url)}mcp_servers: ${JSON.stringify(servers)}\n`,
  );
  // Reversed, so no masking of the result could hide what the extension was handed.
  await env.writeTool(
    "peek",
    `module.exports = {
  description: "Shows the MCP servers.",
  parameters: { type: "object" },
  capabilities: {},
  execute: function (ctx) { return JSON.stringify(ctx.config.mcp_servers).split("").reverse().join(""); },
};
`,
  );
  await env.writeAgent("peeking", { description: "Peeks.", tools: ["peek"] });
  const result = await env.run(["run", "-a", "peeking", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const reversed = parseJsonLines(result.stdout, "stdout")
    .find((event) => event.type === "tool_result")?.text;
  const handed = JSON.parse(String(reversed).split("").reverse().join(""));
  assert.deepEqual(handed, { local: { transport: "stdio" }, remote: { transport: "http" } });
});

Deno.test("instructions files reach the model masked, and never as rienda's own files", async () => {
  await using provider = await startFakeProvider([{ text: "ok" }]);
  await using env = await keyedEnv(provider);
  // rienda started at the root of a repository that holds its home (as in ~ with ~/.rienda).
  await Deno.mkdir(`${env.root}/.git`);
  await Deno.symlink("rienda-home/credentials.json", `${env.root}/AGENTS.md`);
  await Deno.symlink("rienda-home/config.yaml", `${env.root}/CLAUDE.md`);
  // A link inside the project, to the .env the user keeps beside the code.
  await Deno.writeTextFile(
    `${env.workdir}/.env`,
    `GITHUB_TOKEN=${GITHUB_TOKEN}\nOPENAI=${OPENAI_KEY}\n`,
  );
  await Deno.symlink(".env", `${env.workdir}/AGENTS.md`);
  await env.writeFile(
    "workspace/.agents/skills/deploy/SKILL.md",
    `---\nname: deploy\ndescription: Deploys with the key ${OPENAI_KEY}.\n---\nSteps.\n`,
  );
  const result = await env.run(["run", "go"], { env: KEY_ENV });
  assert.equal(result.code, 0, result.stderr);
  assertNoKeyAnywhere(await everything(env, result, provider));
  const system = provider.requests[0]?.rawBody ?? "";
  assert.match(system, /GITHUB_TOKEN=ghp…l3Dm/);
  assert.match(system, /Deploys with the key sk-…1Sn4\./);
  assert.match(
    result.stderr,
    new RegExp(
      `instructions: ${env.root}/AGENTS\\.md is rienda's credentials file \\(API keys\\), so it was left out`,
    ),
  );
  assert.match(
    result.stderr,
    /CLAUDE\.md is rienda's config file \(it may hold API keys\), so it was left out/,
  );
});
