/**
 * MCP costs for `deno task bench`, against server-everything over stdio
 * (installed by `deno task mcp-servers`):
 *
 * - start to first request: from spawning `rienda run` to the fake
 *   provider receiving the request that lists the server's tools (server
 *   start, SDK load, initialize and `tools/list` included);
 * - in process ({@link measureMcpCall}): one `everything__echo` call through
 *   the tool the model calls (SDK request, stdio round trip, result
 *   conversion) against one `shell` tool call of `true`, interleaved;
 * - CLI scenarios ({@link mcpScenarios}): a run with the server and no
 *   call, one `everything__echo` call, and 20 sequential ones, to set
 *   against the shell scenarios of `bench.ts`.
 *
 * @module
 */

import { createMcpTool, startMcpServers } from "../src/mcp/mcp_tools.ts";
import { createShellTool } from "../src/tools/shell.ts";
import type { ToolCallContext } from "../src/tools/tool.ts";
import { everythingStdio } from "../tests/harness/mcp_servers.ts";
import { line, timeEach } from "./bench_extensions.ts";
import { startFakeProvider, type Turn } from "../tests/harness/fake_provider.ts";
import { createTestEnv, type TestEnv } from "../tests/harness/env.ts";
import type { Scenario } from "./bench.ts";
import { SecretSet } from "../src/secrets/secrets.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "10");

/** Adds server-everything to the env's `config.yaml`, and the agent `mcp` using it. */
export async function writeMcpAgent(env: TestEnv): Promise<void> {
  const config = await Deno.readTextFile(env.configPath);
  const servers = { everything: await everythingStdio() };
  await env.writeConfig(`${config}mcp_servers: ${JSON.stringify(servers)}\n`);
  await env.writeAgent("mcp", { description: "One MCP server.", tools: ["mcp:everything"] });
}

const echoTurns = (count: number): Turn[] => [
  ...Array.from({ length: count }, (_, index) => ({
    toolCalls: [{ name: "everything__echo", arguments: { message: `echo ${index}` } }],
  })),
  { text: "done" },
];

/** The CLI scenarios with one stdio MCP server. */
export function mcpScenarios(): Scenario[] {
  const setup = writeMcpAgent;
  return [
    {
      name: "one-shot, one stdio MCP server",
      turns: () => [{ text: "hello" }],
      args: ["run", "-a", "mcp", "-p", "hi"],
      setup,
    },
    {
      name: "one MCP call",
      turns: () => echoTurns(1),
      args: ["run", "-a", "mcp", "-p", "go"],
      setup,
    },
    {
      name: "20 sequential MCP calls",
      turns: () => echoTurns(20),
      args: ["run", "-a", "mcp", "-p", "go"],
      setup,
    },
  ];
}

/** Starts `deno` with `args` in the env's workspace and home, its output dropped. */
export function spawnSilent(env: TestEnv, args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args,
    cwd: env.workdir,
    env: { RIENDA_HOME: env.home, NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

/** Median milliseconds from spawning `rienda run` to the first request, over `RUNS` runs. */
export async function measureStartToFirstRequest(cliArgs: (args: string[]) => string[]) {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await writeMcpAgent(env);
  const samples: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    provider.push({ text: "hello" });
    const seen = provider.requests.length;
    const started = performance.now();
    const child = spawnSilent(env, cliArgs(["run", "-a", "mcp", "-p", "hi"]));
    await provider.waitForRequests(seen + 1, 30_000);
    if (run > 0) samples.push(performance.now() - started);
    await child.status;
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const CALLS = Number(Deno.env.get("BENCH_SPAWNS") ?? "200");

/** Lines comparing one MCP tool call with one built-in `shell` call, median and p95 of each. */
export async function measureMcpCall(): Promise<string[]> {
  const entry = await everythingStdio();
  const settings = {
    name: "everything",
    kind: "stdio",
    command: String(entry.command),
    args: entry.args as string[],
    env: {},
    envVars: [],
    enabled: true,
    timeoutMs: 60_000,
    allow: null,
    deny: [],
  } as const;
  const signal = new AbortController().signal;
  const env = (name: string) => Deno.env.get(name);
  await using servers = await startMcpServers([settings], {
    workdir: Deno.cwd(),
    env,
    secrets: new SecretSet(),
    signal,
  });
  const connection = servers.connections.get("everything");
  const info = connection?.tools.find((tool) => tool.name === "echo");
  if (connection === undefined || info === undefined) {
    throw new Error("server-everything did not start");
  }
  const echo = createMcpTool(connection, info);
  const shell = createShellTool();
  const context: ToolCallContext = {
    callId: "bench",
    workdir: Deno.cwd(),
    signal,
    output: () => {},
  };
  const mcpCall = () => echo.execute({ message: "hi" }, context);
  const shellCall = () => shell.execute({ command: "true" }, context);
  await timeEach(10, mcpCall);
  await timeEach(10, shellCall);
  const mcpSamples: number[] = [];
  const shellSamples: number[] = [];
  for (let round = 0; round < 10; round++) {
    mcpSamples.push(...await timeEach(CALLS / 10, mcpCall));
    shellSamples.push(...await timeEach(CALLS / 10, shellCall));
  }
  return [
    line("MCP tool call (everything echo, stdio)", mcpSamples),
    line("built-in shell tool call (true)", shellSamples),
  ];
}
