/**
 * The MCP servers an editor passes in `session/new` / `session/load` → the
 * settings rienda's MCP client starts servers from (`config/mcp_servers.ts`).
 *
 * - stdio servers run in the workspace with the variables the editor gave;
 *   HTTP and SSE servers are remote servers (streamable HTTP, falling back
 *   to HTTP+SSE) with the editor's headers.
 * - A name is made a valid server name (`My Files` → `My_Files`); one an
 *   earlier editor server took is skipped with a log line (one that
 *   `config.yaml` uses is skipped by the run, `app/run_tools.ts`).
 * - Their secrets (credential headers, secret-named variables, random-looking
 *   values) are remembered, so nothing prints them.
 *
 * @module
 */

import type { McpServer } from "@agentclientprotocol/sdk";
import {
  DEFAULT_MCP_TIMEOUT_MS,
  isValidMcpServerName,
  type McpServerSettings,
  serverSecrets,
} from "../config/mcp_servers.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** What {@link editorMcpServers} remembers secrets in and reports to. */
export interface EditorServerContext {
  readonly secrets: SecretSet;
  readonly log: (line: string) => void;
}

/** The longest server name (the tool name rule's). */
const MAX_NAME_CHARS = 64;

/** The editor's servers as settings, in the editor's order. */
export function editorMcpServers(
  servers: readonly McpServer[],
  context: EditorServerContext,
): McpServerSettings[] {
  const taken = new Set<string>();
  const settings: McpServerSettings[] = [];
  for (const server of servers) {
    const name = serverName(server.name);
    if (taken.has(name) || !isValidMcpServerName(name)) {
      context.log(
        `the editor's MCP server "${server.name}" is not started: another of its servers is named "${name}"`,
      );
      continue;
    }
    taken.add(name);
    const common = {
      name,
      enabled: true,
      timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
      allow: null,
      deny: [],
    };
    const setting: McpServerSettings = "type" in server
      ? {
        ...common,
        kind: "remote",
        url: server.url,
        headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
      }
      : {
        ...common,
        kind: "stdio",
        command: server.command,
        args: [...server.args],
        env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
        envVars: [],
      };
    for (const secret of serverSecrets(setting)) context.secrets.remember(secret);
    settings.push(setting);
  }
  return settings;
}

/**
 * `name` as a server name: letters, digits, `_` and `-`, no `__`, at most 64.
 *
 * @example
 * ```ts
 * import { serverName } from "./editor_mcp_servers.ts";
 * serverName("My Files (local)"); // "My_Files_local"
 * ```
 */
export function serverName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/_{2,}/g, "_")
    .replace(/^_+|_+$/g, "").slice(0, MAX_NAME_CHARS);
  return cleaned === "" ? "editor" : cleaned;
}
