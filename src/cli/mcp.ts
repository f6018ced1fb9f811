/**
 * `rienda mcp list [--check]`: the configured MCP servers and how each
 * starts; with `--check`, each enabled server is started and shows its
 * status and its tools under the names the model sees. `rienda mcp call
 * SERVER TOOL --args JSON`: one call outside any model call, like
 * `rienda tools test` (docs/mcp.md, "Commands").
 *
 * ```
 * everything  stdio  npx -y @modelcontextprotocol/server-everything  ok: 13 tools in 0.9s
 *   everything__echo     Echoes back the input string
 * remote      http   https://mcp.example.com/mcp                     disabled
 * ```
 *
 * @module
 */

import { type CheckedTool, checkMcpServers, describeServer } from "../app/mcp_check.ts";
import { loadMcp } from "../app/load_mcp.ts";
import { resolveWorkdir } from "../app/prepare_run.ts";
import { loadConfig, type McpServerSettings } from "../config/config.ts";
import { isToolAllowed } from "../config/mcp_servers.ts";
import type { McpConnection } from "../mcp/mcp_tools.ts";
import { resolvePaths } from "../config/paths.ts";
import { stripEscapes } from "../base/escape_sequences.ts";
import { validateToolArguments } from "../tools/arguments.ts";
import { errorResult, type ToolResult } from "../tools/tool.ts";
import { capToolResult } from "../tools/truncate.ts";
import type { Io } from "../ui/io.ts";
import { formatDuration } from "../tools/format_duration.ts";
import { formatColumns, summary } from "./columns.ts";
import { EXIT } from "./exit.ts";
import { readJsonFlag } from "./extension_output.ts";
import { errorMessage } from "../base/unknown.ts";

/** The flags both commands share. */
export interface McpFlags {
  /** `--config PATH`. */
  readonly config: string | undefined;
  /** `-C DIR`: the workspace a stdio server starts in. */
  readonly workdir: string | undefined;
}

async function loadServers(io: Io, flags: McpFlags) {
  const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const workdir = await resolveWorkdir(io.cwd, flags.workdir);
  return { servers: Object.values(config.mcpServers), file: paths.configFile, workdir };
}

/** `rienda mcp list`: one line per server; with `check`, started, with status and tools. */
export async function mcpList(
  io: Io,
  signal: AbortSignal,
  flags: McpFlags & { readonly check: boolean },
): Promise<number> {
  const { servers, file, workdir } = await loadServers(io, flags);
  if (servers.length === 0) {
    io.stderr.write(`no MCP servers: add them under mcp_servers in ${file} (see docs/mcp.md)\n`);
    return EXIT.ok;
  }
  const checks = flags.check
    ? await checkMcpServers(servers.filter((server) => server.enabled), {
      workdir,
      env: io.env,
      secrets: io.secrets,
      signal,
    })
    : [];
  const byName = new Map(checks.map((check) => [check.settings.name, check]));
  const lines: string[] = [];
  const rows = servers.map((server) => {
    const check = byName.get(server.name);
    const status = !server.enabled
      ? "disabled"
      : check === undefined
      ? ""
      : check.ok
      ? `ok: ${count(check.tools.length, "tool")} in ${formatDuration(check.elapsedMs)}`
      : `failed: ${check.message.replace(`mcp server "${server.name}": `, "")}`;
    return [
      server.name,
      server.kind === "stdio" ? "stdio" : "http",
      describeServer(server),
      status,
    ];
  });
  // One table for the servers, each followed by its tools, indented.
  const table = formatColumns(rows).split("\n");
  servers.forEach((server, index) => {
    lines.push(table[index] ?? "");
    const check = byName.get(server.name);
    if (check?.ok !== true) return;
    for (const line of toolLines(check.tools)) lines.push(line);
  });
  io.stdout.write(lines.map((line) => `${line.trimEnd()}\n`).join(""));
  return checks.some((check) => !check.ok) ? EXIT.failure : EXIT.ok;
}

function toolLines(tools: readonly CheckedTool[]): string[] {
  return formatColumns(tools.map((tool) => [tool.modelName, summary(tool.description)]))
    .trimEnd().split("\n").map((line) => `  ${line}`);
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * `rienda mcp call SERVER TOOL`: starts the server, checks the arguments
 * against the tool's input schema, calls it once and prints the result text
 * on stdout (exit 0), or an error result's text (exit 1).
 */
export async function mcpCall(
  io: Io,
  signal: AbortSignal,
  target: { readonly server: string; readonly tool: string },
  flags: McpFlags & { readonly args: string | undefined },
): Promise<number> {
  const args = await readJsonFlag(io, "--args", flags.args, "mcp call");
  const { servers, file, workdir } = await loadServers(io, flags);
  const settings = servers.find((server) => server.name === target.server);
  if (settings === undefined) {
    const known = servers.map((server) => server.name).sort().join(", ") || "none";
    throw new Error(`no MCP server "${target.server}" in ${file} (configured: ${known})`);
  }
  const mcp = await loadMcp();
  await using started = await mcp.startMcpServers([settings], {
    workdir,
    env: io.env,
    secrets: io.secrets,
    signal,
    notice: (text) => io.stderr.write(`rienda: ${text}\n`),
  });
  const connection = started.connections.get(settings.name);
  if (connection === undefined) throw new Error(started.failures.get(settings.name));
  const result = await callOnce(io, signal, settings, connection, target.tool, args);
  if (signal.aborted) {
    io.stderr.write("rienda: the call was interrupted\n");
    return EXIT.interrupted;
  }
  // What the model would read: no escape sequences, capped.
  const text = capToolResult(stripEscapes(result.text));
  io.stdout.write(text === "" || text.endsWith("\n") ? text : `${text}\n`);
  return result.isError ? EXIT.failure : EXIT.ok;
}

async function callOnce(
  io: Io,
  signal: AbortSignal,
  settings: McpServerSettings,
  connection: McpConnection,
  wanted: string,
  args: unknown,
): Promise<ToolResult> {
  const offered = connection.tools.filter((tool) => isToolAllowed(settings, tool.name));
  const tool = offered.find((candidate) => candidate.name === wanted);
  if (tool === undefined) {
    const names = offered.map((candidate) => candidate.name).join(", ") || "none";
    throw new Error(`mcp server "${settings.name}": has no tool "${wanted}" (available: ${names})`);
  }
  const validated = await validateToolArguments(
    { name: tool.name, parameters: tool.inputSchema },
    args,
  );
  if (!validated.ok) return errorResult(validated.message);
  try {
    return await connection.call(tool.name, validated.args, {
      signal,
      onProgress: (text) => io.stderr.write(text),
    });
  } catch (error) {
    return errorResult(errorMessage(error));
  }
}
