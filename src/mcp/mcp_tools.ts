/**
 * MCP servers → the tools of a run (docs/mcp.md): the folder's entry point
 * for the app, loaded on demand so runs without MCP never load the SDK.
 *
 * - {@link startMcpServers} starts servers in parallel; one that fails is a
 *   message, not an error, and an interrupt stops every server started. A
 *   server still starting after {@link STARTING_NOTICE_MS} is a notice
 *   (`starting MCP server "s"… (up to 60s, timeout_ms)`), so a server that
 *   never answers `initialize` does not hold the run in silence.
 * - {@link mcpToolsFor} turns one server and one `tools:` entry into tools
 *   named `<server>__<tool>` (`tool_names.ts`), filtered by the server's
 *   `tools.allow` and `tools.deny`. A tool the agent names but cannot have
 *   (its server failed, or the server lacks it) is a stand-in whose calls
 *   are error results saying why, with a diagnostic. `mcp:<server>` offers at
 *   most {@link MAX_SERVER_TOOLS} tools, with a diagnostic naming the fix.
 *
 * @module
 */

import { isToolAllowed, type McpServerSettings } from "../config/mcp_servers.ts";
import { formatDuration } from "../tools/format_duration.ts";
import { errorResult, type Tool } from "../tools/tool.ts";
import {
  connectMcpServer,
  type McpConnection,
  McpServerError,
  type McpToolInfo,
} from "./connection.ts";
import { findToolName, modelToolName } from "./tool_names.ts";
import type { TransportContext } from "./transports.ts";

export { type McpConnection, McpServerError, type McpToolInfo } from "./connection.ts";
export { modelToolName } from "./tool_names.ts";

/** The longest description passed on to the model; longer ones are cut. */
export const MAX_DESCRIPTION_CHARS = 8_000;

/**
 * The most tools one `mcp:<server>` entry offers the model: every tool goes
 * with every request, and a server offering 100,000 made each one megabytes.
 */
export const MAX_SERVER_TOOLS = 256;

/** How long a server may take to start before a notice says it is being waited for. */
export const STARTING_NOTICE_MS = 2_000;

/** What {@link startMcpServers} needs. */
export interface StartRequest extends TransportContext {
  /** Aborts every start (an interrupt). */
  readonly signal: AbortSignal;
  /** Receives the line reporting a server that died after it started. */
  readonly notice?: (text: string) => void;
}

/** Servers started for a run; dispose to stop them all. */
export interface StartedServers extends AsyncDisposable {
  readonly connections: ReadonlyMap<string, McpConnection>;
  /** Why a server did not start, by name (`mcp server "x": …`). */
  readonly failures: ReadonlyMap<string, string>;
}

/**
 * Starts `servers` in parallel.
 *
 * @throws the abort reason when `request.signal` aborts; every server is stopped first
 */
export async function startMcpServers(
  servers: readonly McpServerSettings[],
  request: StartRequest,
): Promise<StartedServers> {
  const outcomes = await Promise.allSettled(
    servers.map((settings) =>
      withStartingNotice(settings, connectMcpServer(settings, request), request)
    ),
  );
  const connections = new Map<string, McpConnection>();
  const failures = new Map<string, string>();
  outcomes.forEach((outcome, index) => {
    const name = servers[index]!.name;
    if (outcome.status === "fulfilled") connections.set(name, outcome.value);
    else if (outcome.reason instanceof McpServerError) failures.set(name, outcome.reason.message);
    else failures.set(name, `mcp server "${name}": ${String(outcome.reason)}`);
  });
  const started: StartedServers = {
    connections,
    failures,
    async [Symbol.asyncDispose]() {
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
  if (request.signal.aborted) {
    await started[Symbol.asyncDispose]();
    throw request.signal.reason;
  }
  return started;
}

/** `starting`, with a notice if it has not settled within {@link STARTING_NOTICE_MS}. */
async function withStartingNotice<T>(
  settings: McpServerSettings,
  starting: Promise<T>,
  request: StartRequest,
): Promise<T> {
  const { notice } = request;
  if (notice === undefined) return await starting;
  const timer = setTimeout(() => {
    notice(
      `starting MCP server "${settings.name}"… (up to ${formatDuration(settings.timeoutMs)}, ` +
        "timeout_ms in config.yaml)",
    );
  }, STARTING_NOTICE_MS);
  Deno.unrefTimer(timer);
  try {
    return await starting;
  } finally {
    clearTimeout(timer);
  }
}

/** A tool an entry offers, with what it is (`mcp:github/create_issue`), to tell collisions apart. */
export interface OfferedTool {
  readonly tool: Tool;
  readonly origin: string;
}

/** The tools one `tools:` entry gets from one server. */
export interface EntryTools {
  readonly tools: readonly OfferedTool[];
  readonly diagnostics: readonly string[];
}

/**
 * The tools of `mcp:<server>` (`tool` null) or `mcp:<server>/<tool>`, from a
 * started server or, when it failed, stand-ins for the one named tool.
 */
export function mcpToolsFor(
  settings: McpServerSettings,
  tool: string | null,
  started: StartedServers,
): EntryTools {
  const { name } = settings;
  const connection = started.connections.get(name);
  const standIn = (wanted: string, why: string): OfferedTool => ({
    tool: unavailableTool(modelToolName(name, wanted), why),
    origin: `mcp:${name}/${wanted}`,
  });
  if (connection === undefined) {
    const why = started.failures.get(name) ?? `mcp server "${name}": not started`;
    // The tool names of a server that never started are unknown: only a named tool has a stand-in.
    return { tools: tool === null ? [] : [standIn(tool, why)], diagnostics: [] };
  }
  const offered = connection.tools.filter((info) => isToolAllowed(settings, info.name));
  const offer = (info: McpToolInfo): OfferedTool => ({
    tool: createMcpTool(connection, info),
    origin: `mcp:${name}/${info.name}`,
  });
  if (tool === null) {
    if (offered.length <= MAX_SERVER_TOOLS) return { tools: offered.map(offer), diagnostics: [] };
    return {
      tools: offered.slice(0, MAX_SERVER_TOOLS).map(offer),
      diagnostics: [
        `mcp server "${name}": offers ${offered.length} tools; only the first ` +
        `${MAX_SERVER_TOOLS} are offered to the model (choose the ones you need with ` +
        `mcp_servers.${name}.tools.allow in config.yaml, or name them in the agent as ` +
        `mcp:${name}/<tool>)`,
      ],
    };
  }
  const found = findToolName(offered.map((info) => info.name), tool);
  const info = offered.find((candidate) => candidate.name === found);
  if (info !== undefined) return { tools: [offer(info)], diagnostics: [] };
  const names = offered.map((candidate) => candidate.name).join(", ") || "none";
  const why = `mcp server "${name}": has no tool "${tool}" (available: ${names})`;
  return { tools: [standIn(tool, why)], diagnostics: [why] };
}

/** The tool the model calls for `info` of `connection`. */
export function createMcpTool(connection: McpConnection, info: McpToolInfo): Tool {
  const description = info.description === ""
    ? `The "${info.name}" tool of the MCP server "${connection.name}".`
    : info.description.length > MAX_DESCRIPTION_CHARS
    ? `${info.description.slice(0, MAX_DESCRIPTION_CHARS)}…`
    : info.description;
  return {
    name: modelToolName(connection.name, info.name),
    description,
    parameters: info.inputSchema,
    execute: (args, context) =>
      connection.call(info.name, args, { signal: context.signal, onProgress: context.output }),
  };
}

function unavailableTool(name: string, why: string): Tool {
  return {
    name,
    description: `Unavailable: ${why}`,
    parameters: { type: "object" },
    execute: () => Promise.resolve(errorResult(why)),
  };
}
