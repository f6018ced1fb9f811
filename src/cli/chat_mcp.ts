/**
 * The chat's `/mcp`: the MCP servers of config.yaml and the state of each
 * for the chat's agent — disabled, not used by it, to start with the next
 * message, or what the last message found (its tool count, or why it failed).
 *
 * ```
 * MCP servers (/home/me/.rienda/config.yaml):
 *   github  stdio  26 tools
 *     npx -y @modelcontextprotocol/server-github
 *   docs    http   failed: did not start within 60s (raise timeout_ms in config.yaml if it needs longer)
 *     https://mcp.example.com/mcp
 *   old     stdio  disabled
 *     node old-server.js
 * ```
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import { describeServer } from "../app/mcp_check.ts";
import { planMcpTools } from "../app/mcp_plan.ts";
import type { Config } from "../config/config.ts";
import { formatColumns } from "./columns.ts";

/** What the chat learnt of the servers from its last message's run. */
export type McpSeen = ReadonlyMap<string, string>;

/** What a run offered of each server that offered tools (`26 tools`) or failed (why). */
export function seenServers(
  servers: readonly string[],
  tools: readonly { readonly name: string }[],
  diagnostics: readonly string[],
): Map<string, string> {
  const seen = new Map<string, string>();
  for (const name of servers) {
    const failure = diagnostics.find((line) => line.startsWith(`mcp server "${name}": `));
    // Server names hold no `__`: the model-facing name of each of its tools starts with this.
    let count = 0;
    for (const tool of tools) if (tool.name.startsWith(`${name}__`)) count++;
    if (count > 0) seen.set(name, `${count} ${count === 1 ? "tool" : "tools"}`);
    else if (failure !== undefined) {
      seen.set(name, `failed: ${failure.slice(`mcp server "${name}": `.length)}`);
    }
  }
  return seen;
}

/** The names of the servers `agent` uses (`mcp:NAME`, `mcp:*`, …) among the enabled ones. */
export function usedServers(agent: AgentDefinition, config: Config): string[] {
  try {
    return planMcpTools(agent.path, agent.tools, config.mcpServers, agent.peerMcpTools).servers
      .map((server) => server.name);
  } catch {
    return []; // the agent names a server config.yaml lacks: the next message says so
  }
}

/** The lines of `/mcp`. */
export function mcpStatusLines(
  config: Config,
  agent: { readonly id: string; readonly uses: readonly string[] },
  seen: McpSeen,
): string[] {
  const servers = Object.values(config.mcpServers);
  if (servers.length === 0) {
    return ["no MCP servers: declare them under mcp_servers: in config.yaml"];
  }
  const rows = servers.map((server) => [
    server.name,
    server.kind === "stdio" ? "stdio" : "http",
    !server.enabled
      ? "disabled"
      : !agent.uses.includes(server.name)
      ? `not used by ${agent.id}`
      : seen.get(server.name) ?? "starts with the next message",
  ]);
  const table = formatColumns(rows).trimEnd().split("\n");
  const lines = [`MCP servers (${config.file ?? "config.yaml"}):`];
  servers.forEach((server, index) => {
    lines.push(`  ${table[index] ?? server.name}`, `    ${describeServer(server)}`);
  });
  return lines;
}
