/**
 * One MCP server for the length of a run (docs/mcp.md, "Lifecycle"): the
 * SDK's `Client` over the server's transport, its tool list fetched once,
 * calls with a timeout and cancellation, and a clear word when it fails.
 *
 * - Every failure reads `mcp server "github": <what happened>`, e.g.
 *   `mcp server "github": exited with code 1: <first stderr line>`.
 * - `timeout_ms` bounds the start (connect and tool list) and each call; a
 *   call past it is an error result and the server is told to cancel it.
 * - An interrupt aborts the call through the SDK, which sends the server a
 *   cancellation.
 * - A server that dies stays dead for the run: later calls are error results
 *   at once, and the death is reported once through `notice`.
 * - Every secret of the run (`ConnectOptions.secrets`: provider keys, a remote server's bearer
 *   token, secret-named variables passed to a server) is masked in the errors
 *   and notices made here; results and progress are masked where every tool's
 *   are (the run's `redact`, and the `Io` for what is printed).
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool as SdkTool } from "@modelcontextprotocol/sdk/types";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerSettings } from "../config/mcp_servers.ts";
import { formatDuration } from "../tools/format_duration.ts";
import { errorResult, type ToolResult } from "../tools/tool.ts";
import { errorMessage } from "../base/unknown.ts";
import { VERSION } from "../base/version.ts";
import { toToolResult } from "./content.ts";
import type { ProcessExit, StdioTransport } from "./stdio_transport.ts";
import {
  createServerTransport,
  type ServerTransport,
  sseTransport,
  type TransportContext,
  TransportSetupError,
} from "./transports.ts";

/** The most `tools/list` pages read from one server (a server repeating its cursor stops here). */
export const MAX_TOOL_PAGES = 50;

/** How long a failure waits for the exit status of a stdio server to name it. */
const EXIT_WAIT_MS = 1_000;

/** HTTP statuses of a streamable-HTTP attempt after which the older SSE transport is tried. */
const SSE_FALLBACK_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

/** A tool as the server describes it. */
export interface McpToolInfo {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of the arguments (an object schema). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** What a call may report while it runs. */
export interface CallOptions {
  readonly signal: AbortSignal;
  /** Progress notifications of the server, as lines of text. */
  readonly onProgress?: (text: string) => void;
}

/** A started server. */
export interface McpConnection {
  readonly name: string;
  /** Every tool the server offers, in its order. */
  readonly tools: readonly McpToolInfo[];
  /** How the server was reached: `stdio`, `streamable-http` or `sse`. */
  readonly transport: "stdio" | "streamable-http" | "sse";
  /** Calls one tool; failures are error results, an interrupt rejects. */
  call(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolResult>;
  /** False once the server is gone (it died, or was closed). */
  alive(): boolean;
  /** Stops the server (its process group for stdio); idempotent. */
  close(): Promise<void>;
}

/** What {@link connectMcpServer} needs besides the settings. */
export interface ConnectOptions extends TransportContext {
  /** Aborts the start (an interrupt). */
  readonly signal: AbortSignal;
  /** Receives the one line reporting a server that died during the run. */
  readonly notice?: (text: string) => void;
}

/** A server could not be started; the message starts with `mcp server "<name>": `. */
export class McpServerError extends Error {
  override name = "McpServerError";
}

/**
 * Starts `settings`' server, initialises the session and fetches its tools.
 *
 * @throws {McpServerError} when it cannot start, fails or does not answer within `timeout_ms`
 * @throws the abort reason when `options.signal` aborts
 */
export async function connectMcpServer(
  settings: McpServerSettings,
  options: ConnectOptions,
): Promise<McpConnection> {
  const prefix = `mcp server "${settings.name}": `;
  let server: ServerTransport;
  try {
    server = await createServerTransport(settings, options);
  } catch (error) {
    if (error instanceof TransportSetupError) throw new McpServerError(prefix + error.message);
    throw error;
  }
  const startup = AbortSignal.any([options.signal, AbortSignal.timeout(settings.timeoutMs)]);
  const request = { signal: startup, timeout: settings.timeoutMs };
  let client = newClient();
  let transport: McpConnection["transport"] = server.kind === "stdio" ? "stdio" : "streamable-http";
  try {
    try {
      await client.connect(server.transport, request);
    } catch (error) {
      if (!(server.kind === "remote" && settings.kind === "remote" && wantsSse(error))) throw error;
      await client.close().catch(() => {});
      client = newClient();
      transport = "sse";
      await client.connect(sseTransport(settings, server.secret), request);
    }
    const tools = await listAllTools(client, request);
    return openConnection({ settings, client, server, tools, transport, options });
  } catch (error) {
    await client.close().catch(() => {});
    if (options.signal.aborted) throw options.signal.reason;
    if (startup.aborted || isTimeout(error)) {
      throw new McpServerError(
        `${prefix}did not start within ${formatDuration(settings.timeoutMs)} ` +
          `(raise timeout_ms in config.yaml if it needs longer)`,
      );
    }
    const ending = server.kind === "stdio" ? server.transport : null;
    throw new McpServerError(prefix + options.secrets.mask(await failureText(ending, error)));
  }
}

interface OpenRequest {
  readonly settings: McpServerSettings;
  readonly client: Client;
  readonly server: ServerTransport;
  readonly tools: readonly McpToolInfo[];
  readonly transport: McpConnection["transport"];
  readonly options: ConnectOptions;
}

function openConnection(request: OpenRequest): McpConnection {
  const { settings, client } = request;
  const prefix = `mcp server "${settings.name}": `;
  // What a stdio server printed while starting (a banner) says nothing about why it died later.
  const ending = request.server.kind === "stdio" ? afterStart(request.server.transport) : null;
  let closing = false;
  /** Why the server is gone, once it is. */
  let lost: Promise<string> | null = null;
  client.onclose = () => {
    if (closing || lost !== null) return;
    lost = failureText(ending, new McpError(ErrorCode.ConnectionClosed, "Connection closed"))
      .then((text) => request.options.secrets.mask(text));
    void lost.then((why) => request.options.notice?.(prefix + why));
  };
  return {
    name: settings.name,
    tools: request.tools,
    transport: request.transport,
    async call(tool, args, { signal, onProgress }) {
      if (lost !== null) return errorResult(`${prefix}not running: ${await lost}`);
      try {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          timeout: settings.timeoutMs,
          ...(onProgress === undefined ? {} : {
            onprogress: (progress) => {
              const total = progress.total === undefined ? "" : `/${progress.total}`;
              const message = progress.message === undefined ? "" : `: ${progress.message}`;
              onProgress(`progress ${progress.progress}${total}${message}\n`);
            },
          }),
        });
        return toToolResult(result);
      } catch (error) {
        if (signal.aborted) throw error;
        if (isTimeout(error)) {
          return errorResult(
            `${prefix}${tool} did not answer within ${formatDuration(settings.timeoutMs)} ` +
              `(timeout_ms); the call was cancelled`,
          );
        }
        if (lost !== null) return errorResult(prefix + await lost);
        return errorResult(prefix + request.options.secrets.mask(await failureText(ending, error)));
      }
    },
    alive: () => !closing && lost === null,
    async close() {
      closing = true;
      await client.close().catch(() => {});
    },
  };
}

/** How a stdio server ended, with the stderr it printed after `transport`'s start so far. */
function afterStart(transport: ProcessEnding): ProcessEnding {
  const start = transport.stderr().length;
  return {
    exited: transport.exited,
    stderr: () => transport.stderr().slice(start),
    stopReason: () => transport.stopReason(),
  };
}

function newClient(): Client {
  // A tools-only client: no sampling, elicitation or roots.
  const client = new Client({ name: "rienda", version: VERSION }, { capabilities: {} });
  // Transport errors (a bad line) surface as the failures of the requests they break.
  client.onerror = () => {};
  return client;
}

async function listAllTools(
  client: Client,
  request: { signal: AbortSignal; timeout: number },
): Promise<McpToolInfo[]> {
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, request);
    // A loop, not push(...): a page may hold more tools than a call takes arguments.
    for (const tool of result.tools) if (isCallable(tool)) tools.push(toToolInfo(tool));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** Tools that can only run as tasks need the experimental tasks API, which rienda does not use. */
function isCallable(tool: SdkTool): boolean {
  return tool.execution?.taskSupport !== "required";
}

function toToolInfo(tool: SdkTool): McpToolInfo {
  // `$schema` is dropped: argument validation ignores it and some providers reject it.
  const { $schema: _dropped, ...inputSchema } = tool.inputSchema;
  return { name: tool.name, description: tool.description ?? tool.title ?? "", inputSchema };
}

function wantsSse(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined &&
    SSE_FALLBACK_STATUSES.has(error.code);
}

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

/** What is known of a stdio server's end. */
type ProcessEnding = Pick<StdioTransport, "exited" | "stderr" | "stopReason">;

/** The words for a failure: a stdio server's end (code, signal, stderr) when it is gone. */
async function failureText(ending: ProcessEnding | null, error: unknown): Promise<string> {
  if (ending !== null) {
    const reason = ending.stopReason();
    if (reason !== null) return reason;
    const exit = await Promise.race([ending.exited, delay(EXIT_WAIT_MS)]);
    if (exit !== undefined) return describeExit(exit, ending.stderr());
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return "the connection closed";
  }
  return errorText(error);
}

/** `exited with code 1: <first stderr line>`, `was killed by SIGKILL`. */
export function describeExit(exit: ProcessExit, stderr: string): string {
  const how = exit.signal !== null
    ? `was killed by ${exit.signal}`
    : exit.code === 127
    ? "exited with code 127 (command not found?)"
    : `exited with code ${exit.code}`;
  const line = firstLine(stderr);
  return line === "" ? how : `${how}: ${line}`;
}

/** The first non-blank line of `text`, without control characters, at most 300 characters. */
function firstLine(text: string): string {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  // deno-lint-ignore no-control-regex
  const clean = line.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

/** `MCP error -32602: Invalid arguments` → `Invalid arguments`; fetch failures keep their cause. */
function errorText(error: unknown): string {
  const text = errorMessage(error).replace(/^MCP error -?\d+: /, "");
  const cause = error instanceof Error && error.cause !== undefined
    ? errorMessage(error.cause)
    : "";
  return cause === "" || text.includes(cause) ? text : `${text}: ${cause}`;
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    Deno.unrefTimer(timer);
  });
}
