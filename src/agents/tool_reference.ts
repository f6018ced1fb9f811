/**
 * The entries of an agent's `tools:` list (docs/formats.md, docs/mcp.md):
 * a tool name (`shell`, `word-count`), all tools of an MCP server
 * (`mcp:github`) or one of them (`mcp:github/create_issue`), or the tools of
 * every enabled server of config.yaml (`mcp:*`).
 *
 * Claude Code's names for MCP tools, `mcp__github__create_issue` and
 * `mcp__github`, mean the same as `mcp:github/create_issue` and `mcp:github`;
 * {@link normalizeToolEntry} rewrites them, so names starting with `mcp__`
 * never name a user tool.
 *
 * @module
 */

import { isValidMcpServerName } from "../config/mcp_servers.ts";
import { isValidName, NAME_RULE } from "../base/names.ts";

/** The prefix of an MCP entry. */
export const MCP_PREFIX = "mcp:";

/** The server name of `mcp:*`: every enabled server of config.yaml. */
export const ALL_MCP_SERVERS = "*";

/** The prefix Claude Code gives MCP tools. */
const CLAUDE_CODE_PREFIX = "mcp__";

/** The longest MCP tool name an entry may carry (the MCP specification's limit). */
const MAX_MCP_TOOL_CHARS = 128;

/** One entry of `tools:`, parsed. */
export type ToolReference =
  | { readonly kind: "tool"; readonly name: string }
  | {
    readonly kind: "mcp";
    /** The server's name, or {@link ALL_MCP_SERVERS}. */
    readonly server: string;
    /** One tool of the server; null for all of them. */
    readonly tool: string | null;
  };

/**
 * `entry` in its canonical form: Claude Code's `mcp__server__tool` becomes
 * `mcp:server/tool` and `mcp__server` becomes `mcp:server`; anything else is
 * returned as it is.
 */
export function normalizeToolEntry(entry: string): string {
  if (!entry.startsWith(CLAUDE_CODE_PREFIX)) return entry;
  const rest = entry.slice(CLAUDE_CODE_PREFIX.length);
  const split = rest.indexOf("__");
  if (split === -1) return `${MCP_PREFIX}${rest}`;
  return `${MCP_PREFIX}${rest.slice(0, split)}/${rest.slice(split + 2)}`;
}

/** Parses one (normalized) entry, or returns the problem worded for the agent file. */
export function parseToolReference(entry: string): ToolReference | { readonly problem: string } {
  if (!entry.startsWith(MCP_PREFIX)) {
    if (isValidName(entry)) return { kind: "tool", name: entry };
    return { problem: `invalid tool name ${JSON.stringify(entry)} (expected ${NAME_RULE})` };
  }
  const body = entry.slice(MCP_PREFIX.length);
  if (body === ALL_MCP_SERVERS) return { kind: "mcp", server: ALL_MCP_SERVERS, tool: null };
  const slash = body.indexOf("/");
  const server = slash === -1 ? body : body.slice(0, slash);
  const tool = slash === -1 ? null : body.slice(slash + 1);
  const validTool = tool === null ||
    (tool.length > 0 && tool.length <= MAX_MCP_TOOL_CHARS && !/[\s\p{Cc}]/u.test(tool));
  if (isValidMcpServerName(server) && validTool) return { kind: "mcp", server, tool };
  return {
    problem: `invalid MCP tool reference ${JSON.stringify(entry)} ` +
      `(expected mcp:SERVER, mcp:SERVER/TOOL such as mcp:github/create_issue, or mcp:*)`,
  };
}
