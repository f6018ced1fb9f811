/**
 * MCP costs for `deno task bench`, against server-everything over stdio
 * (installed by `deno task mcp-servers`):
 *
 * - start to first request: from spawning `rienda run` to the fake
 *   provider receiving the request that lists the server's tools (server
 *   start, SDK load, initialize and `tools/list` included);
 * - CLI scenarios ({@link mcpScenarios}): a run with the server and no
 *   call, one `everything__echo` call, and 20 sequential ones, to set
 *   against the shell scenarios of `bench.ts`.
 *
 * @module
 */

import { everythingStdio } from "../tests/harness/mcp_servers.ts";
import { startFakeProvider, type Turn } from "../tests/harness/fake_provider.ts";
import { createTestEnv, type TestEnv } from "../tests/harness/env.ts";
import type { Scenario } from "./bench.ts";

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
    const child = new Deno.Command(Deno.execPath(), {
      args: cliArgs(["run", "-a", "mcp", "-p", "hi"]),
      cwd: env.workdir,
      env: { RIENDA_HOME: env.home, NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await provider.waitForRequests(seen + 1, 30_000);
    if (run > 0) samples.push(performance.now() - started);
    await child.status;
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}
