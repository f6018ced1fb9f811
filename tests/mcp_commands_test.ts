import assert from "node:assert/strict";
import { assertNothingSent, lastLine, linesOf } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { configWithMcp, everythingStdio, filesystemStdio } from "./harness/mcp_servers.ts";
import { toolNamesOf } from "./harness/wire.ts";

const BROKEN = { command: "sh", args: ["-c", "echo 'cannot open db' >&2; exit 3"] };

Deno.test("mcp list shows each server and how it starts; --check adds status and tools", async () => {
  await using env = await createTestEnv();
  const everything = await everythingStdio({ extra: { tools: { deny: ["get-env"] } } });
  await env.writeConfig(configWithMcp("http://127.0.0.1:1/v1", {
    everything,
    broken: BROKEN,
    remote: { url: "https://mcp.example.com/mcp", enabled: false },
  }));
  const plain = await env.run(["mcp"]);
  assert.equal(plain.code, 0, plain.stderr);
  const lines = linesOf(plain.stdout);
  assert.equal(lines.length, 3, plain.stdout);
  assert.match(
    lines[0]!,
    /^everything\s+stdio\s+node \S+server-everything\/dist\/index\.js stdio$/,
  );
  assert.match(lines[1]!, /^broken\s+stdio\s+sh -c 'echo '\\''cannot open db'\\'' >&2; exit 3'$/);
  assert.match(lines[2]!, /^remote\s+http\s+https:\/\/mcp\.example\.com\/mcp\s+disabled$/);

  const checked = await env.run(["mcp", "list", "--check"]);
  assert.equal(checked.code, 1, checked.stderr);
  assert.match(checked.stdout, /^everything .* ok: 11 tools in \d+(\.\d)?m?s$/m);
  assert.match(checked.stdout, /^ {2}everything__echo\s+Echoes back the input string$/m);
  assert.ok(!checked.stdout.includes("everything__get-env"), "a denied tool is listed");
  assert.match(checked.stdout, /^broken .* failed: exited with code 3: cannot open db$/m);
});

Deno.test("mcp list --check and rienda tools show the first sentence of a tool's paragraph", async () => {
  await using env = await createTestEnv();
  await env.writeConfig(configWithMcp("http://127.0.0.1:1/v1", {
    fs: await filesystemStdio(env.workdir),
  }));
  const checked = await env.run(["mcp", "list", "--check"]);
  assert.equal(checked.code, 0, checked.stderr);
  const line = linesOf(checked.stdout).find((row) => row.includes("fs__read_text_file")) ?? "";
  assert.match(
    line,
    /^ {2}fs__read_text_file\s+Read the complete contents of a file from the file system as text\.$/,
  );
  const tools = await env.run(["tools"]);
  assert.equal(tools.code, 0, tools.stderr);
  const listed = linesOf(tools.stdout).find((row) => row.startsWith("fs__read_text_file")) ?? "";
  assert.match(
    listed,
    /mcp:fs\s+Read the complete contents of a file from the file system as text\.$/,
  );
  // Each tool's row stays short (the server's own row holds its long command line).
  for (const row of linesOf(checked.stdout).filter((row) => row.startsWith("  "))) {
    assert.ok(row.length <= 140, row);
  }
});

Deno.test("mcp call runs one tool: result on stdout, error results and bad arguments exit 1", async () => {
  await using env = await createTestEnv();
  await env.writeConfig(configWithMcp("http://127.0.0.1:1/v1", {
    everything: await everythingStdio(),
    broken: BROKEN,
  }));
  const sum = await env.run([
    "mcp",
    "call",
    "everything",
    "get-sum",
    "--args",
    '{"a": 2, "b": 40}',
  ]);
  assert.deepEqual([sum.code, sum.stdout], [0, "The sum of 2 and 40 is 42.\n"], sum.stderr);
  const invalid = await env.run(["mcp", "call", "everything", "get-sum", "--args", '{"a": 2}']);
  assert.equal(invalid.code, 1);
  assert.equal(invalid.stdout, 'the tool was not executed: "b" is required\n');
  const unknownTool = await env.run(["mcp", "call", "everything", "nope"]);
  assert.equal(unknownTool.code, 1);
  assert.match(
    lastLine(unknownTool.stderr),
    /^rienda: mcp server "everything": has no tool "nope" \(available: echo, /,
  );
  const unknownServer = await env.run(["mcp", "call", "nope", "echo"]);
  assert.equal(unknownServer.code, 1);
  assert.match(
    lastLine(unknownServer.stderr),
    /^rienda: no MCP server "nope" in .*config\.yaml \(configured: broken, everything\)$/,
  );
  const failed = await env.run(["mcp", "call", "broken", "anything"]);
  assert.equal(failed.code, 1);
  assert.equal(
    lastLine(failed.stderr),
    'rienda: mcp server "broken": exited with code 3: cannot open db',
  );
  const badJson = await env.run(["mcp", "call", "everything", "echo", "--args", "{"]);
  assert.equal(badJson.code, 2);
});

Deno.test("rienda tools lists the tools of the enabled servers under their model-facing names", async () => {
  await using env = await createTestEnv();
  await env.writeConfig(configWithMcp("http://127.0.0.1:1/v1", {
    everything: await everythingStdio({ extra: { tools: { allow: ["echo", "get-sum"] } } }),
    off: { ...BROKEN, enabled: false },
  }));
  const result = await env.run(["tools"]);
  assert.equal(result.code, 0, result.stderr);
  const names = linesOf(result.stdout).map((line) => line.split(/\s+/).slice(0, 2).join(" "));
  assert.deepEqual(names, [
    "agent built-in",
    "edit built-in",
    "everything__echo mcp:everything",
    "everything__get-sum mcp:everything",
    "find built-in",
    "grep built-in",
    "http built-in",
    "ls built-in",
    "read built-in",
    "shell built-in",
    "write built-in",
  ]);
  await env.writeConfig(configWithMcp("http://127.0.0.1:1/v1", { broken: BROKEN }));
  const broken = await env.run(["tools"]);
  assert.equal(broken.code, 1);
  assert.equal(lastLine(broken.stderr), 'mcp server "broken": exited with code 3: cannot open db');
});

Deno.test("rienda doctor checks each enabled MCP server", async () => {
  await using env = await createTestEnv();
  await env.writeConfig(configWithMcp("http://127.0.0.1:1/v1", {
    everything: await everythingStdio(),
    broken: BROKEN,
    remote: { url: "http://127.0.0.1:1/mcp" },
  }));
  const result = await env.run(["doctor", "--offline"]);
  assert.equal(result.code, 1, result.stdout);
  assert.match(result.stdout, /^ok\s+mcp\s+"everything": 12 tools over stdio \(node .*\)$/m);
  assert.match(result.stdout, /^fail\s+mcp\s+"broken": exited with code 3: cannot open db$/m);
  assert.match(
    result.stdout,
    /^ok\s+mcp\s+"remote": http:\/\/127\.0\.0\.1:1\/mcp not contacted \(--offline\)$/m,
  );
});

Deno.test("a mistake in mcp_servers fails before any request, naming the file and field", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(`${defaultConfig(provider.url)}mcp_servers:\n  gh:\n    comand: npx\n`);
  const result = await env.run(["run", "-a", "coder", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    lastLine(result.stderr),
    new RegExp(
      `^rienda: ${env.configPath}: mcp_servers\\.gh\\.comand: unknown key \\(expected one of: command, `,
    ),
  );
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("an agent naming an unknown server, or a denied tool, fails before anything starts", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, {
    everything: await everythingStdio({ extra: { tools: { deny: ["get-env"] } } }),
  }));
  const typo = await env.writeAgent("typo", { description: "Typo.", tools: ["mcp:everythin"] });
  const result = await env.run(["run", "-a", "typo", "hi"]);
  assert.equal(result.code, 1);
  assert.equal(
    lastLine(result.stderr),
    `rienda: ${typo}: tools: mcp:everythin: no MCP server "everythin" in mcp_servers of ` +
      "config.yaml (configured: everything)",
  );
  const denied = await env.writeAgent("denied", {
    description: "Denied.",
    tools: ["mcp:everything/get-env"],
  });
  const refused = await env.run(["run", "-a", "denied", "hi"]);
  assert.equal(refused.code, 1);
  assert.match(
    lastLine(refused.stderr),
    new RegExp(
      `^rienda: ${denied}: tools: mcp:everything/get-env: the tool is excluded by mcp_servers\\.everything\\.tools`,
    ),
  );
  const bad = await env.writeAgent("bad", { description: "Bad.", tools: ["mcp:a b"] });
  const invalid = await env.run(["run", "-a", "bad", "hi"]);
  assert.equal(invalid.code, 1);
  assert.match(
    lastLine(invalid.stderr),
    /tools\[0\]: invalid MCP tool reference "mcp:a b" \(expected mcp:SERVER, mcp:SERVER\/TOOL/,
  );
  assert.ok(invalid.stderr.includes(bad), invalid.stderr);
  await assertNothingSent(provider, env, invalid.stderr);
});

Deno.test("two tools with one model-facing name are an error naming both", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, { everything: await everythingStdio() }));
  await env.writeTool(
    "everything__echo",
    `module.exports = { description: "Mine.", parameters: { type: "object" }, execute: function () { return "mine"; } };\n`,
  );
  const agent = await env.writeAgent("clash", {
    description: "Clash.",
    tools: ["everything__echo", "mcp:everything"],
  });
  const result = await env.run(["run", "-a", "clash", "hi"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    lastLine(result.stderr),
    `rienda: ${agent}: tools: two tools are named "everything__echo": tool "everything__echo" ` +
      "and mcp:everything/echo (rename the server in config.yaml, or drop one from the agent)",
  );
  await assertNothingSent(provider, env, result.stderr);
});

Deno.test("a disabled server is a diagnostic, and a repeated entry offers each tool once", async () => {
  await using provider = await startFakeProvider([{ text: "fine" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, {
    everything: await everythingStdio({ extra: { tools: { allow: ["echo", "get-sum"] } } }),
    off: { ...BROKEN, enabled: false },
  }));
  await env.writeAgent("both", {
    description: "Both.",
    tools: ["mcp:everything/echo", "mcp:off", "mcp:everything"],
  });
  const result = await env.run(["run", "-a", "both", "hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(
    result.stderr.includes(
      'mcp server "off": disabled (enabled: false in config.yaml), its tools are not offered',
    ),
    result.stderr,
  );
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["everything__echo", "everything__get-sum"]);
});

/** A stdio MCP server (node) whose one page of tools/list holds `count` tools. */
const MANY_TOOLS_SERVER = `
const count = Number(process.argv[2]);
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf("\\n"); end !== -1; end = buffer.indexOf("\\n")) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id === undefined) continue;
    let result = {};
    if (message.method === "initialize") {
      result = {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "many", version: "1" },
      };
    } else if (message.method === "tools/list") {
      const tools = [];
      for (let i = 0; i < count; i++) tools.push({ name: "t" + i, inputSchema: { type: "object" } });
      result = { tools };
    }
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\\n");
  }
});
`;

Deno.test("mcp list --check lists a server of 140,000 tools in one page", async () => {
  await using env = await createTestEnv();
  const script = await env.writeFile("many.js", MANY_TOOLS_SERVER);
  await env.writeConfig(configWithMcp("http://127.0.0.1:1/v1", {
    many: { command: "node", args: [script, "140000"] },
  }));
  const checked = await env.run(["mcp", "list", "--check"]);
  assert.equal(checked.code, 0, checked.stderr);
  assert.match(checked.stdout, /^many .* ok: 140000 tools in /m);
  assert.match(checked.stdout, /^ {2}many__t139999$/m);
});
