import assert from "node:assert/strict";
import { lastLine } from "./harness/assertions.ts";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at, parseJsonLines } from "./harness/json.ts";
import {
  configWithMcp,
  everythingStdio,
  pollUntil,
  processGone,
  readPid,
} from "./harness/mcp_servers.ts";
import { toolNamesOf, toolResultsOf } from "./harness/wire.ts";

/** A call that takes `seconds` (server-everything reports progress each step). */
function longCall(seconds: number) {
  return {
    name: "everything__trigger-long-running-operation",
    arguments: { duration: seconds, steps: seconds },
  };
}

Deno.test("a server that fails to start is a diagnostic, and its named tool an error result", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "broken__lookup", arguments: {} }] },
    { text: "carried on" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, {
    broken: { command: "sh", args: ["-c", "echo 'boom: no such database' >&2; exit 1"] },
  }));
  await env.writeAgent("mcp", {
    description: "Uses MCP.",
    tools: ["shell", "mcp:broken/lookup"],
  });
  const result = await env.run(["run", "-a", "mcp", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "carried on\n");
  const diagnostic = 'mcp server "broken": exited with code 1: boom: no such database';
  assert.ok(result.stderr.includes(diagnostic), result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [{ id: "call_1", content: diagnostic }]);
});

Deno.test("a server that never answers times out at start-up, and its process is gone", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "silent__anything", arguments: {} }] },
    { text: "carried on" },
  ]);
  await using env = await createTestEnv({ provider });
  const pidFile = `${env.root}/silent.pid`;
  await env.writeConfig(configWithMcp(provider.url, {
    silent: {
      command: "sh",
      args: ["-c", `echo $$ > '${pidFile}'; exec sleep 600`],
      timeout_ms: 1000,
    },
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:silent/anything"] });
  const result = await env.run(["run", "-a", "mcp", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /mcp server "silent": did not start within 1s/);
  assert.match(String(toolResultsOf(provider.requests[1])[0]?.content), /did not start within 1s/);
  assert.ok(await processGone(await readPid(pidFile)), "the silent server outlived the run");
});

Deno.test("a call past timeout_ms is an error result and the run goes on", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [longCall(60), { name: "everything__echo", arguments: { message: "after" } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, {
    everything: await everythingStdio({ extra: { timeout_ms: 4000 } }),
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:everything"] });
  const result = await env.run(["run", "-a", "mcp", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    {
      id: "call_1",
      content: 'mcp server "everything": trigger-long-running-operation did not answer ' +
        "within 4s (timeout_ms); the call was cancelled",
    },
    { id: "call_2", content: "Echo: after" },
  ]);
});

Deno.test("a server that dies mid-call: an error result naming the signal, a notice, then error results", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [longCall(30)] },
    { toolCalls: [{ name: "everything__echo", arguments: { message: "anyone?" } }] },
    { text: "gave up" },
  ]);
  await using env = await createTestEnv({ provider });
  const pidFile = `${env.root}/everything.pid`;
  await env.writeConfig(configWithMcp(provider.url, {
    everything: await everythingStdio({ pidFile }),
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:everything"] });
  await using process = await env.start(["run", "-a", "mcp", "--output", "stream-json", "go"]);
  const pid = await readPid(pidFile);
  await pollUntil(
    () => Promise.resolve(process.stdoutText().includes('"tool_output"')),
    "progress",
  );
  Deno.kill(pid, "SIGKILL");
  const result = await process.wait();
  assert.equal(result.code, 0, result.stderr);
  const events = parseJsonLines(result.stdout, "stdout");
  const results = events.filter((event) => event.type === "tool_result");
  const died = 'mcp server "everything": was killed by SIGKILL';
  assert.equal(at(results[0], "text"), died);
  assert.equal(at(results[0], "isError"), true);
  assert.equal(
    at(results[1], "text"),
    `mcp server "everything": not running: was killed by SIGKILL`,
  );
  const notices = events.filter((event) => event.type === "notice").map((event) => event.text);
  assert.deepEqual(notices, [died]);
  assert.equal(at(events.at(-1), "reason"), "end_turn");
});

Deno.test("SIGINT during an MCP call exits 130 and the server's process group is gone", async () => {
  await using provider = await startFakeProvider([{ toolCalls: [longCall(30)] }, {
    text: "never",
  }]);
  await using env = await createTestEnv({ provider });
  const pidFile = `${env.root}/everything.pid`;
  await env.writeConfig(configWithMcp(provider.url, {
    everything: await everythingStdio({ pidFile }),
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:everything"] });
  await using process = await env.start(["run", "-a", "mcp", "go"]);
  const pid = await readPid(pidFile);
  await process.waitForStderr("progress 1/30");
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - signalled < 2_000, "the interrupt took too long");
  assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
  assert.equal(provider.requests.length, 1);
  assert.ok(await processGone(pid), "the server outlived the run");
});

Deno.test("a beforeToolExecute hook refuses one MCP call by its model-facing name", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "everything__echo", arguments: { message: "allowed" } },
        { name: "everything__get-sum", arguments: { a: 1, b: 2 } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, { everything: await everythingStdio() }));
  await env.writeHook(
    "no-sums",
    `module.exports = {
  beforeToolExecute: function (ctx, call) {
    if (call.name === "everything__get-sum") return { allow: false, reason: "no sums today" };
  },
  afterToolExecute: function (ctx, call, result) {
    if (call.name === "everything__echo") return { text: result.text + " (seen by the hook)" };
  },
};
`,
  );
  await env.writeAgent("mcp", {
    description: "Uses MCP.",
    tools: ["mcp:everything/echo", "mcp:everything/get-sum"],
    hooks: ["no-sums"],
  });
  const result = await env.run(["run", "-a", "mcp", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "Echo: allowed (seen by the hook)" },
    { id: "call_2", content: 'hook "no-sums" refused the call: no sums today' },
  ]);
});

Deno.test("a server flooding one endless line is stopped, not buffered without bound", async () => {
  await using provider = await startFakeProvider([{ text: "carried on" }]);
  await using env = await createTestEnv({ provider });
  const pidFile = `${env.root}/flood.pid`;
  await env.writeConfig(configWithMcp(provider.url, {
    flood: { command: "sh", args: ["-c", `echo $$ > '${pidFile}'; yes aaaaaaaa | tr -d '\\n'`] },
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:flood"] });
  const result = await env.run(["run", "-a", "mcp", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /mcp server "flood": sent a message over 10485760 bytes, so it was stopped/,
  );
  assert.ok(await processGone(await readPid(pidFile)), "the flooding server outlived the run");
});

Deno.test("SIGINT while a server starts exits 130 at once and stops it", async () => {
  await using provider = await startFakeProvider([{ text: "never" }]);
  await using env = await createTestEnv({ provider });
  const pidFile = `${env.root}/slow.pid`;
  await env.writeConfig(configWithMcp(provider.url, {
    slow: { command: "sh", args: ["-c", `echo $$ > '${pidFile}'; exec sleep 600`] },
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:slow"] });
  await using process = await env.start(["run", "-a", "mcp", "go"]);
  const pid = await readPid(pidFile);
  const signalled = performance.now();
  process.kill("SIGINT");
  const result = await process.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - signalled < 2_000, "the interrupt took too long");
  assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
  assert.equal(provider.requests.length, 0);
  assert.ok(await processGone(pid), "the server outlived the run");
});

Deno.test("a server slow to answer initialize is named on stderr after about 2 s, then times out", async () => {
  await using provider = await startFakeProvider([{ text: "carried on" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, {
    silent: { command: "sleep", args: ["600"], timeout_ms: 3500 },
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:silent"] });
  const result = await env.run(["run", "-a", "mcp", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stderr.split("\n");
  const starting = lines.indexOf(
    'starting MCP server "silent"… (up to 3.5s, timeout_ms in config.yaml)',
  );
  const failed = lines.findIndex((line) => line.includes('mcp server "silent": did not start'));
  assert.ok(starting !== -1 && failed > starting, result.stderr);
});

/** A stdio MCP server (node) that answers `initialize` and lists `count` tools named t0, t1, …. */
function manyToolsServer(count: number): string {
  return `
const tools = Array.from({ length: ${count} }, (_, i) => ({ name: "t" + i, inputSchema: { type: "object" } }));
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let at = buffer.indexOf("\\n"); at !== -1; at = buffer.indexOf("\\n")) {
    const message = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    const answer = (result) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\\n");
    if (message.method === "initialize") {
      answer({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "many", version: "1" } });
    } else if (message.method === "tools/list") answer({ tools });
    else if (message.id !== undefined) answer({});
  }
});
`;
}

Deno.test("a server offering 300 tools: the model is offered the first 256, with a diagnostic naming the fix", async () => {
  await using provider = await startFakeProvider([{ text: "fine" }]);
  await using env = await createTestEnv({ provider });
  const server = await env.writeFile("many.js", manyToolsServer(300));
  await env.writeConfig(configWithMcp(provider.url, { many: { command: "node", args: [server] } }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:many", "mcp:many/t299"] });
  const result = await env.run(["run", "-a", "mcp", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const names = toolNamesOf(provider.requests[0]);
  assert.equal(names.length, 257, "the first 256, and the one named");
  assert.deepEqual([names[0], names[255], names[256]], ["many__t0", "many__t255", "many__t299"]);
  assert.ok(
    result.stderr.includes(
      'mcp server "many": offers 300 tools; only the first 256 are offered to the model (choose ' +
        "the ones you need with mcp_servers.many.tools.allow in config.yaml, or name them in the " +
        "agent as mcp:many/<tool>)",
    ),
    result.stderr,
  );
});
