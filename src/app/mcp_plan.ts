/**
 * Which MCP servers an agent's `tools:` needs (docs/mcp.md, "Using MCP
 * tools"), decided from the agent file and `config.yaml` alone, before
 * anything starts or the SDK loads.
 *
 * - An unknown server, or a named tool that `tools.allow` / `tools.deny`
 *   excludes, is an error naming the agent file and the fix; an entry
 *   written in Claude Code's `mcp__server__tool` form whose server is not
 *   configured is a diagnostic instead (the file was written for a machine
 *   with other servers).
 * - A disabled server (`enabled: false`) is a diagnostic: it is not started
 *   and offers no tools.
 * - `mcp:*` stands for every enabled server (`mcp:<name>` of each, in
 *   config.yaml's order); disabled ones are left out silently.
 *
 * @module
 */

import { ALL_MCP_SERVERS, parseToolReference } from "../agents/tool_reference.ts";
import type { McpServerSettings } from "../config/config.ts";
import { isToolAllowed } from "../config/mcp_servers.ts";

/** One `tools:` entry of the agent, in declared order. */
export type PlannedEntry =
  | { readonly kind: "tool"; readonly name: string }
  | {
    readonly kind: "mcp";
    readonly server: McpServerSettings;
    /** One tool; null for all of the server's tools. */
    readonly tool: string | null;
  };

/** What the agent's tools need. */
export interface McpPlan {
  /** Every entry except those of disabled servers, in declared order. */
  readonly entries: readonly PlannedEntry[];
  /** The plain tool names (built-in and user tools), in declared order. */
  readonly toolNames: readonly string[];
  /** The servers to start, each once, in first-use order. */
  readonly servers: readonly McpServerSettings[];
  readonly diagnostics: readonly string[];
}

/**
 * Plans the agent's tools.
 *
 * @throws {Error} naming `agentPath` when an entry names an unknown server or an excluded tool
 */
export function planMcpTools(
  agentPath: string,
  tools: readonly string[],
  servers: Readonly<Record<string, McpServerSettings>>,
  peerMcpTools: ReadonlySet<string> = new Set(),
): McpPlan {
  const entries: PlannedEntry[] = [];
  const toStart = new Map<string, McpServerSettings>();
  const disabled = new Set<string>();
  const ignored: string[] = [];
  for (const entry of tools) {
    const reference = parseToolReference(entry);
    // The agent file was checked when it loaded: an invalid entry cannot get here.
    if ("problem" in reference) throw new Error(`${agentPath}: tools: ${reference.problem}`);
    if (reference.kind === "tool") {
      entries.push(reference);
      continue;
    }
    if (reference.server === ALL_MCP_SERVERS) {
      // Every enabled server, in config.yaml's order; a disabled one is left out without a word.
      for (const server of Object.values(servers)) {
        if (!server.enabled) continue;
        entries.push({ kind: "mcp", server, tool: null });
        toStart.set(server.name, server);
      }
      continue;
    }
    const server = Object.hasOwn(servers, reference.server) ? servers[reference.server] : undefined;
    if (server === undefined && peerMcpTools.has(entry)) {
      ignored.push(entry);
      continue;
    }
    if (server === undefined) {
      const known = Object.keys(servers).sort().join(", ") || "none";
      throw new Error(
        `${agentPath}: tools: ${entry}: no MCP server "${reference.server}" in mcp_servers ` +
          `of config.yaml (configured: ${known})`,
      );
    }
    if (!server.enabled) {
      disabled.add(server.name);
      continue;
    }
    if (reference.tool !== null && !isToolAllowed(server, reference.tool)) {
      throw new Error(
        `${agentPath}: tools: ${entry}: the tool is excluded by mcp_servers.${server.name}.tools ` +
          `in config.yaml (remove it from the agent, or from tools.deny / add it to tools.allow)`,
      );
    }
    entries.push({ kind: "mcp", server, tool: reference.tool });
    toStart.set(server.name, server);
  }
  return {
    entries,
    toolNames: entries.flatMap((entry) => entry.kind === "tool" ? [entry.name] : []),
    servers: [...toStart.values()],
    diagnostics: [
      ...[...disabled].map((name) =>
        `mcp server "${name}": disabled (enabled: false in config.yaml), its tools are not offered`
      ),
      ...(ignored.length === 0 ? [] : [
        `${agentPath}: tools: ignored ${ignored.join(", ")} ` +
        `(no such server in mcp_servers of config.yaml)`,
      ]),
    ],
  };
}
