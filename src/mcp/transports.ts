/**
 * The SDK transport of one configured server (docs/mcp.md, "Configuration").
 *
 * - stdio: {@link createStdioTransport} with the server's environment, which
 *   is only `HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM` and `USER` (the SDK's
 *   default), the variables named by `env_vars` and those set by `env`:
 *   provider keys never reach a server unless passed on purpose.
 * - remote: the SDK's streamable HTTP transport with `headers` and, from
 *   `token_env`, `Authorization: Bearer …`; {@link sseTransport} is the older
 *   HTTP+SSE transport the client falls back to.
 *
 * @module
 */

import { resolve } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import {
  type McpRemoteServerSettings,
  type McpServerSettings,
  type McpStdioServerSettings,
} from "../config/mcp_servers.ts";
import { isSecretVariable } from "../secrets/secret_names.ts";
import type { SecretSet } from "../secrets/secrets.ts";
import { createStdioTransport, type StdioTransport } from "./stdio_transport.ts";
import { createCommandSandbox } from "../sandbox/command_sandbox.ts";
import { resolvePaths } from "../config/paths.ts";

/** The variables every stdio server inherits, as the SDK's stdio transport does. */
export const INHERITED_VARIABLES = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"] as const;

/** What starting a server needs from the run. */
export interface TransportContext {
  /** The workspace: a stdio server's working directory, and what its `cwd` is relative to. */
  readonly workdir: string;
  /** rienda's environment. */
  readonly env: (name: string) => string | undefined;
  /**
   * The run's secrets: the secret-named variables a stdio server inherits and
   * a remote server's token are remembered into them, and every failure the
   * connection reports is masked with them.
   */
  readonly secrets: SecretSet;
}

/** The transport of a server, and what must never be printed for it. */
export type ServerTransport =
  | { readonly kind: "stdio"; readonly transport: StdioTransport }
  | {
    readonly kind: "remote";
    readonly transport: Transport;
    /** The bearer token, when there is one (the SSE fallback sends it too). */
    readonly secret: string | undefined;
  };

/** A server's transport could not be set up; the message says why, without the server's name. */
export class TransportSetupError extends Error {
  override name = "TransportSetupError";
}

/** Creates the transport of `settings` (nothing starts before the client connects). */
export async function createServerTransport(
  settings: McpServerSettings,
  context: TransportContext,
): Promise<ServerTransport> {
  switch (settings.kind) {
    case "stdio":
      return { kind: "stdio", transport: await stdioTransport(settings, context) };
    case "remote": {
      const secret = bearerToken(settings, context);
      return { kind: "remote", transport: httpTransport(settings, secret), secret };
    }
  }
}

/** The older HTTP+SSE transport for the same remote server. */
export function sseTransport(settings: McpRemoteServerSettings, secret: string | undefined) {
  return new SSEClientTransport(new URL(settings.url), {
    requestInit: { headers: remoteHeaders(settings, secret) },
  });
}

/** The environment of a stdio server; the secret-named variables it inherits are remembered into `secrets`. */
export function serverEnvironment(
  settings: Pick<McpStdioServerSettings, "env" | "envVars">,
  env: (name: string) => string | undefined,
  secrets: SecretSet,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of [...INHERITED_VARIABLES, ...settings.envVars]) {
    const value = env(name);
    if (value === undefined) continue;
    if (isSecretVariable(name)) secrets.remember(value);
    result[name] = value;
  }
  return { ...result, ...settings.env };
}

async function stdioTransport(
  settings: McpStdioServerSettings,
  context: TransportContext,
): Promise<StdioTransport> {
  const cwd = resolve(context.workdir, settings.cwd ?? ".");
  const info = await Deno.stat(cwd).catch(() => null);
  if (info === null || !info.isDirectory) {
    throw new TransportSetupError(`cwd ${JSON.stringify(cwd)} is not a directory`);
  }
  const env = serverEnvironment(settings, context.env, context.secrets);
  const sandbox = settings.sandbox === undefined ? null : createCommandSandbox(settings.sandbox, {
    workspace: context.workdir,
    home: context.env("HOME") ?? "/",
    protect: rienda(context.env),
    offHint: `or set mcp_servers.${settings.name}.sandbox: off in config.yaml to run it unconfined`,
  });
  if (sandbox === null) {
    return createStdioTransport({ command: settings.command, args: settings.args, env, cwd });
  }
  // A server asked to run confined never runs unconfined (docs/sandbox.md).
  const confined = await sandbox.confine([settings.command, ...settings.args]);
  if ("refused" in confined) throw new TransportSetupError(confined.refused);
  const [command, ...args] = confined.command;
  const transport = createStdioTransport({ command, args, env: { ...env, ...confined.env }, cwd });
  void transport.exited.then(() => confined.release());
  return transport;
}

/** rienda's home and config file, kept read-only inside a sandboxed server's writable folders. */
function rienda(env: (name: string) => string | undefined): string[] {
  const paths = resolvePaths(env);
  return [paths.home, paths.configFile];
}

function bearerToken(
  settings: McpRemoteServerSettings,
  context: TransportContext,
): string | undefined {
  if (settings.tokenEnv === undefined) return undefined;
  const token = context.env(settings.tokenEnv);
  context.secrets.remember(token);
  if (token === undefined || token === "") {
    throw new TransportSetupError(
      `token_env ${settings.tokenEnv} is not set (export it, or remove token_env)`,
    );
  }
  return token;
}

function httpTransport(
  settings: McpRemoteServerSettings,
  secret: string | undefined,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(settings.url), {
    requestInit: { headers: remoteHeaders(settings, secret) },
  });
}

function remoteHeaders(
  settings: McpRemoteServerSettings,
  secret: string | undefined,
): Record<string, string> {
  return {
    ...settings.headers,
    ...(secret === undefined ? {} : { Authorization: `Bearer ${secret}` }),
  };
}
