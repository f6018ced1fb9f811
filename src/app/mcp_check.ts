/**
 * MCP servers outside a run, for `rienda mcp list --check`, `rienda mcp
 * call`, `rienda tools` and `rienda doctor`: start some servers, see what
 * they offer under the names the model would see, and stop them.
 *
 * @module
 */

import type { McpServerSettings } from "../config/config.ts";
import { isToolAllowed } from "../config/mcp_servers.ts";
import type { McpConnection } from "../mcp/mcp_tools.ts";
import { loadMcp } from "./load_mcp.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** A tool of a checked server. */
export interface CheckedTool {
  /** The name the model sees (`github__create_issue`). */
  readonly modelName: string;
  /** The server's own name for it. */
  readonly name: string;
  readonly description: string;
}

/** What starting one server showed. */
export type ServerCheck =
  | {
    readonly ok: true;
    readonly settings: McpServerSettings;
    readonly transport: McpConnection["transport"];
    /** The tools `tools.allow` / `tools.deny` let through, in the server's order. */
    readonly tools: readonly CheckedTool[];
    /** How long the start took, rounded to 100 ms. */
    readonly elapsedMs: number;
  }
  | { readonly ok: false; readonly settings: McpServerSettings; readonly message: string };

/** Where servers start outside a run. */
export interface CheckContext {
  /** The workspace (a stdio server's working directory). */
  readonly workdir: string;
  readonly env: (name: string) => string | undefined;
  /** The process's secrets (`Io.secrets`): a server's failure is masked with them. */
  readonly secrets: SecretSet;
  readonly signal: AbortSignal;
}

/** Starts `servers` in parallel, lists their tools and stops them again. */
export async function checkMcpServers(
  servers: readonly McpServerSettings[],
  context: CheckContext,
): Promise<ServerCheck[]> {
  if (servers.length === 0) return [];
  const mcp = await loadMcp();
  return await Promise.all(servers.map(async (settings): Promise<ServerCheck> => {
    const started = performance.now();
    try {
      await using servers = await mcp.startMcpServers([settings], context);
      const connection = servers.connections.get(settings.name);
      if (connection === undefined) {
        return { ok: false, settings, message: servers.failures.get(settings.name) ?? "" };
      }
      const tools = connection.tools.filter((tool) => isToolAllowed(settings, tool.name))
        .map((tool) => ({
          modelName: mcp.modelToolName(settings.name, tool.name),
          name: tool.name,
          description: tool.description,
        }));
      // Tenths of a second: what a listing shows.
      const elapsedMs = Math.round((performance.now() - started) / 100) * 100;
      return { ok: true, settings, transport: connection.transport, tools, elapsedMs };
    } catch (error) {
      if (context.signal.aborted) throw error;
      return { ok: false, settings, message: `mcp server "${settings.name}": ${String(error)}` };
    }
  }));
}

/** How a server starts, for listings: its command line, or its URL. */
export function describeServer(settings: McpServerSettings): string {
  switch (settings.kind) {
    case "stdio":
      return [settings.command, ...settings.args].map(shellWord).join(" ");
    case "remote":
      return settings.url;
  }
}

/** `word`, single-quoted when a shell would split or expand it. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
